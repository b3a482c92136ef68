import { defineConfig } from 'vitest/config';
import { scaled } from './test/helpers/time-scale.ts';

// Browser tests (test/e2e): a real Chromium against the built production server, which the
// global setup builds if stale, starts on a free port and stops at the end.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    environment: 'node',
    // One browser (and, where a file asks, one server) per file, two files at a time: a file
    // spends much of its time waiting on its browser and server (the whole suite used about
    // 0.6 of a core's time, one file at a time), so two keep both cores busy. The files share
    // nothing but the global setup's server, which only signed-out visitors browse (a file that
    // signs in starts a server of its own).
    fileParallelism: true,
    maxWorkers: 2,
    // …in workers that keep their modules: the files share no state but the fixture's code
    // (test/e2e/fixture.ts owns each file's browser and servers), and a fresh worker per file
    // cost about a second of imports each (measured: 6 small files 44.5 s → 35.3 s).
    isolate: false,
    // Deadlines only, all scaled by TEST_TIME_SCALE (test/helpers/time-scale.ts).
    testTimeout: scaled(30_000),
    hookTimeout: scaled(30_000),
    teardownTimeout: scaled(30_000),
    // A poll gives the page up to 5 s (scaled) to reach the expected state.
    expect: { poll: { timeout: scaled(5_000) } },
  },
});

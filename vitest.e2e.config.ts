import { defineConfig } from 'vitest/config';
import { scaled } from './test/helpers/time-scale.ts';

// Browser tests (test/e2e): a real Chromium against the built production server, which the
// global setup builds if stale, starts on a free port and stops at the end.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    environment: 'node',
    // One browser (and, where a file asks, one server) per file: files run one after another.
    // Two at a time gained nothing: the suite is CPU-bound (with two files at once each took 1.75×
    // as long: 1,064 s of file time in 609 s) and a page loading slowly became a flaky test.
    fileParallelism: false,
    // …in one worker that keeps its modules: the files share no state but the fixture's code
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

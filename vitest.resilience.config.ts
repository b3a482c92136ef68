import { defineConfig } from 'vitest/config';
import { scaled } from './test/helpers/time-scale.ts';

// Process-level tests: workers, signals, load. They start the built server as real processes.
export default defineConfig({
  test: {
    include: ['test/resilience/**/*.test.ts'],
    globalSetup: ['test/setup/build-once.ts'],
    fileParallelism: false,
    // Deadlines only, all scaled by TEST_TIME_SCALE (test/helpers/time-scale.ts).
    testTimeout: scaled(90_000),
    hookTimeout: scaled(60_000),
    teardownTimeout: scaled(30_000),
    expect: { poll: { timeout: scaled(5_000) } },
  },
});

import { defineConfig } from 'vitest/config';

// Process-level tests: workers, signals, load. They start the built server as real processes.
export default defineConfig({
  test: {
    include: ['test/resilience/**/*.test.ts'],
    globalSetup: ['test/setup/build-once.ts'],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 60_000,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: ['test/e2e/**', 'test/resilience/**', 'test/security/**', 'node_modules/**'],
    globalSetup: ['test/setup/build-once.ts'],
    environment: 'node',
    testTimeout: 15_000,
  },
});

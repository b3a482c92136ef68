import { defineConfig } from 'vitest/config';

// The attack suite (test/security): each test is an attack as an outsider would send it and the
// answer that must come back. Some start the built server as a real process (slow clients,
// memory under the production heap limit), hence the build and the longer timeouts.
export default defineConfig({
  test: {
    include: ['test/security/**/*.test.ts'],
    globalSetup: ['test/setup/build-once.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

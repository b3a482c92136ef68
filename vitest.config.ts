import { defineConfig } from 'vitest/config';
import { postgresBinDir } from './test/helpers/postgres.ts';
import { scaled } from './test/helpers/time-scale.ts';

// The unit and API tests run on SQLite; the tests of everything that keeps data run a second
// time on a real PostgreSQL (the `postgres` project: a throw-away cluster, TEST_ENGINE=postgres,
// test/helpers/app.ts picks the engine). CI must have PostgreSQL (.ci/run installs it); a
// developer's machine without it runs the SQLite project and says so.
const POSTGRES_SUITES = [
  'test/api.test.ts',
  'test/auth.test.ts',
  'test/contact.test.ts',
  'test/forms.test.ts',
  'test/key-rotation.test.ts',
  'test/openapi.test.ts',
  'test/paging.test.ts',
  'test/scopes.test.ts',
  'test/user-branding.test.ts',
  'test/pdf/routes.test.ts',
  'test/pdf/report-pages.test.ts',
  'test/pdf/projects.test.ts',
  'test/db/**/*.test.ts',
  'test/projects/**/*.test.ts',
  'test/notifications/**/*.test.ts',
  'test/calendar/**/*.test.ts',
  'test/mail-preferences/**/*.test.ts',
  'test/mail/**/*.test.ts',
  'test/audit/**/*.test.ts',
  'test/my-account/**/*.test.ts',
  'test/two-factor/**/*.test.ts',
  'test/account-links/**/*.test.ts',
  'test/cms/webhook.test.ts',
  'test/metrics.test.ts',
  'test/bench/**/*.test.ts',
];
const withPostgres = Boolean(postgresBinDir()) || process.env.CI === 'true' || process.env.REQUIRE_POSTGRES === '1';
if (!withPostgres) console.warn('PostgreSQL is not installed: only the SQLite tests run (apt-get install -y postgresql to run both).');

const shared = {
  globalSetup: ['test/setup/build-once.ts'],
  setupFiles: ['test/setup/quick-passwords.ts'],
  environment: 'node',
  // Deadlines only, all scaled by TEST_TIME_SCALE (test/helpers/time-scale.ts). Hooks start apps,
  // servers and PostgreSQL databases: vitest's 10 s for them was what a loaded machine ran out of.
  testTimeout: scaled(15_000),
  hookTimeout: scaled(30_000),
  expect: { poll: { timeout: scaled(5_000) } },
};

export default defineConfig({
  test: {
    // Unit tests wait on sockets, timers and PostgreSQL more than they compute: three files at a
    // time keep two cores busy (one at a time, vitest's default here, left one idle: 10 → 6 min).
    maxWorkers: 3,
    // Global setups stop PostgreSQL clusters and servers: as long as a hook may take to start them.
    teardownTimeout: scaled(30_000),
    projects: [
      {
        test: {
          ...shared,
          name: 'sqlite',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/e2e/**', 'test/resilience/**', 'test/security/**', 'node_modules/**'],
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                ...shared,
                name: 'postgres',
                include: POSTGRES_SUITES,
                globalSetup: ['test/setup/build-once.ts', 'test/setup/postgres.ts'],
                env: { TEST_ENGINE: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});

import { defineConfig } from 'vitest/config';
import { postgresBinDir } from './test/helpers/postgres.ts';
import { scaled } from './test/helpers/time-scale.ts';
import { postgresSuites } from './test/postgres-suites.ts';

// The unit and API tests run on SQLite; the tests of everything that keeps data run a second
// time on a real PostgreSQL (the `postgres` project: a throw-away cluster, TEST_ENGINE=postgres,
// test/helpers/app.ts picks the engine) — the fewest of them that send it every statement shape
// they all send (test/postgres-suites.ts). CI must have PostgreSQL (.ci/run installs it); a
// developer's machine without it runs the SQLite project and says so.
const POSTGRES_SUITES = postgresSuites(import.meta.dirname);
const withPostgres = Boolean(postgresBinDir()) || process.env.CI === 'true' || process.env.REQUIRE_POSTGRES === '1';
if (!withPostgres) console.warn('PostgreSQL is not installed: only the SQLite tests run (apt-get install -y postgresql to run both).');

const shared = {
  // A worker runs file after file in one module graph, as the browser suite does: a fresh one per
  // file spent half the suite's CPU importing the server again (5,164 tests on a loaded 2-core
  // machine: 743 s → 425 s, 995 → 505 CPU-seconds). What a file opens through the test helpers
  // is closed when it ends (test/setup/file-resources.ts).
  isolate: false,
  globalSetup: ['test/setup/build-once.ts'],
  setupFiles: ['test/setup/quick-passwords.ts', 'test/setup/file-resources.ts'],
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
                setupFiles: [...shared.setupFiles, 'test/setup/sql-trace.ts'],
                env: { TEST_ENGINE: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});

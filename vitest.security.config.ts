import { defineConfig } from 'vitest/config';
import { postgresBinDir } from './test/helpers/postgres.ts';
import { scaled } from './test/helpers/time-scale.ts';

// The attack suite (test/security): each test is an attack as an outsider would send it and the
// answer that must come back. Some start the built server as a real process (slow clients,
// memory under the production heap limit), hence the build and the longer timeouts. The attacks
// on what the site keeps run a second time on PostgreSQL (as in vitest.config.ts).
const POSTGRES_ATTACKS = [
  'test/security/stale-session.test.ts',
  'test/security/contact-replay.test.ts',
  'test/security/email-addresses.test.ts',
  'test/security/login-limits.test.ts',
  'test/security/uploads.test.ts',
  'test/security/downloads.test.ts',
  'test/security/document-quotas.test.ts',
  'test/security/limits.test.ts',
  'test/security/identity.test.ts',
  'test/security/abuse.test.ts',
  'test/security/fan-out.test.ts',
];
const withPostgres = Boolean(postgresBinDir()) || process.env.CI === 'true' || process.env.REQUIRE_POSTGRES === '1';

// The attacks that measure the process while it is attacked (/healthz latency, event-loop blocks,
// memory): they run alone, one file at a time, after the others, so that no other file's work is
// in their figures. The rest send requests and read answers, and wait on timeouts more than they
// compute: two files at a time (one at a time left a core idle: the suite took 244 s for 206 s
// of files, a third of it waiting).
const MEASURED = [
  'test/security/pdf-reports.test.ts',
  'test/security/abuse.test.ts',
  'test/security/downloads.test.ts',
  'test/security/document-quotas.test.ts',
  'test/security/fan-out.test.ts',
];
const ALL = ['test/security/**/*.test.ts'];

const shared = {
  globalSetup: ['test/setup/build-once.ts'],
  // The attacks on an app in the test process sign in hundreds of times: its users' hashes are
  // made at a lower cost (verified by the production code). The built server keeps its own.
  setupFiles: ['test/setup/quick-passwords.ts'],
  environment: 'node',
  // Deadlines only, all scaled by TEST_TIME_SCALE (test/helpers/time-scale.ts).
  testTimeout: scaled(60_000),
  hookTimeout: scaled(60_000),
  expect: { poll: { timeout: scaled(5_000) } },
};

/** The projects of one engine: the attacks two at a time (group 0), then the measured ones alone (group 1). */
function engine(name: string, include: readonly string[], extra: { globalSetup?: string[]; env?: Record<string, string> } = {}) {
  const measured = MEASURED.filter((file) => include === ALL || include.includes(file));
  return [
    { test: { ...shared, ...extra, name, include: [...include], exclude: MEASURED, maxWorkers: 2, sequence: { groupOrder: 0 } } },
    { test: { ...shared, ...extra, name: `${name} (measured)`, include: measured, maxWorkers: 1, sequence: { groupOrder: 1 } } },
  ];
}

export default defineConfig({
  test: {
    // Global setups stop PostgreSQL clusters and servers: as long as a hook may take to start them.
    teardownTimeout: scaled(30_000),
    projects: [
      ...engine('sqlite', ALL),
      ...(withPostgres
        ? engine('postgres', POSTGRES_ATTACKS, {
            globalSetup: ['test/setup/build-once.ts', 'test/setup/postgres.ts'],
            env: { TEST_ENGINE: 'postgres' },
          })
        : []),
    ],
  },
});

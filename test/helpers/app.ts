import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createApp, type AppDeps } from '../../server/app.ts';
import { loadConfig } from '../../server/base/config.ts';
import { openDatabase, type Db } from '../../server/db/index.ts';
import { createLogger } from '../../server/base/logger.ts';
import { createTestDatabase, dropTestDatabases } from './postgres.ts';

let shared: ReturnType<typeof createApp> | undefined;

export const ORIGIN = 'https://www.example.test';
export const TEST_SESSION_SECRET = 'test-session-secret-that-is-long-enough-123';

declare module 'vitest' {
  interface ProvidedContext {
    /** The throw-away PostgreSQL cluster of the run (test/setup/postgres.ts), or '' when none. */
    postgresUrl: string;
  }
}

/**
 * The engine these tests run on: the `postgres` project of the suite (vitest.config.ts) sets
 * TEST_ENGINE=postgres and runs the same files against a real PostgreSQL; else SQLite.
 */
export const TEST_ENGINE: 'sqlite' | 'postgres' = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * What a test file opened through these helpers and has not closed, closed when the file ends
 * (test/setup/file-resources.ts): a worker runs file after file in one module graph (isolate:
 * false, vitest.config.ts), and must not carry an earlier file's pools, timers or shared app.
 */
const openInFile = new Set<() => Promise<unknown>>();

/** Makes `resource.close` idempotent and remembers it until it is called. */
function closedAtFileEnd<T extends { close: () => Promise<unknown> }>(resource: T): T {
  const close = resource.close;
  let closing: Promise<unknown> | undefined;
  const closeOnce = () => {
    openInFile.delete(closeOnce);
    closing ??= close.call(resource);
    return closing;
  };
  resource.close = closeOnce;
  openInFile.add(closeOnce);
  return resource;
}

/**
 * Closes what the file left open, all at once: two apps on one database each hold a connection
 * of its pool (the change feed's), and the pool ends only when both have let theirs go.
 */
export async function closeFileResources(): Promise<void> {
  shared = undefined;
  await Promise.allSettled([...openInFile].map((close) => close()));
  await dropTestDatabases();
}

/** A fresh, empty, migrated database of the run's engine (an in-memory SQLite, or a new PostgreSQL database). */
export async function testDatabase(): Promise<Db> {
  if (TEST_ENGINE === 'sqlite') return closedAtFileEnd(await openDatabase({ file: ':memory:' }));
  const cluster = inject('postgresUrl');
  if (!cluster) throw new Error('TEST_ENGINE=postgres but no PostgreSQL cluster was started (test/setup/postgres.ts)');
  return closedAtFileEnd(await openDatabase({ url: await createTestDatabase(cluster), poolMax: 5 }));
}

/**
 * A fresh database of the run's engine that can be closed and opened again (an SQLite file in a
 * temporary folder, or a new PostgreSQL database): for what must survive a restart.
 */
export async function reopenableTestDatabase(): Promise<() => Promise<Db>> {
  if (TEST_ENGINE === 'sqlite') {
    const file = join(mkdtempSync(join(tmpdir(), 'site-db-')), 'site.db');
    return async () => closedAtFileEnd(await openDatabase({ file }));
  }
  const cluster = inject('postgresUrl');
  if (!cluster) throw new Error('TEST_ENGINE=postgres but no PostgreSQL cluster was started (test/setup/postgres.ts)');
  const url = await createTestDatabase(cluster);
  return async () => closedAtFileEnd(await openDatabase({ url, poolMax: 5 }));
}

export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: ORIGIN,
    LOG_LEVEL: 'silent',
    SESSION_SECRET: TEST_SESSION_SECRET,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'site-data-')),
    ...env,
  });
}

/** A fresh app on a fresh database of the run's engine (and a temporary DATA_DIR). */
export async function createTestApp(env?: Record<string, string>, deps: Partial<AppDeps> = {}) {
  const app = await createApp({
    config: testConfig(env),
    logger: deps.logger ?? createLogger('silent'),
    db: deps.db ?? (await testDatabase()),
    ...deps,
    // E-mails are queued but sent only when a test calls app.mail.flush(): no timers, no races.
    mail: { background: false, ...deps.mail },
    // The job runner runs when a test calls app.jobs.tick() (with its clock, when given).
    jobs: { poll: false, ...deps.jobs },
    // A project's notices are told before the action answers: what a test reads next is there.
    fanOut: { background: false, ...deps.fanOut },
  });
  return closedAtFileEnd(app);
}

/** The app with the embedded defaults; shared within a test file unless options are given. */
export function testApp(env?: Record<string, string>, deps: Partial<AppDeps> = {}) {
  if (!env && Object.keys(deps).length === 0) {
    shared ??= createTestApp();
    return shared.then((a) => a.app);
  }
  return createTestApp(env, deps).then((a) => a.app);
}

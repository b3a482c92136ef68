// The site's database: one typed query layer (Kysely) over two engines. SQLite (better-sqlite3,
// WAL, synchronous=FULL) in DATA_DIR/site.db is the embedded default; DATABASE_URL=postgres://…
// selects PostgreSQL (pg, a pool sized by DATABASE_POOL_MAX), which several machines can share.
// The migrations (db/migrations.ts) are applied when the database is opened.
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import { chmodSync, statSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PATHS } from '../base/paths.ts';
import { MIGRATIONS, type Engine, type Migration } from './migrations.ts';
import type { Schema } from './schema.ts';
import { createWriteWatch, type WriteWatch } from './writes.ts';
import type { Pool } from 'pg';
import { BoundedMap } from '../../shared/bounded-map.ts';

export type { Engine } from './migrations.ts';

export type Db = {
  engine: Engine;
  /** PostgreSQL's pool (LISTEN/NOTIFY needs a connection of its own: db/changes.ts). */
  pool?: Pool;
  /** The query builder: every store speaks through it. */
  k: Kysely<Schema>;
  /** Tells what this process writes, table by table (for the reads kept a moment: db/read-cache.ts). */
  writes: Pick<WriteWatch, 'subscribe'>;
  /** Answers when the database does (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** postgres://… (PostgreSQL), else SQLite at `file` (':memory:' for tests). */
  url?: string | undefined;
  file?: string;
  /** PostgreSQL connections per process. */
  poolMax?: number;
  /** Where a PostgreSQL connection error that no query awaited is reported. */
  onPoolError?: (error: Error) => void;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
};

/**
 * A failure of the database itself (down, unreachable, restarting, out of connections) rather
 * than of a query: answered 503 (try again) instead of 500, and the pool reconnects by itself.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  // Node's socket errors, PostgreSQL's connection classes (08…) and shutdown/startup states (57P…).
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'SQLITE_BUSY'].includes(code)) return true;
  if (/^08|^57P0[1-4]$|^53300$/.test(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(message);
}

export function databaseFile(dataDir: string): string {
  return join(dataDir, 'site.db');
}

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(?:ql)?:\/\//.test(url);
}

/**
 * Only the site's own user may read its data (users, messages, uploads): the folder is 0700
 * and the database 0600 — set on every start, so that an install made before this rule is
 * tightened too. SQLite gives its -wal and -shm files the database's mode.
 */
function restrictToOwner(file: string): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The data directory is the site's own: only its owner reads it. A shared directory (sticky,
  // like /tmp) or someone else's is never narrowed: that would lock every other user out of it.
  const info = statSync(dir);
  const shared = (info.mode & 0o1000) !== 0 || (typeof process.getuid === 'function' && info.uid !== process.getuid());
  if (!shared) chmodSync(dir, 0o700);
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, 0o600);
}

let pgTypesSet = false;

async function openPostgres(url: string, options: DatabaseOptions): Promise<Db> {
  const { default: pg } = await import('pg');
  if (!pgTypesSet) {
    // bigint (counts, sums, epoch times) as numbers: every value the site keeps fits in 2^53.
    pg.types.setTypeParser(20, (value: string) => Number(value));
    pgTypesSet = true;
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 30_000,
  });
  // A connection that breaks while idle is reported here; without a listener it would end the process.
  pool.on('error', (error) => options.onPoolError?.(error));
  const writes = createWriteWatch();
  const k = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }), plugins: [writes.plugin] });
  return {
    engine: 'postgres',
    pool,
    k,
    writes,
    async ping() {
      await sql`SELECT 1`.execute(k);
    },
    close: () => k.destroy(),
  };
}

/** Prepared statements kept per SQL text, at most this many (the site's queries are a few dozen shapes). */
const STATEMENTS_KEPT = 500;

/**
 * The database as Kysely's SQLite driver sees it, keeping each prepared statement for its next
 * run: preparing a statement costs more than running it. A statement busy with an unfinished
 * iteration (a streamed query) is not reused: a fresh one is prepared for that call.
 */
function reusingStatements(raw: Database.Database) {
  const kept = new BoundedMap<string, Database.Statement>(STATEMENTS_KEPT);
  return {
    close: () => raw.close(),
    prepare(text: string): Database.Statement {
      const statement = kept.get(text);
      if (statement && !statement.busy) return statement;
      const fresh = raw.prepare(text);
      if (!statement) kept.set(text, fresh);
      return fresh;
    },
  };
}

function openSqlite(file: string): { db: Db; raw: Database.Database } {
  if (file !== ':memory:') restrictToOwner(file);
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  // FULL: a committed write survives power loss, not only a crash of this process.
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  const writes = createWriteWatch();
  const k = new Kysely<Schema>({ dialect: new SqliteDialect({ database: reusingStatements(raw) }), plugins: [writes.plugin] });
  return {
    raw,
    db: {
      engine: 'sqlite',
      k,
      writes,
      async ping() {
        raw.prepare('SELECT 1').get();
      },
      close: () => k.destroy(),
    },
  };
}

/** Opens the database of the options (PostgreSQL for a postgres:// URL, else SQLite), migrated. */
export async function openDatabase(options: DatabaseOptions): Promise<Db> {
  if (isPostgresUrl(options.url)) {
    const db = await openPostgres(options.url, options);
    if (options.migrate !== false) {
      try {
        await migrate(db);
      } catch (error) {
        await db.close();
        throw error;
      }
    }
    return db;
  }
  const { db, raw } = openSqlite(options.file ?? ':memory:');
  if (options.migrate !== false) {
    adoptLegacySqlite(raw);
    await migrate(db);
  }
  return keepStatistics(db, raw);
}

/** How often a running process lets SQLite bring its statistics up to date (its advice: every few hours). */
const OPTIMIZE_EVERY_MS = 6 * 3_600_000;

/**
 * The query planner's statistics (sqlite_stat1), gathered at open where missing or stale, then
 * every few hours. Without them SQLite guesses that an index on a filter (a project's state)
 * narrows a list more than the index of its order does, and sorts thousands of rows to give ten
 * of them (scripts/bench/scale.ts, the admin's projects waiting at 50,000 projects: ~30 ms → 0.2).
 * PostgreSQL gathers its own (autovacuum).
 */
function keepStatistics(db: Db, raw: Database.Database): Db {
  // Gathering them reads whole tables once: through a page cache of 1 MB, not the 16 MB the
  // queries' pages are kept in (better-sqlite3's default), which it would fill with pages nobody
  // asked for (~14 MiB more RSS at start with a 100 MB database).
  const optimize = (mask: string) => {
    const size = raw.pragma('cache_size', { simple: true }) as number;
    raw.pragma('cache_size = -1000');
    try {
      raw.pragma(`optimize = ${mask}`);
    } finally {
      raw.pragma(`cache_size = ${size}`);
    }
  };
  optimize('0x10002');
  const timer = setInterval(() => optimize('0xfffe'), OPTIMIZE_EVERY_MS);
  timer.unref();
  const close = db.close;
  return {
    ...db,
    close: () => {
      clearInterval(timer);
      return close();
    },
  };
}

// -------------------------------------------------------------------------------------------
// Migrations

export const LEGACY_SQLITE_DIR = join(PATHS.root, 'server', 'db', 'legacy-sqlite');
/** The last legacy migration: what the baseline migration (version 1) describes. */
const LEGACY_BASELINE_VERSION = 7;
/** Any number, the same on every instance: the advisory lock that makes migrations take turns. */
const MIGRATION_LOCK_ID = 7_310_842_031;

/**
 * Installs made before the query layer kept their schema in SQL files and PRAGMA user_version.
 * Such a database is brought up to the last of them (the baseline) and the baseline is marked
 * as applied, so that the migrations that follow run on it like on a new one.
 */
function adoptLegacySqlite(raw: Database.Database): void {
  const hasTable = (name: string) => raw.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  if (!hasTable('users') || hasTable('schema_migrations')) return;
  const current = raw.pragma('user_version', { simple: true }) as number;
  const files = readdirSync(LEGACY_SQLITE_DIR)
    .filter((f) => /^\d{3}-[a-z0-9-]+\.sql$/.test(f))
    .sort();
  raw.transaction(() => {
    for (const name of files) {
      const version = Number(name.slice(0, 3));
      if (version > current) raw.exec(readFileSync(join(LEGACY_SQLITE_DIR, name), 'utf8'));
    }
    raw.pragma(`user_version = ${LEGACY_BASELINE_VERSION}`);
    raw.exec('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)');
    raw
      .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (1, ?, ?)')
      .run(MIGRATIONS[0]!.name, new Date().toISOString());
  })();
}

async function pending(k: Kysely<Schema>, migrations: readonly Migration[]): Promise<Migration[]> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`.execute(
    k,
  );
  const rows = await sql<{ version: number }>`SELECT version FROM schema_migrations`.execute(k);
  const applied = new Set(rows.rows.map((r) => Number(r.version)));
  return migrations.filter((m) => !applied.has(m.version));
}

/**
 * Applies the pending migrations in one transaction, one instance at a time (PostgreSQL: an
 * advisory lock held by the transaction; SQLite: BEGIN IMMEDIATE takes the write lock first).
 * Returns the versions applied.
 */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const applied: number[] = [];
  const runAll = async (k: Kysely<Schema>) => {
    for (const migration of await pending(k, migrations)) {
      await migration.up(k, db.engine);
      await sql`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${migration.version}, ${migration.name}, ${new Date().toISOString()})`.execute(
        k,
      );
      applied.push(migration.version);
    }
  };
  if (db.engine === 'postgres') {
    await db.k.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`.execute(trx);
      await runAll(trx);
    });
  } else {
    await db.k.connection().execute(async (conn) => {
      await sql`BEGIN IMMEDIATE`.execute(conn);
      try {
        await runAll(conn);
        await sql`COMMIT`.execute(conn);
      } catch (error) {
        await sql`ROLLBACK`.execute(conn);
        throw error;
      }
    });
  }
  return applied;
}

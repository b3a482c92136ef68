// The embedded SQLite database (better-sqlite3, WAL). Versioned migrations from
// server/db/migrations/NNN-name.sql are applied at start, each in its own transaction, and
// recorded in PRAGMA user_version.
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PATHS } from '../paths.ts';

export type Db = Database.Database;

export const MIGRATIONS_DIR = join(PATHS.root, 'server', 'db', 'migrations');

export function listMigrations(dir = MIGRATIONS_DIR): { version: number; name: string; sql: string }[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}-[a-z0-9-]+\.sql$/.test(f))
    .sort()
    .map((name) => ({ version: Number(name.slice(0, 3)), name, sql: readFileSync(join(dir, name), 'utf8') }));
}

export function migrate(db: Db, dir = MIGRATIONS_DIR): number[] {
  const current = db.pragma('user_version', { simple: true }) as number;
  const applied: number[] = [];
  for (const migration of listMigrations(dir)) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
    applied.push(migration.version);
  }
  return applied;
}

/**
 * Only the site's own user may read its data (users, messages, uploads): the folder is 0700
 * and the database 0600 — set on every start, so that an install made before this rule is
 * tightened too. SQLite gives its -wal and -shm files the database's mode.
 */
function restrictToOwner(file: string): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, 0o600);
}

/** Opens (creating when needed) the database file, in WAL mode, migrated. ':memory:' for tests. */
export function openDatabase(file: string): Db {
  if (file !== ':memory:') restrictToOwner(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // FULL: a committed write survives power loss, not only a crash of this process.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export function databaseFile(dataDir: string): string {
  return join(dataDir, 'site.db');
}

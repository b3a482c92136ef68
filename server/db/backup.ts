// Backups of the embedded SQLite database (`npm run backup`, `npm run restore`). A backup is an
// online, consistent copy taken while the site serves: SQLite's backup API (better-sqlite3's
// `backup`) copies the pages under a read transaction, writers go on meanwhile (WAL). A restore
// replaces DATA_DIR/site.db with a checked copy, only while no process has the database open,
// and keeps the database it replaces beside it: nothing is ever deleted by either command. The
// restored copy keeps no sign-in: a session ended after the backup (signed out, a password
// changed, a user disabled) must not come back with it, so everyone signs in again.
// PostgreSQL has its own tools (pg_dump / pg_restore, docs/operating.md), then endEverySignIn.
import Database from 'better-sqlite3';
import { closeSync, existsSync, fchmodSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Db } from './index.ts';
import { MIGRATIONS } from './migrations.ts';

export class BackupError extends Error {}

/** PostgreSQL's own tools, as `npm run backup`/`restore` name them (docs/operating.md, "Backups"). */
export const PG_DUMP_COMMAND = 'pg_dump --format=custom --file=site-$(date -u +%Y%m%d-%H%M%S).dump "$DATABASE_URL"';
export const PG_RESTORE_COMMAND = 'pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" <file>.dump';

/**
 * Where sign-ins are kept: the sessions (with the API tokens they carry) and the two-factor
 * sign-ins half done. A restore empties them: what the backup kept of them may have been ended since.
 */
export const SIGN_IN_TABLES = ['sessions', 'two_factor_challenges'] as const;

/** Ends every sign-in in the database (after a PostgreSQL restore); the number of sessions ended. */
export async function endEverySignIn(db: Db): Promise<number> {
  const present = new Set((await db.k.introspection.getTables()).map((table) => table.name));
  let sessions = 0;
  for (const table of SIGN_IN_TABLES) {
    if (!present.has(table)) continue;
    const { numDeletedRows } = await db.k.deleteFrom(table).executeTakeFirst();
    if (table === 'sessions') sessions = Number(numDeletedRows);
  }
  return sessions;
}

/** The newest migration this code knows: a backup from newer code cannot be restored by it. */
const KNOWN_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));

/** `site-20261127-093015.db`: a backup's default name, sortable by time. */
export function backupName(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/-|:/g, '')
    .replace('T', '-');
  return `site-${stamp}.db`;
}

export type BackupFacts = { file: string; bytes: number; users: number; version: number };

/**
 * What a database file holds, after SQLite's own integrity check: refuses anything that is not
 * a sound database of this site (no migrations table, a failed check, a newer schema).
 */
export function inspectBackup(file: string): BackupFacts {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  let raw: Database.Database;
  try {
    raw = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupError(`${file} is not an SQLite database (${(error as Error).message})`);
  }
  try {
    let check: unknown;
    try {
      check = raw.pragma('integrity_check', { simple: true });
    } catch (error) {
      throw new BackupError(`${file} is not an SQLite database (${(error as Error).message})`);
    }
    if (check !== 'ok') throw new BackupError(`${file} failed SQLite's integrity check: ${String(check)}`);
    const hasMigrations = raw.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    if (!hasMigrations) throw new BackupError(`${file} is an SQLite database but not one of this site (no schema_migrations table)`);
    const { version } = raw.prepare('SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations').get() as { version: number };
    if (version > KNOWN_VERSION) {
      throw new BackupError(`${file} was made by a newer version of the site (schema ${version}; this one knows up to ${KNOWN_VERSION})`);
    }
    const { users } = raw.prepare('SELECT COUNT(*) AS users FROM users').get() as { users: number };
    return { file, bytes: statSync(file).size, users, version };
  } finally {
    raw.close();
  }
}

/**
 * An empty file only its owner may read or write, made before SQLite writes a byte into it: a
 * copy of the database (users, passwords' hashes, messages) is never readable by others, not even
 * while it is written into a folder that others may enter. SQLite gives its journal the same mode.
 */
function createPrivateFile(file: string): void {
  const fd = openSync(file, 'wx', 0o600);
  try {
    // The umask can only take bits away; 0600 whatever it is.
    fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

export type BackupOptions = {
  /** After each step of the copy, with the file being written (the tests watch its mode). */
  onStep?: (partial: string) => void;
};

/**
 * Copies the live database `source` to `target` (which must not exist) while the site goes on
 * serving, then checks the copy. The copy is written beside its target and renamed into place,
 * so that a failed or interrupted backup never leaves a file that looks like a backup; it is
 * 0600 from its first byte (createPrivateFile), and what is renamed is one self-contained file
 * (selfContained): nothing else is left beside it.
 */
export async function backupDatabase(source: string, target: string, options: BackupOptions = {}): Promise<BackupFacts> {
  if (!existsSync(source)) throw new BackupError(`There is no database at ${source} (is DATA_DIR right?)`);
  if (existsSync(target)) throw new BackupError(`${target} exists: a backup never overwrites a file`);
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  const partial = `${target}.partial`;
  removeWithJournal(partial);
  createPrivateFile(partial);
  const raw = new Database(source, { readonly: true, fileMustExist: true });
  try {
    // All the remaining pages in each step: one step after the first, so a write by the site
    // between two steps (which makes SQLite start the copy again) has one chance, not hundreds.
    await raw.backup(partial, {
      progress: ({ remainingPages }) => {
        options.onStep?.(partial);
        return Math.max(remainingPages, 100);
      },
    });
    selfContained(partial);
  } catch (error) {
    removeWithJournal(partial);
    throw new BackupError(`The backup of ${source} failed: ${(error as Error).message}`);
  } finally {
    raw.close();
  }
  try {
    inspectBackup(partial);
  } catch (error) {
    removeWithJournal(partial);
    throw error;
  }
  renameSync(partial, target);
  return inspectBackup(target);
}

/**
 * A copy made by the backup API keeps the live database's WAL mode, so every later open of it
 * (the check here, a restore, sqlite3 by hand) would leave `-wal` and `-shm` files beside it. In
 * the rollback journal's mode it is one file that holds everything, copied and opened as it is.
 */
function selfContained(file: string): void {
  const copy = new Database(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** Removes a database file and the journal files SQLite may have left beside it. */
function removeWithJournal(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
}

/** Whether some process (a running site) has `file` open: it holds SQLite's WAL index. */
function inUse(file: string): boolean {
  if (!existsSync(file)) return false;
  const raw = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    raw.pragma('locking_mode = EXCLUSIVE');
    raw.exec('BEGIN EXCLUSIVE');
    raw.exec('COMMIT');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw error;
  } finally {
    raw.close();
  }
}

export type RestoreResult = BackupFacts & {
  replaced: string | null;
  /** The sessions the backup kept, ended: everyone signs in again. */
  sessionsEnded: number;
};

/**
 * Puts the backup `from` in place of the database `live`. Refuses while the site (any process)
 * has the database open, and before touching anything when the backup is not sound. The
 * database it replaces is renamed to `<live>.before-restore-<time>` (with its WAL files); the
 * restored one has every sign-in ended (SIGN_IN_TABLES).
 */
export async function restoreDatabase(from: string, live: string, now = new Date()): Promise<RestoreResult> {
  inspectBackup(from);
  if (inUse(live)) {
    throw new BackupError(`The database ${live} is open (is the site running?): stop the site first; a restore replaces its database`);
  }
  mkdirSync(dirname(live), { recursive: true, mode: 0o700 });
  const incoming = `${live}.restoring`;
  rmSync(incoming, { force: true });
  createPrivateFile(incoming);
  const raw = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await raw.backup(incoming);
  } finally {
    raw.close();
  }
  const sessionsEnded = endSignInsOf(incoming);
  let replaced: string | null = null;
  if (existsSync(live)) {
    replaced = `${live}.before-restore-${backupName(now).slice('site-'.length, -'.db'.length)}`;
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(live + suffix)) renameSync(live + suffix, replaced + suffix);
    }
  } else {
    // Stale WAL files of a deleted database would be replayed into the restored one.
    for (const suffix of ['-wal', '-shm']) rmSync(live + suffix, { force: true });
  }
  renameSync(incoming, live);
  return { ...inspectBackup(live), replaced, sessionsEnded };
}

/** Empties SIGN_IN_TABLES in the SQLite file (those its schema has); the number of sessions ended. */
function endSignInsOf(file: string): number {
  const copy = new Database(file, { fileMustExist: true });
  try {
    let sessions = 0;
    for (const table of SIGN_IN_TABLES) {
      if (!copy.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)) continue;
      const { changes } = copy.prepare(`DELETE FROM ${table}`).run();
      if (table === 'sessions') sessions = changes;
    }
    return sessions;
  } finally {
    copy.close();
  }
}

/** Where `npm run backup` writes by default: DATA_DIR/backups/site-<time>.db. */
export function defaultBackupFile(dataDir: string, now = new Date()): string {
  return join(dataDir, 'backups', backupName(now));
}

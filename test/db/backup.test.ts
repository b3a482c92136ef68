// Backups as ops take them: of a site that is serving, the data destroyed, then restored, and a
// user signs in again. SQLite with `npm run backup` / `npm run restore` (the scripts themselves,
// as child processes); PostgreSQL with the pg_dump / pg_restore commands docs/operating.md gives.
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { sql } from 'kysely';
import { expect, inject, test } from 'vitest';
import { backupDatabase, backupName, inspectBackup } from '../../server/db/backup.ts';
import { databaseFile, openDatabase, type Db } from '../../server/db/index.ts';
import { createTestApp, TEST_ENGINE } from '../helpers/app.ts';
import { createTestDatabase, postgresBinDir } from '../helpers/postgres.ts';
import { addUser, loginToken } from '../helpers/users.ts';
import { endSessionsOf } from '../../server/auth/session-store.ts';
import request from 'supertest';

const ROOT = join(import.meta.dirname, '..', '..');

/** Runs `npm run <script>`'s file with DATA_DIR (without blocking the event loop: the site serves meanwhile). */
function runScript(script: 'backup' | 'restore', args: string[], dataDir: string, databaseUrl = '') {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', `${script}.ts`), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** Rows written one after another while `during` runs: the site busy while it is backed up. */
async function writingWhile<T>(db: Db, during: () => Promise<T>): Promise<{ result: T; written: number }> {
  let written = 0;
  let stop = false;
  const writer = (async () => {
    while (!stop) {
      await db.k
        .insertInto('contact_messages')
        .values({
          name: 'Busy',
          email: 'busy@example.com',
          subject: 'x',
          message: `m${written}`,
          locale: 'es',
          consent_at: new Date().toISOString(),
          ip: null,
          read: 0,
          notify_status: 'sent',
          notify_attempts: 0,
          notify_error: null,
          created_at: new Date().toISOString(),
        })
        .execute();
      written++;
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  try {
    const result = await during();
    return { result, written };
  } finally {
    stop = true;
    await writer;
  }
}

const sqliteOnly = TEST_ENGINE === 'sqlite' ? test : test.skip;
const postgresOnly = TEST_ENGINE === 'postgres' && postgresBinDir() ? test : test.skip;

sqliteOnly(
  'npm run backup copies a serving site; with the data destroyed, npm run restore brings it back and the user signs in',
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'site-backup-'));
    const db = await openDatabase({ file: databaseFile(dataDir) });
    const site = await createTestApp({ DATA_DIR: dataDir }, { db });
    await addUser(db, { userName: 'ana', role: 'CLI' });
    await loginToken(site.app, 'ana');

    const { result: backup, written } = await writingWhile(db, () => runScript('backup', [], dataDir));
    expect(backup.code, backup.out).toBe(0);
    expect(written).toBeGreaterThan(0);
    const [file] = readdirSync(join(dataDir, 'backups'));
    expect(file).toMatch(/^site-\d{8}-\d{6}\.db$/);
    const backupFile = join(dataDir, 'backups', file!);
    expect(backup.out).toContain(`Backed up ${databaseFile(dataDir)} to ${backupFile}`);
    // Only the site's owner may read a backup (password hashes, messages).
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(inspectBackup(backupFile)).toMatchObject({ users: 1 });

    // While the site has the database open, a restore refuses and changes nothing.
    const refused = await runScript('restore', [backupFile], dataDir);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/is open \(is the site running\?\): stop the site first/);
    expect(readdirSync(dataDir).filter((name) => name.includes('before-restore'))).toEqual([]);

    // The site stops and its data is lost.
    await site.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(databaseFile(dataDir) + suffix, { force: true });

    const restored = await runScript('restore', [backupFile], dataDir);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toContain('Restored 1 users');
    const again = await openDatabase({ file: databaseFile(dataDir) });
    const back = await createTestApp({ DATA_DIR: dataDir }, { db: again });
    await loginToken(back.app, 'ana');
    await back.close();
  },
);

/** Whether the API takes `token` on the app. */
async function tokenWorks(app: Parameters<typeof request>[0], token: string): Promise<boolean> {
  const res = await request(app).get('/api/me').set('Authorization', `Bearer ${token}`);
  return res.status === 200;
}

sqliteOnly(
  'a restore ends every session the backup kept, and says so: a session ended after the backup does not come back with it',
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'site-backup-'));
    const db = await openDatabase({ file: databaseFile(dataDir) });
    const site = await createTestApp({ DATA_DIR: dataDir }, { db });
    await addUser(db, { userName: 'ana', role: 'CLI' });
    const token = await loginToken(site.app, 'ana');
    expect(await tokenWorks(site.app, token)).toBe(true);
    const backup = await runScript('backup', [], dataDir);
    expect(backup.code, backup.out).toBe(0);
    // After the backup, Ana's session is ended (she signs out, or her password is changed).
    await endSessionsOf(db, 'ana');
    await site.close();

    const restored = await runScript('restore', [join(dataDir, 'backups', readdirSync(join(dataDir, 'backups'))[0]!)], dataDir);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toContain('Ended every session the backup kept (1): everyone signs in again');
    const back = await createTestApp({ DATA_DIR: dataDir }, { db: await openDatabase({ file: databaseFile(dataDir) }) });
    expect(await tokenWorks(back.app, token)).toBe(false);
    // She signs in again as usual.
    expect(await tokenWorks(back.app, await loginToken(back.app, 'ana'))).toBe(true);
    await back.close();
  },
);

sqliteOnly(
  'a restore over an existing database keeps the one it replaces beside it, and a second backup never overwrites the first',
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'site-backup-'));
    const db = await openDatabase({ file: databaseFile(dataDir) });
    await addUser(db, { userName: 'ana', role: 'CLI' });
    await db.close();
    const target = join(dataDir, 'kept.db');
    expect((await runScript('backup', [target], dataDir)).code).toBe(0);
    const twice = await runScript('backup', [target], dataDir);
    expect(twice.code).toBe(1);
    expect(twice.out).toContain(`${target} exists: a backup never overwrites a file`);

    const later = await openDatabase({ file: databaseFile(dataDir) });
    await addUser(later, { userName: 'bea', role: 'CLI' });
    await later.close();
    const restored = await runScript('restore', [target], dataDir);
    expect(restored.code, restored.out).toBe(0);
    const kept = readdirSync(dataDir).filter((name) => /^site\.db\.before-restore-\d{8}-\d{6}$/.test(name));
    expect(kept).toHaveLength(1);
    expect(inspectBackup(join(dataDir, kept[0]!)).users).toBe(2);
    expect(inspectBackup(databaseFile(dataDir)).users).toBe(1);
  },
);

sqliteOnly('a backup is one self-contained file: no -wal, -shm or .partial file beside it, before or after it is opened', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'site-backup-'));
  // The site holds the database open (WAL mode) while the backup is taken.
  const db = await openDatabase({ file: databaseFile(dataDir) });
  await addUser(db, { userName: 'ana', role: 'CLI' });
  const outside = join(mkdtempSync(join(tmpdir(), 'site-backup-target-')), 'copy.db');
  try {
    for (const args of [[], [outside]]) {
      const backup = await runScript('backup', args, dataDir);
      expect(backup.code, backup.out).toBe(0);
    }
  } finally {
    await db.close();
  }
  expect(readdirSync(join(dataDir, 'backups'))).toEqual([expect.stringMatching(/^site-\d{8}-\d{6}\.db$/)]);
  expect(readdirSync(dirname(outside))).toEqual(['copy.db']);
  for (const file of [join(dataDir, 'backups', readdirSync(join(dataDir, 'backups'))[0]!), outside]) {
    // It opens on its own, in the rollback journal's mode, and leaves nothing behind once closed.
    const copy = new Database(file, { fileMustExist: true });
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(copy.prepare('SELECT user_name FROM users').all()).toEqual([{ user_name: 'ana' }]);
    copy.close();
    expect(readdirSync(dirname(file))).toEqual([basename(file)]);
  }
});

sqliteOnly('a restore refuses a file that is not a sound database of this site, before touching the live one', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'site-backup-'));
  const db = await openDatabase({ file: databaseFile(dataDir) });
  await addUser(db, { userName: 'ana', role: 'CLI' });
  await db.close();
  const cases: [string, (file: string) => Promise<void> | void, RegExp][] = [
    ['missing.db', () => {}, /missing\.db does not exist/],
    ['text.db', (file) => writeFileSync(file, 'not a database at all, just text that is long enough'), /is not an SQLite database/],
    [
      'other.db',
      async (file) => {
        const other = await openDatabase({ file, migrate: false });
        await sql`CREATE TABLE notes (x)`.execute(other.k);
        await other.close();
      },
      /not one of this site \(no schema_migrations table\)/,
    ],
    [
      'newer.db',
      async (file) => {
        const newer = await openDatabase({ file });
        await sql`INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', '2030-01-01')`.execute(newer.k);
        await newer.close();
      },
      /made by a newer version of the site \(schema 9999/,
    ],
  ];
  for (const [name, make, message] of cases) {
    const file = join(dataDir, name);
    await make(file);
    const refused = await runScript('restore', [file], dataDir);
    expect(refused.code, name).toBe(1);
    expect(refused.out, name).toMatch(message);
  }
  expect(readdirSync(dataDir).filter((name) => name.includes('before-restore'))).toEqual([]);
  expect(inspectBackup(databaseFile(dataDir)).users).toBe(1);
});

sqliteOnly('with DATABASE_URL set to PostgreSQL, backup and restore name pg_dump and pg_restore instead of guessing', () => {
  for (const script of ['backup', 'restore']) {
    const result = spawnSync(process.execPath, [join(ROOT, 'scripts', `${script}.ts`), ...(script === 'restore' ? ['x.dump'] : [])], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: 'postgres://site@db.example/site' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('pg_restore --clean --if-exists --no-owner');
    if (script === 'restore') expect(result.stderr).toContain('npm run restore -- --end-sessions');
  }
});

sqliteOnly('a backup into another folder is 0600 from its first byte to its last, and so is what SQLite writes beside it', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'site-backup-'));
  const db = await openDatabase({ file: databaseFile(dataDir) });
  for (let i = 0; i < 20; i++) await addUser(db, { userName: `user${i}`, role: 'CLI' });
  // Another folder that others may enter (0755), with the usual umask: nothing but the mode keeps the copy private.
  const elsewhere = mkdtempSync(join(tmpdir(), 'elsewhere-'));
  chmodSync(elsewhere, 0o755);
  const umask = process.umask(0o022);
  const modes: string[] = [];
  try {
    const facts = await backupDatabase(databaseFile(dataDir), join(elsewhere, 'copy.db'), {
      onStep: (partial) => {
        for (const file of readdirSync(elsewhere)) modes.push(`${file} ${(statSync(join(elsewhere, file)).mode & 0o777).toString(8)}`);
        expect(existsSync(partial)).toBe(true);
      },
    });
    expect(facts.users).toBe(20);
  } finally {
    process.umask(umask);
    await db.close();
  }
  expect(modes.length).toBeGreaterThan(0);
  expect(modes.filter((line) => !line.endsWith(' 600'))).toEqual([]);
  expect((statSync(join(elsewhere, 'copy.db')).mode & 0o777).toString(8)).toBe('600');
});

sqliteOnly('npm run backup -- <file in another folder> leaves a copy only its owner reads', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'site-backup-'));
  const db = await openDatabase({ file: databaseFile(dataDir) });
  await addUser(db, { userName: 'ana', role: 'CLI' });
  await db.close();
  const elsewhere = mkdtempSync(join(tmpdir(), 'elsewhere-'));
  chmodSync(elsewhere, 0o755);
  const backup = await runScript('backup', [join(elsewhere, 'site.db')], dataDir);
  expect(backup.code, backup.out).toBe(0);
  const left = readdirSync(elsewhere).map((file) => `${file} ${(statSync(join(elsewhere, file)).mode & 0o777).toString(8)}`);
  expect(left).toEqual(['site.db 600']);
});

test('backup names sort by time (UTC)', () => {
  expect(backupName(new Date('2026-11-27T09:30:15.123Z'))).toBe('site-20261127-093015.db');
});

postgresOnly('PostgreSQL: after pg_restore, npm run restore -- --end-sessions ends every session the dump kept, and says so', async () => {
  const bin = postgresBinDir()!;
  const url = await createTestDatabase(inject('postgresUrl'));
  const db = await openDatabase({ url, poolMax: 5 });
  const site = await createTestApp({}, { db });
  await addUser(db, { userName: 'ana', role: 'CLI' });
  const token = await loginToken(site.app, 'ana');
  const dump = join(mkdtempSync(join(tmpdir(), 'site-pgdump-')), 'site.dump');
  expect(spawnSync(join(bin, 'pg_dump'), ['--format=custom', `--file=${dump}`, url], { encoding: 'utf8' }).status).toBe(0);
  await endSessionsOf(db, 'ana');
  await site.close();
  const restore = spawnSync(join(bin, 'pg_restore'), ['--clean', '--if-exists', '--no-owner', `--dbname=${url}`, dump], {
    encoding: 'utf8',
  });
  expect(restore.status, restore.stderr).toBe(0);
  const ended = await runScript('restore', ['--end-sessions'], mkdtempSync(join(tmpdir(), 'site-data-')), url);
  expect(ended.code, ended.out).toBe(0);
  expect(ended.out).toContain('Ended every session the backup kept (1): everyone signs in again');
  const back = await createTestApp({}, { db: await openDatabase({ url, poolMax: 5 }) });
  expect(await tokenWorks(back.app, token)).toBe(false);
  await back.close();
});

postgresOnly('PostgreSQL: pg_dump of a serving site, the schema destroyed, pg_restore brings it back and the user signs in', async () => {
  const bin = postgresBinDir()!;
  const url = await createTestDatabase(inject('postgresUrl'));
  const db = await openDatabase({ url, poolMax: 5 });
  const site = await createTestApp({}, { db });
  await addUser(db, { userName: 'ana', role: 'CLI' });
  await loginToken(site.app, 'ana');
  const dump = join(mkdtempSync(join(tmpdir(), 'site-pgdump-')), 'site.dump');
  const { result: dumped } = await writingWhile(
    db,
    () =>
      new Promise<number | null>((resolve) => {
        spawn(join(bin, 'pg_dump'), ['--format=custom', `--file=${dump}`, url], { stdio: 'inherit' }).on('exit', resolve);
      }),
  );
  expect(dumped).toBe(0);
  expect(existsSync(dump)).toBe(true);
  await site.close();

  const wreck = await openDatabase({ url, poolMax: 1, migrate: false });
  await sql`DROP SCHEMA public CASCADE`.execute(wreck.k);
  await sql`CREATE SCHEMA public`.execute(wreck.k);
  await wreck.close();

  const restore = spawnSync(join(bin, 'pg_restore'), ['--clean', '--if-exists', '--no-owner', `--dbname=${url}`, dump], {
    encoding: 'utf8',
  });
  expect(restore.status, restore.stderr).toBe(0);
  const again = await openDatabase({ url, poolMax: 5 });
  const back = await createTestApp({}, { db: again });
  await loginToken(back.app, 'ana');
  await back.close();
});

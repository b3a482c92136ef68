// An upgrade as an install meets it: the database the last release left (schema 22, the fixture
// release-22.sql made by fixtures/make-release-22.ts) is opened by the current code, migrated, and
// the site serves it — a signed-in client and her colleague see their company's project with its
// conversation, and can write to it. On SQLite the fixture is loaded as it is; on PostgreSQL the
// same rows go into a database made by migrations 1–22, then the current code migrates it. The
// operating guide's "Upgrades and rollback" rests on this test.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect, inject, onTestFinished, test } from 'vitest';
import { databaseFile, migrate, openDatabase, type Db } from '../../server/db/index.ts';
import { MIGRATIONS } from '../../server/db/migrations.ts';
import { projectPath } from '../../shared/projects.ts';
import { createTestApp, TEST_ENGINE } from '../helpers/app.ts';
import { plainBrowser, textOf } from '../helpers/plain-browser.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { DEFAULT_PASSWORD, loginToken } from '../helpers/users.ts';
import { api } from '../projects/fixtures.ts';

/** The schema version of the last release, the one the fixture holds. */
const RELEASE_VERSION = 22;
const FIXTURE = readFileSync(join(import.meta.dirname, 'fixtures', `release-${RELEASE_VERSION}.sql`), 'utf8');
const RELEASE_MIGRATIONS = MIGRATIONS.filter((m) => m.version <= RELEASE_VERSION);
/** The fixture's rows: one INSERT per line (its maker keeps every value on one line). */
const INSERTS = FIXTURE.split('\n').filter((line) => line.startsWith('INSERT INTO '));
const PROJECT = { id: 1, title: 'Sales dashboards for 12 shops' };

/** The fixture as an SQLite file in DATA_DIR, as the last release left it there. */
function releaseOnSqlite(): string {
  const file = databaseFile(mkdtempSync(join(tmpdir(), 'site-release-')));
  const raw = new Database(file);
  raw.exec(FIXTURE);
  raw.close();
  return file;
}

/** A PostgreSQL database made by the last release's migrations, holding the fixture's rows. */
async function releaseOnPostgres(): Promise<string> {
  const url = await createTestDatabase(inject('postgresUrl'));
  const old = await openDatabase({ url, poolMax: 1, migrate: false });
  try {
    await migrate(old, RELEASE_MIGRATIONS);
    const tables = [...new Set(INSERTS.map((line) => /^INSERT INTO "([a-z_]+)"/.exec(line)![1]!))];
    await old.k.transaction().execute(async (trx) => {
      // The rows come with the counts their triggers kept: loaded as they are, not counted again.
      for (const table of tables) await sql`ALTER TABLE ${sql.table(table)} DISABLE TRIGGER USER`.execute(trx);
      for (const line of INSERTS) if (!line.startsWith('INSERT INTO "schema_migrations"')) await sql.raw(line).execute(trx);
      for (const table of tables) await sql`ALTER TABLE ${sql.table(table)} ENABLE TRIGGER USER`.execute(trx);
      // Ids were given: each sequence goes past them, as if the site had numbered the rows itself.
      const serials = await sql<{ table_name: string; column_name: string }>`
        SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'`.execute(trx);
      for (const { table_name: table, column_name: column } of serials.rows) {
        await sql`SELECT setval(pg_get_serial_sequence(${table}, ${column}), COALESCE(MAX(${sql.ref(column)}), 0) + 1, false)
                  FROM ${sql.table(table)}`.execute(trx);
      }
    });
  } finally {
    await old.close();
  }
  return url;
}

/** The last release's database, opened by the current code (which migrates it). */
function upgraded(): Promise<Db> {
  if (TEST_ENGINE === 'sqlite') return openDatabase({ file: releaseOnSqlite() });
  return releaseOnPostgres().then((url) => openDatabase({ url, poolMax: 5 }));
}

test(`the last release's database (schema ${RELEASE_VERSION}) is migrated by the current code and keeps every row (${TEST_ENGINE})`, async () => {
  const db = await upgraded();
  onTestFinished(() => db.close());
  const versions = await sql<{ version: number }>`SELECT version FROM schema_migrations ORDER BY version`.execute(db.k);
  expect(versions.rows.map((r) => Number(r.version))).toEqual(MIGRATIONS.map((m) => m.version));
  expect(MIGRATIONS.length).toBeGreaterThan(RELEASE_VERSION);
  // Every table's rows are still there, in the numbers the fixture holds.
  const loaded = new Map<string, number>();
  for (const line of INSERTS) {
    const table = /^INSERT INTO "([a-z_]+)"/.exec(line)![1]!;
    if (table !== 'schema_migrations') loaded.set(table, (loaded.get(table) ?? 0) + 1);
  }
  for (const [table, rows] of loaded) {
    const { count } = (await sql<{ count: number }>`SELECT COUNT(*) AS count FROM ${sql.table(table)}`.execute(db.k)).rows[0]!;
    expect(Number(count), table).toBe(rows);
  }
  const project = await db.k.selectFrom('projects').selectAll().where('id', '=', PROJECT.id).executeTakeFirstOrThrow();
  expect(project).toMatchObject({ title: PROJECT.title, state: 'active', owner: 'carla', message_count: 2 });
});

test(`after the upgrade the site serves the old data: a signed-in client and her colleague see their project and its messages, and can write to it (${TEST_ENGINE})`, async () => {
  const site = await createTestApp({}, { db: await upgraded() });
  onTestFinished(() => site.close());
  const page = projectPath('CLI', PROJECT.id, 'en')!;
  for (const userName of ['carla', 'cesar']) {
    const browser = plainBrowser(site.app, { acceptLanguage: 'en' });
    await browser.signIn(userName, DEFAULT_PASSWORD);
    const dashboard = await browser.open('/en/client');
    expect(dashboard.status, userName).toBe(200);
    expect(textOf(dashboard.document.body), userName).toContain(PROJECT.title);
    const project = await browser.open(page);
    expect(project.status, userName).toBe(200);
    const text = textOf(project.document.body);
    expect(text).toContain('Hello! The sales exports need a cleaning step first.');
    expect(text).toContain('Thank you. Can the first dashboard show the returns too?');
  }
  // The old rows' ids are behind the new ones: a message posted now is the third.
  const posted = await api(site.app, await loginToken(site.app, 'carla')).post(`/projects/${PROJECT.id}/messages`, {
    body: 'Yes, returns too.',
  });
  expect(posted.status, JSON.stringify(posted.body)).toBe(201);
  expect(posted.body.id).toBe(3);
  // Someone else's company sees nothing of it.
  const olga = plainBrowser(site.app, { acceptLanguage: 'en' });
  await olga.signIn('olga', DEFAULT_PASSWORD);
  expect(textOf((await olga.open('/en/organization')).document.body)).not.toContain(PROJECT.title);
});

test.runIf(TEST_ENGINE === 'sqlite')(
  "the fixture's schema is what migrations 1–22 make today: a migration that has shipped was not edited",
  async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'site-release-')), 'site.db');
    const fresh = await openDatabase({ file, migrate: false });
    await migrate(fresh, RELEASE_MIGRATIONS);
    await fresh.close();
    const raw = new Database(file, { readonly: true });
    const statements = (
      raw.prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid").all() as {
        sql: string;
      }[]
    ).map((row) => `${row.sql};`);
    raw.close();
    expect(statements.length).toBeGreaterThan(20);
    expect(statements.filter((statement) => !FIXTURE.includes(`\n${statement}\n`))).toEqual([]);
    expect(FIXTURE.match(/^CREATE /gm)).toHaveLength(statements.length);
  },
);

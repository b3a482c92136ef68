// A third locale is data (shared/locales.ts): since migration 23 no CHECK of the schema names the
// locales. The migration keeps every row and everything else of the tables it touches, on both
// engines and on an install from before the query layer.
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect, inject, test } from 'vitest';
import { databaseFile, LEGACY_SQLITE_DIR, migrate, openDatabase, type Db } from '../../server/db/index.ts';
import { MIGRATIONS } from '../../server/db/migrations.ts';
import { TEST_ENGINE } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/postgres.ts';

const TABLES = ['contact_messages', 'mail_outbox', 'user_locales'] as const;
/** Neither of today's two locales. */
const THIRD = 'fr';
const AT = '2026-11-28T09:00:00.000Z';

/** A fresh database of the run's engine with no migration applied yet. */
async function unmigratedDatabase(): Promise<Db> {
  if (TEST_ENGINE === 'sqlite') return openDatabase({ file: ':memory:', migrate: false });
  return openDatabase({ url: await createTestDatabase(inject('postgresUrl')), poolMax: 2, migrate: false });
}

/** A database migrated up to, not including, migration 23. */
async function beforeMigration23(): Promise<Db> {
  const db = await unmigratedDatabase();
  await migrate(
    db,
    MIGRATIONS.filter((m) => m.version < 23),
  );
  return db;
}

function contactMessage(locale: string, n: number) {
  return {
    name: `Visitor ${n}`,
    email: `v${n}@example.com`,
    subject: 'Hello',
    message: 'A message',
    locale,
    consent_at: AT,
    ip: '203.0.113.7',
    read: n % 2,
    notify_status: 'sent',
    notify_attempts: 1,
    notify_error: null,
    created_at: AT,
  };
}

function mail(locale: string, n: number) {
  return {
    kind: 'contact_message',
    recipient: `r${n}@example.com`,
    reply_to: null,
    locale,
    subject: 'Subject',
    text: 'Text',
    html: '<p>Text</p>',
    status: 'pending',
    attempts: 0,
    last_error: null,
    next_attempt_at: 1_700_000_000_000 + n,
    claimed_at: null,
    ref: `contact:${n}`,
    created_at: AT,
    sent_at: null,
    priority: n % 2,
    headers: n % 2 ? '{"List-Unsubscribe":"<https://example.com/u>"}' : null,
  };
}

async function everyRow(db: Db) {
  return {
    contact_messages: await db.k.selectFrom('contact_messages').selectAll().orderBy('id').execute(),
    mail_outbox: await db.k.selectFrom('mail_outbox').selectAll().orderBy('id').execute(),
    user_locales: await db.k.selectFrom('user_locales').selectAll().orderBy('user_name').execute(),
  };
}

/** What the catalog says of a table, split into its CHECKs on the locale and everything else. */
async function tableShape(db: Db, table: string): Promise<{ localeChecks: string[]; rest: unknown }> {
  if (db.engine === 'sqlite') {
    const [created] = (await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ${table}`.execute(db.k))
      .rows;
    const dependents =
      await sql`SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ${table} AND type <> 'table' ORDER BY name`.execute(db.k);
    const check = /\s+check \(locale IN \('es', 'en'\)\)/gi;
    return {
      localeChecks: created!.sql.match(check) ?? [],
      rest: { table: created!.sql.replace(check, ''), dependents: dependents.rows },
    };
  }
  const columns = await sql`
    SELECT column_name, data_type, udt_name, is_nullable, column_default FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY ordinal_position`.execute(db.k);
  const constraints = await sql<{ name: string; definition: string }>`
    SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
    WHERE conrelid = ${table}::regclass ORDER BY conname`.execute(db.k);
  const indexes = await sql`
    SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ${table} ORDER BY indexname`.execute(
    db.k,
  );
  const triggers = await sql`SELECT tgname FROM pg_trigger WHERE tgrelid = ${table}::regclass ORDER BY tgname`.execute(db.k);
  const onLocale = (c: { definition: string }) => /^CHECK \(\(locale = /.test(c.definition);
  return {
    localeChecks: constraints.rows.filter(onLocale).map((c) => c.definition),
    rest: {
      columns: columns.rows,
      constraints: constraints.rows.filter((c) => !onLocale(c)),
      indexes: indexes.rows,
      triggers: triggers.rows,
    },
  };
}

test(`after migration 23 a locale outside es and en is stored in contact messages, the mail outbox and user locales, and the rows written before are kept (${TEST_ENGINE})`, async () => {
  const db = await beforeMigration23();
  try {
    await db.k
      .insertInto('contact_messages')
      .values([contactMessage('es', 1), contactMessage('en', 2)])
      .execute();
    await db.k
      .insertInto('mail_outbox')
      .values([mail('es', 1), mail('en', 2)])
      .execute();
    await db.k
      .insertInto('user_locales')
      .values([
        { user_name: 'ana', locale: 'es', updated_at: AT },
        { user_name: 'bob', locale: 'en', updated_at: AT },
      ])
      .execute();
    await expect(db.k.insertInto('user_locales').values({ user_name: 'eva', locale: THIRD, updated_at: AT }).execute()).rejects.toThrow();
    const before = await everyRow(db);

    expect(
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 23),
      ),
    ).toEqual([23]);
    expect(await everyRow(db)).toEqual(before);

    const message = await db.k
      .insertInto('contact_messages')
      .values(contactMessage(THIRD, 3))
      .returning(['id', 'locale'])
      .executeTakeFirstOrThrow();
    expect(message.locale).toBe(THIRD);
    expect(message.id).toBeGreaterThan(Math.max(...before.contact_messages.map((m) => m.id)));
    const queued = await db.k.insertInto('mail_outbox').values(mail(THIRD, 3)).returning(['id', 'locale']).executeTakeFirstOrThrow();
    expect(queued.locale).toBe(THIRD);
    expect(queued.id).toBeGreaterThan(Math.max(...before.mail_outbox.map((m) => m.id)));
    // As the site records a user's locale: an upsert on the user name, which still compares without case.
    await db.k
      .insertInto('user_locales')
      .values({ user_name: 'ANA', locale: THIRD, updated_at: AT })
      .onConflict((oc) => oc.column('user_name').doUpdateSet({ locale: THIRD }))
      .execute();
    expect(await db.k.selectFrom('user_locales').select(['user_name', 'locale']).orderBy('user_name').execute()).toEqual([
      { user_name: 'ana', locale: THIRD },
      { user_name: 'bob', locale: 'en' },
    ]);
  } finally {
    await db.close();
  }
});

test(`migration 23 takes out only the locale CHECKs: every other column, default, constraint, index and trigger of the three tables stays (${TEST_ENGINE})`, async () => {
  const db = await beforeMigration23();
  try {
    const before = await Promise.all(TABLES.map((table) => tableShape(db, table)));
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 23),
      ),
    ).toEqual([23]);
    const after = await Promise.all(TABLES.map((table) => tableShape(db, table)));
    for (const [i, table] of TABLES.entries()) {
      expect(before[i]!.localeChecks, table).toHaveLength(1);
      expect(after[i]!.localeChecks, table).toEqual([]);
      expect(after[i]!.rest, table).toEqual(before[i]!.rest);
    }
    // The constraints and defaults at work, not only in the catalog.
    const defaults = await sql<{ read: number; notify_status: string; notify_attempts: number }>`
      INSERT INTO contact_messages (name, email, subject, message, locale, consent_at, created_at)
      VALUES ('V', 'v@example.com', 'S', 'M', ${THIRD}, ${AT}, ${AT}) RETURNING read, notify_status, notify_attempts`.execute(db.k);
    expect(defaults.rows).toEqual([{ read: 0, notify_status: 'none', notify_attempts: 0 }]);
    await expect(
      db.k
        .insertInto('contact_messages')
        .values({ ...contactMessage(THIRD, 4), read: 2 })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db.k
        .insertInto('mail_outbox')
        .values({ ...mail(THIRD, 4), status: 'lost' })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db.k
        .insertInto('user_locales')
        .values({ user_name: 'cy', locale: null as never, updated_at: AT })
        .execute(),
    ).rejects.toThrow();
  } finally {
    await db.close();
  }
});

test.runIf(TEST_ENGINE === 'sqlite')(
  'an install from before the query layer loses the locale CHECK of its own contact_messages table and keeps its rows, its partial index and its default',
  async () => {
    const file = databaseFile(mkdtempSync(join(tmpdir(), 'legacy-locales-')));
    const legacy = new Database(file);
    for (const name of readdirSync(LEGACY_SQLITE_DIR).sort()) legacy.exec(readFileSync(join(LEGACY_SQLITE_DIR, name), 'utf8'));
    legacy.pragma('user_version = 7');
    legacy
      .prepare(
        "INSERT INTO contact_messages (name, email, subject, message, locale, consent_at, notify_status) VALUES ('Old', 'o@example.com', 'S', 'M', 'en', ?, 'pending')",
      )
      .run(AT);
    const kept = legacy.prepare('SELECT * FROM contact_messages').all();
    legacy.close();
    const db = await openDatabase({ file });
    try {
      // Every value the row had, kept (later migrations add columns of their own).
      expect(await db.k.selectFrom('contact_messages').selectAll().execute()).toMatchObject(kept);
      await sql`INSERT INTO contact_messages (name, email, subject, message, locale, consent_at) VALUES ('New', 'n@example.com', 'S', 'M', ${THIRD}, ${AT})`.execute(
        db.k,
      );
      const added = await db.k
        .selectFrom('contact_messages')
        .select(['locale', 'created_at'])
        .where('name', '=', 'New')
        .executeTakeFirstOrThrow();
      expect(added.locale).toBe(THIRD);
      expect(added.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const index = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = 'contact_messages_notify'`.execute(db.k);
      expect(index.rows[0]?.sql).toMatch(/WHERE notify_status = 'pending'/);
    } finally {
      await db.close();
    }
  },
);

import { sql } from 'kysely';
import type { AnyDb, Migration } from './migration.ts';

/**
 * The columns migrations 1 and 5 checked against `IN ('es', 'en')`. A third locale is data
 * (shared/locales.ts): the code that writes these columns takes a Locale from that table.
 */
const LOCALE_COLUMNS = [
  ['contact_messages', 'locale'],
  ['mail_outbox', 'locale'],
  ['user_locales', 'locale'],
] as const;

/** Drops the CHECK constraints of the column alone, by the names the catalog gives them. */
async function dropPostgresChecks(db: AnyDb, table: string, column: string): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.conname AS name FROM pg_constraint c
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    WHERE c.conrelid = ${table}::regclass AND c.contype = 'c' AND cardinality(c.conkey) = 1 AND a.attname = ${column}`.execute(db);
  for (const { name } of rows) await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.ref(name)}`.execute(db);
}

/**
 * SQLite cannot drop a CHECK: the table is made again without it, as SQLite documents
 * (https://www.sqlite.org/lang_altertable.html#otheralter): its own CREATE TABLE without the
 * check, the rows copied, the old table dropped, the new one renamed, its indexes and triggers
 * made again from their own SQL. The table's text is edited rather than rewritten, so that every
 * other column, constraint and default stays as it is, on a legacy install's table too.
 */
async function rebuildSqliteWithoutCheck(db: AnyDb, table: string, column: string): Promise<void> {
  const { rows: tables } = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ${table}`.execute(db);
  const created = tables[0]?.sql;
  if (created === undefined) throw new Error(`${table}: no such table to take the CHECK on ${column} out of`);
  const check = new RegExp(String.raw`\s+check\s*\(\s*"?${column}"?\s+in\s*\(\s*'[^']*'(?:\s*,\s*'[^']*')*\s*\)\s*\)`, 'gi');
  const without = created.replace(check, '');
  if (new RegExp(String.raw`check\s*\(\s*"?${column}"?\b`, 'i').test(without)) {
    throw new Error(`${table}: a CHECK on ${column} of a form this migration does not know is left in ${JSON.stringify(created)}`);
  }
  if (without === created) return;
  // Foreign keys stay on inside the migrations' transaction (SQLite ignores the pragma there), and
  // dropping a table they point at would delete, or cascade to, the rows that point at it.
  const { rows: referring } = await sql<{ name: string }>`
    SELECT m.name FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f
    WHERE m.type = 'table' AND f."table" = ${table} COLLATE NOCASE`.execute(db);
  if (referring.length > 0) {
    throw new Error(`${table}: cannot be rebuilt while ${referring.map((r) => r.name).join(', ')} refer to it by foreign key`);
  }
  const { rows: dependents } = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master WHERE tbl_name = ${table} AND type IN ('index', 'trigger') AND sql IS NOT NULL
    ORDER BY type, name`.execute(db);
  const rebuilt = `${table}_rebuilt`;
  const renamed = without.replace(/^CREATE\s+TABLE\s+(?:"[^"]+"|[A-Za-z_][A-Za-z0-9_]*)/i, `CREATE TABLE "${rebuilt}"`);
  if (renamed === without) throw new Error(`${table}: its CREATE TABLE could not be read: ${JSON.stringify(created)}`);
  await sql.raw(renamed).execute(db);
  await sql`INSERT INTO ${sql.table(rebuilt)} SELECT * FROM ${sql.table(table)}`.execute(db);
  await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  await sql`ALTER TABLE ${sql.table(rebuilt)} RENAME TO ${sql.table(table)}`.execute(db);
  for (const dependent of dependents) await sql.raw(dependent.sql).execute(db);
}

export const localesAsData: Migration = {
  version: 23,
  name: 'no CHECK names the locales (contact messages, the mail outbox, user locales): a third locale is data',
  async up(db, engine) {
    for (const [table, column] of LOCALE_COLUMNS) {
      if (engine === 'postgres') await dropPostgresChecks(db, table, column);
      else await rebuildSqliteWithoutCheck(db, table, column);
    }
  },
};

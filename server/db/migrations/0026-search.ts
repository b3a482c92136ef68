import { sql } from 'kysely';
import { columnTypes, type AnyDb, type Migration } from './migration.ts';

/** A text search configuration's name, as PostgreSQL's catalogue spells its own (`spanish`). */
const CONFIG_NAME = /^[a-z_]{1,40}$/;

/**
 * PostgreSQL: each of its own stemming configurations copied as `search_<language>`, with
 * `unaccent` before the stemmer when the server has it and this user may create it ("gestion"
 * then finds "gestión" in every language). Every language the server knows, not the locales':
 * a third locale names its configuration in the locale table, and no migration changes.
 */
async function textSearchConfigurations(db: AnyDb): Promise<void> {
  const unaccent = await sql<{ ok: boolean }>`
    SELECT (EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'unaccent')
      AND (has_database_privilege(current_database(), 'CREATE')
        OR EXISTS (SELECT 1 FROM pg_roles WHERE rolname = current_user AND rolsuper))) AS ok`.execute(db);
  const withUnaccent = unaccent.rows[0]?.ok === true;
  if (withUnaccent) await sql`CREATE EXTENSION IF NOT EXISTS unaccent`.execute(db);
  const languages = await sql<{ name: string }>`
    SELECT c.cfgname AS name FROM pg_ts_config c
    JOIN pg_ts_dict d ON d.dictname = c.cfgname || '_stem' AND d.dictnamespace = c.cfgnamespace
    WHERE c.cfgnamespace = 'pg_catalog'::regnamespace ORDER BY c.cfgname`.execute(db);
  for (const { name } of languages.rows) {
    if (!CONFIG_NAME.test(name)) continue;
    const own = sql.id(`search_${name}`);
    await sql`CREATE TEXT SEARCH CONFIGURATION ${own} (COPY = ${sql.id('pg_catalog', name)})`.execute(db);
    if (withUnaccent) {
      await sql`ALTER TEXT SEARCH CONFIGURATION ${own} ALTER MAPPING FOR hword, hword_part, word WITH unaccent, ${sql.id(`${name}_stem`)}`.execute(
        db,
      );
    }
  }
}

export const search: Migration = {
  version: 26,
  name: 'full-text search over the public content: a row per document and language, its digest, the engine’s index',
  async up(db, engine) {
    const t = columnTypes(engine);
    // A document of the public site as searched (server/search/): what it is, where it is read,
    // its words, and the digest of them that tells an unchanged document from a changed one.
    let table = db.schema
      .createTable('search_documents')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('key', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('locale', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('tag_slugs', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('digest', 'text', (c) => c.notNull())
      .addColumn('version', 'text')
      .addColumn('sort_key', 'text', (c) => c.notNull());
    if (engine === 'postgres') table = table.addColumn('tsv', sql`tsvector`, (c) => c.notNull());
    await table.execute();
    await db.schema.createIndex('search_documents_kind').on('search_documents').columns(['kind', 'locale']).execute();
    if (engine === 'postgres') {
      await sql`CREATE INDEX search_documents_tsv ON search_documents USING gin (tsv)`.execute(db);
      await textSearchConfigurations(db);
      return;
    }
    // SQLite: FTS5 over the table's words (external content: the words are stored once), kept in
    // step by triggers. unicode61 folds case and accents; porter stems English (FTS5 has no Spanish
    // stemmer: Spanish words match whole, accents and case aside).
    await sql`CREATE VIRTUAL TABLE search_fts USING fts5(title, summary, tags, body,
      content='search_documents', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
    await sql`CREATE TRIGGER search_documents_ai AFTER INSERT ON search_documents BEGIN
      INSERT INTO search_fts(rowid, title, summary, tags, body) VALUES (new.id, new.title, new.summary, new.tags, new.body);
    END`.execute(db);
    await sql`CREATE TRIGGER search_documents_ad AFTER DELETE ON search_documents BEGIN
      INSERT INTO search_fts(search_fts, rowid, title, summary, tags, body) VALUES ('delete', old.id, old.title, old.summary, old.tags, old.body);
    END`.execute(db);
    await sql`CREATE TRIGGER search_documents_au AFTER UPDATE ON search_documents BEGIN
      INSERT INTO search_fts(search_fts, rowid, title, summary, tags, body) VALUES ('delete', old.id, old.title, old.summary, old.tags, old.body);
      INSERT INTO search_fts(rowid, title, summary, tags, body) VALUES (new.id, new.title, new.summary, new.tags, new.body);
    END`.execute(db);
  },
};

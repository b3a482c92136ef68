// The search on SQLite: FTS5 (migration 26: unicode61 with diacritics removed, porter), ranked by
// bm25 with the title weighing most, the fragment from snippet().
import { sql } from 'kysely';
import { MARK_END, MARK_START } from '../../shared/search.ts';
import type { Db } from '../db/index.ts';
import { documentKey } from './documents.ts';
import { rowOf, type EngineQuery, type SearchEngine } from './engine.ts';
import { hitOf, indexedOf, removeKeys } from './engine-rows.ts';

/** bm25's weights per column: title, summary, tags, body. */
const WEIGHTS = sql.raw('10.0, 4.0, 4.0, 1.0');
/** Words in a fragment. */
const FRAGMENT_TOKENS = 24;

/** An FTS5 query of the terms: each a quoted string, all required. Nothing of it is syntax. */
export function ftsQuery(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' ');
}

export function sqliteSearch(db: Db): SearchEngine {
  const k = db.k;
  function where({ locale, terms, kinds, tag }: EngineQuery) {
    return sql`search_fts MATCH ${ftsQuery(terms)} AND d.locale = ${locale}
      AND d.kind IN (${sql.join(kinds)}) ${tag ? sql`AND d.tag_slugs LIKE ${`% ${tag} %`}` : sql``}`;
  }
  return {
    indexed: (kind) => indexedOf(k, kind),
    async write(doc, indexed) {
      const row = rowOf(doc, documentKey(doc), indexed);
      const { key: _key, ...changed } = row;
      await k
        .insertInto('search_documents')
        .values(row)
        .onConflict((c) => c.column('key').doUpdateSet(changed))
        .execute();
    },
    remove: (keys) => removeKeys(k, keys),
    async query(query) {
      // Ranked first, without fragments: a fragment costs a pass over a document's text, so it
      // is made for the page's rows only (made in the ranked query, it was made for every match).
      const [ranked, count] = await Promise.all([
        sql<{ id: number }>`
          SELECT d.id FROM search_fts JOIN search_documents d ON d.id = search_fts.rowid
          WHERE ${where(query)}
          ORDER BY bm25(search_fts, ${WEIGHTS}), d.sort_key DESC, d.key
          LIMIT ${query.limit} OFFSET ${query.offset}`.execute(k),
        sql<{ total: number }>`
          SELECT count(*) AS total FROM search_fts JOIN search_documents d ON d.id = search_fts.rowid
          WHERE ${where(query)}`.execute(k),
      ]);
      const ids = ranked.rows.map((row) => row.id);
      const total = Number(count.rows[0]?.total ?? 0);
      if (ids.length === 0) return { hits: [], total };
      const rows = await sql<{ id: number; kind: string; slug: string; path: string; title: string; summary: string; fragment: string }>`
        SELECT d.id, d.kind, d.slug, d.path, d.title, d.summary,
          snippet(search_fts, -1, ${MARK_START}, ${MARK_END}, '…', ${FRAGMENT_TOKENS}) AS fragment
        FROM search_fts JOIN search_documents d ON d.id = search_fts.rowid
        WHERE search_fts MATCH ${ftsQuery(query.terms)} AND search_fts.rowid IN (${sql.join(ids)})`.execute(k);
      const byId = new Map(rows.rows.map((row) => [row.id, row]));
      return { hits: ids.flatMap((id) => byId.get(id) ?? []).map(({ id: _id, ...row }) => hitOf(row)), total };
    },
  };
}

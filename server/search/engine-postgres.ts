// The search on PostgreSQL: a tsvector per row, weighted (title A, summary and tags B, body D),
// made with the locale's `search_<language>` configuration (migration 26: the language's stemmer,
// unaccent before it), ranked by ts_rank, the fragment from ts_headline. The query is
// plainto_tsquery of plain words: no input is syntax.
import { sql } from 'kysely';
import { localeInfo, type Locale } from '../../shared/locales.ts';
import { MARK_END, MARK_START } from '../../shared/search.ts';
import type { Db } from '../db/index.ts';
import { documentKey, type SearchDocument } from './documents.ts';
import { rowOf, type EngineQuery, type SearchEngine } from './engine.ts';
import { hitOf, indexedOf, removeKeys } from './engine-rows.ts';

const HEADLINE_OPTIONS = `StartSel="${MARK_START}", StopSel="${MARK_END}", MaxWords=30, MinWords=12, ShortWord=2, MaxFragments=1, FragmentDelimiter=" … "`;

export function postgresSearch(db: Db): SearchEngine {
  const k = db.k;
  // The configuration each locale is searched with: its language's, or `simple` (no stemming)
  // when the database has none by that name. Read once.
  let configurations: Promise<Set<string>> | null = null;
  async function configOf(locale: Locale): Promise<string> {
    configurations ??= sql<{ name: string }>`SELECT cfgname AS name FROM pg_ts_config`
      .execute(k)
      .then((result) => new Set(result.rows.map((row) => row.name)));
    const own = `search_${localeInfo(locale).searchLanguage}`;
    return (await configurations).has(own) ? own : 'simple';
  }

  function vector(config: string, doc: ReturnType<typeof rowOf>) {
    const cfg = sql`${config}::regconfig`;
    return sql`setweight(to_tsvector(${cfg}, ${doc.title}), 'A') || setweight(to_tsvector(${cfg}, ${doc.summary}), 'B')
      || setweight(to_tsvector(${cfg}, ${doc.tags}), 'B') || setweight(to_tsvector(${cfg}, ${doc.body}), 'D')`;
  }

  return {
    indexed: (kind) => indexedOf(k, kind),
    async write(doc: SearchDocument, indexed) {
      const row = rowOf(doc, documentKey(doc), indexed);
      // By hand: the tsvector column is PostgreSQL's alone (the schema's types are both engines').
      const columns = Object.keys(row);
      const updates = columns.filter((c) => c !== 'key').concat('tsv');
      await sql`INSERT INTO search_documents (${sql.join([...columns, 'tsv'].map((c) => sql.id(c)))})
        VALUES (${sql.join(Object.values(row))}, ${vector(await configOf(doc.locale), row)})
        ON CONFLICT (key) DO UPDATE SET ${sql.join(updates.map((c) => sql`${sql.id(c)} = excluded.${sql.id(c)}`))}`.execute(k);
    },
    remove: (keys) => removeKeys(k, keys),
    async query({ locale, terms, kinds, tag, limit, offset }: EngineQuery) {
      const config = sql`${await configOf(locale)}::regconfig`;
      const query = sql`plainto_tsquery(${config}, ${terms.join(' ')})`;
      // The rank and the page first; the headlines (the costly part) of that page's rows only.
      const rows = await sql<{ kind: string; slug: string; path: string; title: string; summary: string; fragment: string; total: string }>`
        SELECT p.kind, p.slug, p.path, p.title, p.summary, p.total,
          ts_headline(${config}, p.summary || ' ' || p.body, p.query, ${HEADLINE_OPTIONS}) AS fragment
        FROM (
          SELECT d.*, q.query, ts_rank(d.tsv, q.query) AS rank, count(*) OVER () AS total
          FROM search_documents d, (SELECT ${query} AS query) q
          WHERE d.tsv @@ q.query AND d.locale = ${locale} AND d.kind IN (${sql.join(kinds)})
            ${tag ? sql`AND d.tag_slugs LIKE ${`% ${tag} %`}` : sql``}
          ORDER BY rank DESC, d.sort_key DESC, d.key
          LIMIT ${limit} OFFSET ${offset}
        ) p
        ORDER BY p.rank DESC, p.sort_key DESC, p.key`.execute(k);
      // Past the last page there is no row to carry the count: it is counted alone.
      const total =
        rows.rows.length > 0 || offset === 0
          ? Number(rows.rows[0]?.total ?? 0)
          : Number(
              (
                await sql<{ total: string }>`SELECT count(*) AS total FROM search_documents d
                  WHERE d.tsv @@ ${query} AND d.locale = ${locale} AND d.kind IN (${sql.join(kinds)})
                  ${tag ? sql`AND d.tag_slugs LIKE ${`% ${tag} %`}` : sql``}`.execute(k)
              ).rows[0]?.total ?? 0,
            );
      return { hits: rows.rows.map(({ total: _total, ...row }) => hitOf(row)), total };
    },
  };
}

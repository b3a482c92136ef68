// What the search asks of the database, written once per engine: SQLite's FTS5 (engine-sqlite.ts)
// and PostgreSQL's full-text search (engine-postgres.ts), over the table of migration 26.
import type { Locale } from '../../shared/locales.ts';
import type { SearchHit, SearchKind } from '../../shared/search.ts';
import type { SearchDocument } from './documents.ts';

/** Longest body indexed, in characters (PostgreSQL's tsvector holds at most 1 MB; a post is far less). */
export const BODY_MAX = 100_000;

export type EngineQuery = {
  locale: Locale;
  /** Letters and digits only (shared/search.ts `searchTerms`), at least one. */
  terms: readonly string[];
  kinds: readonly SearchKind[];
  /** Only the documents with this tag (a slug). */
  tag?: string | null | undefined;
  limit: number;
  offset: number;
};

/** A row as indexed: its digest, and the source's version when it gave one. */
export type Indexed = { digest: string; version: string | null };

export type SearchEngine = {
  /** What is indexed of a kind, by document key. */
  indexed(kind: SearchKind): Promise<Map<string, Indexed>>;
  /** Writes the document's row (added or replaced). */
  write(doc: SearchDocument, indexed: Indexed): Promise<void>;
  remove(keys: readonly string[]): Promise<void>;
  /** The page of hits asked for, best first (each hit's fragment with the engine's marks), and how many there are in all. */
  query(query: EngineQuery): Promise<{ hits: (Omit<SearchHit, 'fragment'> & { fragment: string })[]; total: number }>;
};

/** A row's columns from a document (both engines write the same). */
export function rowOf(doc: SearchDocument, key: string, { digest, version }: Indexed) {
  return {
    key,
    kind: doc.kind,
    locale: doc.locale,
    slug: doc.slug,
    path: doc.path,
    title: doc.title,
    summary: doc.summary,
    tags: doc.tags.map((tag) => tag.name).join(' '),
    tag_slugs: ` ${doc.tags.map((tag) => tag.slug).join(' ')} `,
    body: doc.body.slice(0, BODY_MAX),
    digest,
    version,
    sort_key: doc.sortKey,
  };
}

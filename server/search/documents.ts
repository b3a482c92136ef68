// What the site search indexes: a document of any kind of public content (a post, a case study,
// a practice, a page made of blocks) in one language, as plain words, and where documents come
// from — a source per kind, which yields them one at a time so that no more than one body is
// held at once (a source of 5,000 posts in two languages is read through, never loaded whole).
import { hash } from 'node:crypto';
import type { Locale } from '../../shared/locales.ts';
import type { Tag } from '../../shared/page-data.ts';
import type { SearchKind } from '../../shared/search.ts';

export type SearchDocument = {
  kind: SearchKind;
  locale: Locale;
  slug: string;
  /** Where it is read, in the site's own form (`/en/blog/x`). */
  path: string;
  title: string;
  summary: string;
  tags: readonly Tag[];
  /** Plain text, no markup (`plainText` of its HTML). */
  body: string;
  /** Ties in rank sort by it, descending (a post's date), then by slug. */
  sortKey: string;
};

/**
 * A document as a source offers it: its identity, what the source says changes with it when it
 * can say so cheaply (a CMS's updatedAt; null: read it to know), and how to read it whole.
 */
export type SearchEntry = {
  kind: SearchKind;
  locale: Locale;
  slug: string;
  version: string | null;
  read(): Promise<SearchDocument | null>;
};

/** The documents of one kind, every language, yielded one at a time. */
export type SearchSource = { kind: SearchKind; entries(): AsyncIterable<SearchEntry> };

/** `<kind>:<locale>:<slug>`: a document's row. */
export function documentKey(doc: Pick<SearchDocument, 'kind' | 'locale' | 'slug'>): string {
  return `${doc.kind}:${doc.locale}:${doc.slug}`;
}

/** The digest of everything indexed of a document: equal digests, nothing to write. */
export function documentDigest(doc: SearchDocument): string {
  const { kind, locale, slug, path, title, summary, tags, body, sortKey } = doc;
  return hash('sha256', JSON.stringify([kind, locale, slug, path, title, summary, tags, body, sortKey]), 'hex');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntity(entity: string, name: string): string {
  if (name.startsWith('#')) {
    const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  }
  return ENTITIES[name] ?? entity;
}

/**
 * The words of sanitised HTML: tags are spaces, entities their characters, control characters
 * (which the engines' fragment marks use) spaces, runs of space one space.
 */
export function plainText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#[0-9]+|#x[0-9a-f]+|[a-z]+);/gi, decodeEntity)
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

// The site search's words and answers, shared by the server's search (server/search/) and the
// pages that show it (the blog's ?q=, /search). Pure.

/** The kinds of document the site search finds (the blog's search finds posts only). */
export const SEARCH_KINDS = ['post', 'case-study', 'practice', 'page'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Longest search the site search takes: longer input is cut, and the page says so. */
export const SEARCH_MAX = 200;
/** Results per page of the site search. */
export const SEARCH_PAGE_SIZE = 10;
/** Most words one search matches (the rest are dropped, as the cut is). */
export const SEARCH_TERMS_MAX = 12;

/** Where an engine's fragment marks a matched word: characters no content carries (control characters are dropped from it). */
export const MARK_START = '\u0002';
export const MARK_END = '\u0003';

/** A piece of a result's fragment: plain text, marked when it is a word the search matched. */
export type FragmentPart = { text: string; marked: boolean };

export type SearchHit = {
  kind: SearchKind;
  /** The document's slug in its language. */
  slug: string;
  /** Where it is read, in the site's own form (`/en/blog/x`). */
  path: string;
  title: string;
  summary: string;
  /** The text around the words found, the words marked. */
  fragment: FragmentPart[];
};

export type SearchResults = {
  hits: SearchHit[];
  total: number;
  /** 1-based. */
  page: number;
  pageCount: number;
};

/**
 * The words of a search as matched: runs of letters and digits only, so that no engine's syntax
 * (quotes, `*`, `-`, `NEAR`, `:`, parentheses) reaches it as syntax; at most SEARCH_TERMS_MAX.
 */
export function searchTerms(q: string): string[] {
  return (q.normalize('NFC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, SEARCH_TERMS_MAX);
}

/** An engine's fragment, its marks made parts: nothing of it is ever markup. */
export function fragmentParts(marked: string): FragmentPart[] {
  const parts: FragmentPart[] = [];
  for (const [i, piece] of marked.split(MARK_START).entries()) {
    const end = piece.indexOf(MARK_END);
    if (i > 0 && end >= 0) {
      if (end > 0) parts.push({ text: piece.slice(0, end), marked: true });
      if (end + 1 < piece.length) parts.push({ text: piece.slice(end + 1), marked: false });
    } else if (piece) parts.push({ text: piece.replaceAll(MARK_END, ''), marked: false });
  }
  return parts;
}

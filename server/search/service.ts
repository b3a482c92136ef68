// Searching: the words of a query, the page of results asked for, each with its fragment.
import { localeHref, type Locale } from '../../shared/locales.ts';
import { fragmentParts, searchTerms, SEARCH_PAGE_SIZE, type SearchKind, type SearchResults } from '../../shared/search.ts';
import type { SearchEngine } from './engine.ts';

export type SearchRequest = {
  q: string;
  locale: Locale;
  kinds: readonly SearchKind[];
  /** Only a tag's documents (a slug). */
  tag?: string | null | undefined;
  /** 1-based. */
  page: number;
  pageSize?: number;
};

/** How long a search waits for the index's first run at start before it answers with what is indexed so far. */
export const FIRST_INDEX_WAIT_MS = 3000;

export function createSearch(engine: SearchEngine, firstIndex: Promise<void>) {
  let indexed = false;
  void firstIndex.finally(() => (indexed = true));

  async function afterFirstIndex(): Promise<void> {
    if (indexed) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([firstIndex, new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_INDEX_WAIT_MS).unref()))]);
    clearTimeout(timer);
  }

  /** The page of results; null past the last page. A query with no word to match has no results (never an error). */
  async function search({ q, locale, kinds, tag, page, pageSize = SEARCH_PAGE_SIZE }: SearchRequest): Promise<SearchResults | null> {
    const terms = searchTerms(q);
    if (terms.length === 0 || kinds.length === 0) return page === 1 ? { hits: [], total: 0, page: 1, pageCount: 1 } : null;
    await afterFirstIndex();
    const found = await engine.query({ locale, terms, kinds, tag, limit: pageSize, offset: (page - 1) * pageSize });
    const pageCount = Math.max(1, Math.ceil(found.total / pageSize));
    if (page > pageCount) return null;
    return {
      hits: found.hits.map((hit) => ({ ...hit, path: hit.path || localeHref('/', locale), fragment: fragmentParts(hit.fragment) })),
      total: found.total,
      page,
      pageCount,
    };
  }

  return { search };
}

export type Search = ReturnType<typeof createSearch>;

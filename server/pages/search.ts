// The site search (/search?q=): every kind of public content, ranked, with the text around the
// words found (server/search/); a page at a time, past the last not found. An empty search is the
// page's prompt, a long one is cut and says so: never an error.
import { searchWords } from '../../shared/blog.ts';
import { SEARCH_KINDS, SEARCH_MAX, type SearchResults } from '../../shared/search.ts';
import { notFound } from '../http/errors.ts';
import { pageNumber } from '../http/paging.ts';
import type { PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'search'>;

const NONE: SearchResults = { hits: [], total: 0, page: 1, pageCount: 1 };

export const loader = (async ({ services: { search }, locale, query, t }) => {
  const typed = (query.get('q') ?? '').trim();
  const q = searchWords(typed, SEARCH_MAX);
  const page = pageNumber(query);
  const results = q ? await search.search({ q, locale, kinds: SEARCH_KINDS, page }) : page === 1 ? NONE : null;
  if (!results) throw notFound();
  return {
    data: { q, cut: q.length < typed.replace(/\p{Cc}/gu, ' ').trim().length, max: SEARCH_MAX, ...results },
    // Results are for the visitor, not for search engines: their links are followed, the page is not indexed.
    meta: { title: q ? t('search.resultsTitle', { q }) : t('pages.search.title'), robots: 'noindex, follow' },
  };
}) satisfies PageLoader<unknown, Uses>;

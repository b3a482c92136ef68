// The paging parameters of the API's lists (shared/paging.ts has their sizes), checked at the
// edge: a value out of range is a 400 naming the parameter, never a silent clamp. And the page
// number of a page's list, read from its URL.
import { z } from 'zod';
import { ID_MAX, PAGE_NUMBER_MAX, PAGE_SIZES, type PagedList } from '../../shared/paging.ts';

/** `pageSize` of a list: 1 to its maximum; its default when absent. */
export function pageSizeParam(list: PagedList) {
  const { default: fallback, max } = PAGE_SIZES[list];
  return z.coerce.number().int().min(1).max(max).default(fallback);
}

/** `page` (1 to PAGE_NUMBER_MAX, default 1) and `pageSize` of a numbered list. */
export function numberedPageQuery(list: PagedList) {
  return z.object({ page: z.coerce.number().int().min(1).max(PAGE_NUMBER_MAX).default(1), pageSize: pageSizeParam(list) });
}

/**
 * `before` (an id: the items older than it; absent: the newest) and `pageSize` of a list that
 * grows at its top. `page` is refused by name: its pages would shift with every new item.
 */
export function cursorPageQuery(list: PagedList) {
  return z.object({
    before: z.coerce.number().int().min(1).max(ID_MAX).optional(),
    pageSize: pageSizeParam(list),
    page: z.never({ error: 'is not taken here: ask for older items with before=<the id of the oldest one you have>' }).optional(),
  });
}

/** The page number of a page's list from its URL (`?page=2`): a whole number up to PAGE_NUMBER_MAX, else 1 (a page ignores a bad value). */
export function pageNumber(query: URLSearchParams, name = 'page'): number {
  const page = Number(query.get(name) ?? '1');
  return Number.isSafeInteger(page) && page >= 1 && page <= PAGE_NUMBER_MAX ? page : 1;
}

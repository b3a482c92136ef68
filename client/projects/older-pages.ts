// "Show older" of a list that grows at its top (a project's history and conversation, paged by
// a cursor: shared/paging.ts). Without JavaScript it is a link to the page at the next cursor;
// with it, that page is read from /_data (the same loader, guards and 404 as the page) and its
// items are added to the list on screen, no reload.
import { useState, type MouseEvent } from 'react';
import { useLocation } from 'react-router-dom';
import type { DataResponse } from '../../shared/page-data.ts';
import type { CursorPage } from '../../shared/paging.ts';

/** Which list of the page: its URL parameter, its field in the loader's data, the heading to scroll to. */
export type OlderList = { param: string; field: string; anchor: string };

/** The page's URL with the list at cursor `before` (null: its newest page), the other lists where they are. */
export function listHref(search: string, list: OlderList, before: number | null): string {
  const query = new URLSearchParams(search);
  // A form's "done" message belongs to the page it came back to.
  query.delete('done');
  if (before === null) query.delete(list.param);
  else query.set(list.param, String(before));
  const text = query.toString();
  return `${text ? `?${text}` : '?'}#${list.anchor}`;
}

async function fetchOlder<T>(path: string, field: string): Promise<CursorPage<T>> {
  const response = await fetch(`/_data?path=${encodeURIComponent(path)}`, {
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
  });
  if (!response.ok) throw new Error(`/_data answered ${response.status}`);
  const answer = (await response.json()) as DataResponse;
  const data = answer.kind === 'payload' && answer.payload.state.kind === 'page' ? answer.payload.state.data : null;
  const page = data && typeof data === 'object' ? (data as Record<string, unknown>)[field] : null;
  if (!page || typeof page !== 'object' || !Array.isArray((page as CursorPage<T>).items)) throw new Error(`No ${field} in the answer`);
  return page as CursorPage<T>;
}

/**
 * The list's items, newest first: the page the server gave, then the older pages asked for
 * since. Mounted again (a `key`) when the server gives a page at another cursor.
 */
export function useOlderPages<T extends { id: number }>(page: CursorPage<T>, list: OlderList) {
  const { pathname, search } = useLocation();
  const [older, setOlder] = useState<T[]>([]);
  const [nextBefore, setNextBefore] = useState(page.nextBefore);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);

  // The newest page read again (a live update, a form's answer): its new items come on top. What
  // was shown below stays when the two pages meet (no item missing between them); otherwise the
  // list starts again from the new page.
  const [shownPage, setShownPage] = useState(page);
  if (shownPage !== page) {
    setShownPage(page);
    const newest = page.items.map((item) => item.id);
    const meets =
      page.before === null &&
      shownPage.before === null &&
      (page.nextBefore === null || (newest.length > 0 && Math.min(...newest) <= (shownPage.items[0]?.id ?? 0)));
    if (meets && older.length > 0) {
      const onPage = new Set(newest);
      setOlder([...shownPage.items, ...older].filter((item) => !onPage.has(item.id)));
    } else {
      setOlder([]);
      setNextBefore(page.nextBefore);
    }
  }

  async function showOlder(event: MouseEvent<HTMLAnchorElement>) {
    if (nextBefore === null || loading || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setLoading(true);
    setFailed(false);
    try {
      const query = new URLSearchParams(search);
      query.set(list.param, String(nextBefore));
      const next = await fetchOlder<T>(`${pathname}?${query.toString()}`, list.field);
      setOlder((shown) => {
        const seen = new Set([...page.items, ...shown].map((item) => item.id));
        return [...shown, ...next.items.filter((item) => !seen.has(item.id))];
      });
      setNextBefore(next.nextBefore);
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }

  return {
    items: older.length > 0 ? [...page.items, ...older] : page.items,
    /** The link to the next older page; null when the oldest item is shown. */
    olderHref: nextBefore === null ? null : listHref(search, list, nextBefore),
    /** Back to the newest page, when the server gave an older one (a link followed without JavaScript). */
    newestHref: page.before === null ? null : listHref(search, list, null),
    loading,
    failed,
    showOlder,
  };
}

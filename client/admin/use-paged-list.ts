// One page of a list the console fetches from the API (users, contact messages, …): which page
// and query are shown, loading and failure, and the rules every such list follows.
import { useRef, useState } from 'react';
import type { ApiAnswer, ApiFailure } from './api.ts';

/** What the API answers for a page of any list. */
export type PageOf<T> = { items: T[]; total: number; page: number; pageSize: number };

/** The page on screen and the query it answers (a search text, a filter…). */
export type ShownPage<L, Q> = { list: L; query: Q };

export function pageCount(list: Pick<PageOf<unknown>, 'total' | 'pageSize'>): number {
  return Math.max(1, Math.ceil(list.total / Math.max(1, list.pageSize)));
}

export type PagedList<L, Q> = {
  /** Null until the first page arrives (unless the server rendered one). */
  shown: ShownPage<L, Q> | null;
  /** How many pages the shown list has (1 when none is shown). */
  pages: number;
  loading: boolean;
  /** Why the last load failed; cleared when the next one is asked for. */
  failure: ApiFailure | null;
  /** Page `page` of the list for `query`. */
  load: (query: Q, page: number) => Promise<void>;
  /** Another page of the list on screen. */
  goTo: (page: number) => Promise<void>;
  /** The page last asked for, again (after a change, to bring it up to date). */
  reload: () => Promise<void>;
  /** The first page, unless some page has already been asked for. */
  ensureLoaded: () => void;
  /** Shows a change at once (a row updated, removed) before the reload confirms it. */
  update: (change: (list: L) => L) => void;
};

/**
 * A paged list. Only the newest request counts (an older answer arriving late is dropped), and
 * a page past the end (the last rows went away) falls back to the last page.
 */
export function usePagedList<L extends PageOf<unknown>, Q>({
  fetchPage,
  query,
  initial = null,
}: {
  fetchPage: (query: Q, page: number) => Promise<ApiAnswer<L>>;
  /** The query before any is chosen (no search, no filter). */
  query: Q;
  /** The server-rendered first page: shown as it is, nothing is fetched on mount. */
  initial?: L | null;
}): PagedList<L, Q> {
  const [shown, setShown] = useState<ShownPage<L, Q> | null>(initial && { list: initial, query });
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const requestSeq = useRef(0);
  const requested = useRef<{ query: Q; page: number } | null>(initial && { query, page: initial.page });

  async function load(nextQuery: Q, page: number): Promise<void> {
    const seq = ++requestSeq.current;
    requested.current = { query: nextQuery, page };
    setLoading(true);
    setFailure(null);
    const answer = await fetchPage(nextQuery, page);
    if (seq !== requestSeq.current) return; // a newer request has been sent since
    if (!answer.ok) {
      setLoading(false);
      setFailure(answer.error);
      return;
    }
    const last = pageCount(answer.value);
    if (answer.value.items.length === 0 && page > last) {
      await load(nextQuery, last);
      return;
    }
    setLoading(false);
    setShown({ list: answer.value, query: nextQuery });
  }

  return {
    shown,
    pages: shown ? pageCount(shown.list) : 1,
    loading,
    failure,
    load,
    goTo: (page) => load(shown ? shown.query : (requested.current?.query ?? query), page),
    reload: () => {
      const last = requested.current ?? { query, page: 1 };
      return load(last.query, last.page);
    },
    ensureLoaded: () => {
      if (!requested.current) void load(query, 1);
    },
    update: (change) => setShown((previous) => previous && { ...previous, list: change(previous.list) }),
  };
}

// Live updates (client/live/) of the page shown: the bell's count as the stream says it (for the
// page it was told on), and the page read again, quietly, when something it shows changed.
import { useEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { PagePayload } from '../shared/page-data.ts';
import { useLiveStream } from './live/use-live-stream.ts';
import { loadNavigator } from './navigator-chunk.ts';
import type { LoadState, View } from './use-page-navigation.ts';

/** The pages a project's change is read again on (the dashboards list projects; the project's own page is matched by id). */
const LIVE_LISTS: ReadonlySet<string> = new Set(['client', 'organization', 'expert', 'admin', 'admin-projects']);

/** Whether the page shown shows project `id` (null: any project, after a break in the stream). */
function showsProject(payload: PagePayload, id: number | null): boolean {
  if (payload.state.kind !== 'page') return false;
  const page = payload.state.page;
  if (page === 'project') return id === null || payload.params.id === String(id);
  return LIVE_LISTS.has(page) || (id === null && page === 'notifications');
}

export type LiveRefresh = {
  /** The bell's count as the stream said it, for the page it was told on. */
  liveBell: { count: number; payload: PagePayload } | null;
  /** The view was set by a live read (the page after it keeps its scroll and focus). */
  quietRefreshRef: RefObject<boolean>;
  /** Navigations started so far: a live read is shown only if none started while it was read. */
  navigationsRef: RefObject<number>;
};

export function useLiveRefresh({
  enabled,
  view,
  loadState,
  shownUrlRef,
  setView,
}: {
  /** A user is signed in. */
  enabled: boolean;
  view: View;
  loadState: LoadState;
  shownUrlRef: RefObject<string>;
  setView: Dispatch<SetStateAction<View>>;
}): LiveRefresh {
  const [liveBell, setLiveBell] = useState<{ count: number; payload: PagePayload } | null>(null);
  const quietRefreshRef = useRef(false);
  const navigationsRef = useRef(0);
  /** A hidden tab has a read waiting for it to be shown. */
  const readWhenShown = useRef(false);
  const shownView = useRef(view);
  const loading = useRef(loadState);
  useEffect(() => {
    shownView.current = view;
    loading.current = loadState;
  });
  const refreshing = useRef<'idle' | 'running' | 'again'>('idle');
  // Read through functions: each read is of now, after the awaits.
  const navigating = () => loading.current === 'pending';
  const askedAgain = () => refreshing.current === 'again';
  async function refreshQuietly(): Promise<void> {
    if (refreshing.current !== 'idle') {
      refreshing.current = 'again';
      return;
    }
    refreshing.current = 'running';
    try {
      // A navigation under way brings the page afresh; a hidden tab reads it when it is shown.
      if (navigating()) return;
      if (document.visibilityState === 'hidden') {
        // One read when the tab is shown again, however many changes came while it was hidden.
        if (!readWhenShown.current) {
          readWhenShown.current = true;
          document.addEventListener(
            'visibilitychange',
            () => {
              readWhenShown.current = false;
              void refreshQuietly();
            },
            { once: true },
          );
        }
        return;
      }
      const shown = shownUrlRef.current;
      const started = navigationsRef.current;
      const navigator = await loadNavigator();
      const answer = await navigator.fetchPageData(shown, new AbortController().signal);
      if (answer.kind !== 'payload' || shownUrlRef.current !== shown || navigationsRef.current !== started || navigating()) return;
      const fresh = answer.payload;
      if (fresh.locale !== shownView.current.payload.locale) return;
      quietRefreshRef.current = true;
      // What a form said stays said: the answer of a plain read has no form.
      setView((before) => ({
        payload: { ...fresh, url: shown, ...(before.payload.form ? { form: before.payload.form } : {}) },
        messages: before.messages,
      }));
    } catch (error) {
      console.info('Live refresh failed', error);
    } finally {
      const again = askedAgain();
      refreshing.current = 'idle';
      if (again) void refreshQuietly();
    }
  }
  useLiveStream(enabled, {
    onNotifications(unread, arrived) {
      setLiveBell({ count: unread, payload: shownView.current.payload });
      const page = shownView.current.payload.state;
      if (arrived && page.kind === 'page' && page.page === 'notifications') void refreshQuietly();
    },
    onProject(id) {
      if (showsProject(shownView.current.payload, id)) void refreshQuietly();
    },
    onReconnected() {
      if (showsProject(shownView.current.payload, null)) void refreshQuietly();
    },
  });
  return { liveBell, quietRefreshRef, navigationsRef };
}

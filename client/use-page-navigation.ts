// A navigation in the browser: the guards first, then the page's data (/_data), its messages and
// its chunk, shown through the page transition; a failure shows the error page.
import { useEffect, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { useLocation, useNavigate } from 'react-router-dom';
import { MIN_FETCH_DELAY_MS } from '../shared/constants.ts';
import { runGuards, UnknownMiddlewareError, type GuardOutcome } from '../shared/guards.ts';
import type { PagePayload } from '../shared/page-data.ts';
import { matchRoute } from '../shared/routes.ts';
import type { Messages } from '../shared/translate.ts';
import type { BootData } from './boot.ts';
import { messagesFor } from './messages.ts';
import { loadNavigator, type Navigator } from './navigator-chunk.ts';
import { claimChunkReload, isChunkLoadError } from './runtime/chunk-reload.ts';
import { delay, track } from './runtime/loading.ts';
import { loadPage } from './runtime/page-chunks.ts';
import type { TransitionPhase } from './runtime/transition.ts';

/** Page loading goes pending → error | done. */
export type LoadState = 'pending' | 'error' | 'done';

/** The page shown and the messages of its locale. */
export type View = { payload: PagePayload; messages: Messages };

export type PageNavigation = {
  boot: Pick<BootData, 'messageUrls'>;
  view: View;
  signedOut: boolean;
  /** The URL of the page shown: set when the next page is shown. */
  shownUrlRef: RefObject<string>;
  /** Navigations started so far: counted here, read by the live refresh. */
  navigationsRef: RefObject<number>;
  transitionRef: RefObject<HTMLDivElement | null>;
  setView: (view: View) => void;
  setLoadState: (state: LoadState) => void;
  setPhase: (phase: TransitionPhase) => void;
  setSignedOut: (signedOut: boolean) => void;
};

/**
 * The route's guards as the browser runs them. A guard the table names but GUARDS lacks is the
 * server's to report: /_data answers its error page, 500 'Unknown middleware {name}' in the
 * page's language (docs/specification.md §5.7), the same page a full load shows.
 */
function guardsInBrowser(pathname: string, url: string, user: PagePayload['user']): GuardOutcome {
  const target = matchRoute(pathname);
  if (target?.kind !== 'route') return null;
  try {
    return runGuards({ route: target.route, params: target.params, url, user });
  } catch (error) {
    if (error instanceof UnknownMiddlewareError) return null;
    throw error;
  }
}

export function usePageNavigation({
  boot,
  view,
  signedOut,
  shownUrlRef,
  navigationsRef,
  transitionRef,
  setView,
  setLoadState,
  setPhase,
  setSignedOut,
}: PageNavigation): void {
  const location = useLocation();
  const navigate = useNavigate();
  const url = location.pathname + location.search;
  const revalidate = (location.state as { revalidate?: number } | null)?.revalidate;

  useEffect(() => {
    if (url === shownUrlRef.current && !revalidate) return;
    // A live read started before this navigation must not show what it read after it.
    navigationsRef.current++;
    const controller = new AbortController();
    const aborted = () => controller.signal.aborted;
    const minimumDelay = delay(MIN_FETCH_DELAY_MS);

    async function show(navigator: Navigator, next: View, finalState: LoadState) {
      await navigator.playTransition({
        element: () => transitionRef.current,
        leave: () => flushSync(() => setPhase('leave')),
        enter: (animated) => {
          shownUrlRef.current = next.payload.url;
          flushSync(() => {
            setSignedOut(false);
            setView(next);
            setLoadState(finalState);
            setPhase(animated ? 'enter' : 'idle');
          });
        },
        idle: () => setPhase('idle'),
        aborted,
      });
    }

    async function navigateTo() {
      // Guards run in the browser before a navigation; a redirect that needs
      // the server (remembering the path for after login) goes through /_data instead.
      const outcome = guardsInBrowser(location.pathname, url, signedOut ? null : view.payload.user);
      if (outcome?.kind === 'redirect' && !outcome.rememberPath) {
        navigate(outcome.to, { replace: true });
        return;
      }
      setLoadState('pending');
      const navigator = await track(loadNavigator());
      // A 200 ms minimum, so that fast answers (and fast failures) do not flash.
      const [answer] = await track(Promise.all([navigator.fetchPageData(url, controller.signal), minimumDelay]));
      if (aborted()) return;
      if (answer.kind === 'redirect') {
        if (answer.to.startsWith('/')) navigate(answer.to, { replace: true });
        else window.location.assign(answer.to);
        return;
      }
      const { payload } = answer;
      const [messages] = await track(
        Promise.all([messagesFor(payload.locale, boot), payload.state.kind === 'page' ? loadPage(payload.state.page) : null]),
      );
      if (aborted()) return;
      await show(navigator, { payload: { ...payload, url }, messages }, 'done');
    }

    navigateTo().catch((error: unknown) => {
      if (aborted()) return;
      if (isChunkLoadError(error) && claimChunkReload()) {
        // A deploy removed the chunk this page needs: a fresh document knows the new one.
        window.location.reload();
        return;
      }
      console.info('Navigation failed', error);
      const failed: PagePayload = {
        ...view.payload,
        url,
        status: 500,
        state: { kind: 'error', error: { status: 500, message: '' } },
      };
      void minimumDelay
        .then(loadNavigator)
        .then((navigator) => (aborted() ? undefined : show(navigator, { payload: failed, messages: view.messages }, 'error')));
    });
    return () => controller.abort();
    // A revalidation is asked for per navigation (its key), not per URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url, location.key]);
}

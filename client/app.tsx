import { useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useLocation, useNavigate, useRoutes } from 'react-router-dom';
import { IDLE_PREFETCH_TIMEOUT_MS, MIN_FETCH_DELAY_MS } from '../shared/constants.ts';
import { runGuards } from '../shared/guards.ts';
import type { Locale } from '../shared/locales.ts';
import type { PagePayload } from '../shared/page-data.ts';
import { matchRoute, type PageKey } from '../shared/routes.ts';
import type { Messages, Translate } from '../shared/translate.ts';
import type { BootData } from './boot.ts';
import { ErrorBoundary } from './components/error-boundary.tsx';
import { ErrorView } from './components/error-view.tsx';
import { LastResortView } from './components/last-resort-view.tsx';
import { Layout } from './components/layout.tsx';
import { I18nProvider } from './translations.tsx';
import { loadPage } from './runtime/page-chunks.ts';
import { routesFor, ShownPageProvider } from './routes.tsx';
import { claimChunkReload, isChunkLoadError } from './runtime/chunk-reload.ts';
import { deferredComponent } from './runtime/deferred.tsx';
import { delay, track } from './runtime/loading.ts';
import { applyBranding } from './runtime/branding.ts';
import { TRANSITION_CLASS, type TransitionPhase } from './runtime/transition.ts';
import type * as NavigatorModule from './runtime/navigator.ts';
import { useLiveStream } from './live/use-live-stream.ts';

export type AppProps = {
  boot: BootData;
  /** The server's fixed translators (one per locale, made at start); the browser makes its own i18next. */
  translators?: (locale: Locale) => Translate;
};

// The cookie banner is shown once per visitor: its own chunk, not part of every first load.
const CookieBanner = deferredComponent(() => import('./components/cookie-banner.tsx').then((m) => m.CookieBanner)).Deferred;

/** A page that failed while rendering in the browser: the error page, status 500. */
const CLIENT_FAILURE = { status: 500, message: '' } as const;

type Navigator = typeof NavigatorModule;

/** What the browser needs only once the visitor moves (runtime/navigator.ts): its own chunk, loaded once. */
let navigatorLoad: Promise<Navigator> | null = null;
function loadNavigator(): Promise<Navigator> {
  navigatorLoad ??= import('./runtime/navigator.ts').catch((error: unknown) => {
    navigatorLoad = null;
    throw error;
  });
  return navigatorLoad;
}

/** When the browser is idle (2000 ms at most). */
function whenIdle(callback: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(callback, { timeout: IDLE_PREFETCH_TIMEOUT_MS });
  else setTimeout(callback, 1);
}

/** What prefetching needs of the entry: which page a path shows (the route table), and its chunk. */
const PREFETCH = {
  pageOf: (pathname: string) => {
    const match = matchRoute(pathname);
    return match?.kind === 'route' ? match.route.page : null;
  },
  load: (page: string) => loadPage(page as PageKey),
  idleTimeoutMs: IDLE_PREFETCH_TIMEOUT_MS,
};

/** The pages a project's change is read again on (the dashboards list projects; the project's own page is matched by id). */
const LIVE_LISTS: ReadonlySet<string> = new Set(['client', 'organization', 'expert', 'admin', 'admin-projects']);

/** Whether the page shown shows project `id` (null: any project, after a break in the stream). */
function showsProject(payload: PagePayload, id: number | null): boolean {
  if (payload.state.kind !== 'page') return false;
  const page = payload.state.page;
  if (page === 'project') return id === null || payload.params.id === String(id);
  return LIVE_LISTS.has(page) || (id === null && page === 'notifications');
}

/** Page loading goes pending → error | done. */
export type LoadState = 'pending' | 'error' | 'done';

/** The routes' element for the URL shown (React Router matches it: client/routes.tsx). */
function ShownRoutes({ url, routeName }: { url: string; routeName: string | null }) {
  return useRoutes(routesFor(routeName), url);
}

const messageCache = new Map<Locale, Messages>();

/**
 * A locale's messages: the hashed JSON file of the build (immutable, preloaded by the page for
 * its own locale), one request per locale, then cached; the other locale's on demand when
 * switching.
 */
export async function messagesFor(locale: Locale, boot: Pick<BootData, 'messageUrls'>): Promise<Messages> {
  const cached = messageCache.get(locale);
  if (cached) return cached;
  const response = await fetch(boot.messageUrls[locale]);
  if (!response.ok) throw new Error(`Messages for ${locale} answered ${response.status}`);
  const messages = (await response.json()) as Messages;
  messageCache.set(locale, messages);
  return messages;
}

type View = { payload: PagePayload; messages: Messages };

export function App({ boot, translators }: AppProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const [view, setView] = useState<View>({ payload: boot.payload, messages: boot.messages });
  const [loadState, setLoadState] = useState<LoadState>('done');
  const [phase, setPhase] = useState<TransitionPhase>('idle');
  // The signed-in user comes with every page; logout clears it at once.
  const [signedOut, setSignedOut] = useState(false);
  // Cookie consent: the banner shows until a choice is made, and again from "Cookie settings".
  const [consent, setConsent] = useState(boot.consent.current);
  const [consentOpen, setConsentOpen] = useState(boot.consent.current === null);
  const mainRef = useRef<HTMLElement>(null);
  const transitionRef = useRef<HTMLDivElement>(null);
  const shownUrl = useRef(boot.payload.url);
  const firstRender = useRef(true);

  const url = location.pathname + location.search;

  // Live updates (client/live/): the bell's count as the stream says it (for the page it was
  // told on), and the page shown read again, quietly, when something it shows changed.
  const [liveBell, setLiveBell] = useState<{ count: number; payload: PagePayload } | null>(null);
  const quietRefresh = useRef(false);
  /** Navigations started so far: a live read is shown only if none started while it was read. */
  const navigations = useRef(0);
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
      const shown = shownUrl.current;
      const started = navigations.current;
      const navigator = await loadNavigator();
      const answer = await navigator.fetchPageData(shown, new AbortController().signal);
      if (answer.kind !== 'payload' || shownUrl.current !== shown || navigations.current !== started || navigating()) return;
      const fresh = answer.payload;
      if (fresh.locale !== shownView.current.payload.locale) return;
      quietRefresh.current = true;
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
  useLiveStream(Boolean(view.payload.user) && !signedOut, {
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
  const revalidate = (location.state as { revalidate?: number } | null)?.revalidate;

  useEffect(() => {
    if (url === shownUrl.current && !revalidate) return;
    // A live read started before this navigation must not show what it read after it.
    navigations.current++;
    const controller = new AbortController();
    const aborted = () => controller.signal.aborted;
    const minimumDelay = delay(MIN_FETCH_DELAY_MS);

    async function show(navigator: Navigator, next: View, finalState: LoadState) {
      await navigator.playTransition({
        element: () => transitionRef.current,
        leave: () => flushSync(() => setPhase('leave')),
        enter: (animated) => {
          shownUrl.current = next.payload.url;
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
      const target = matchRoute(location.pathname);
      if (target?.kind === 'route') {
        const user = signedOut ? null : view.payload.user;
        const outcome = runGuards({ route: target.route, params: target.params, url, user });
        if (outcome?.kind === 'redirect' && !outcome.rememberPath) {
          navigate(outcome.to, { replace: true });
          return;
        }
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

  // After a new page is shown: the document follows it, focus and scroll move to it.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // The same page read again (live): where the reader is and what has focus stay.
    if (quietRefresh.current) {
      quietRefresh.current = false;
      return;
    }
    // Loaded by the navigation that showed the page.
    void loadNavigator().then((navigator) => navigator.applyHead(view.payload.head, view.payload.locale));
    applyBranding(view.payload.branding);
    if (!location.hash) window.scrollTo(0, 0);
    mainRef.current?.focus({ preventScroll: true });
    // Only when a new page is shown, not on every location change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view.payload]);

  // Links that become visible prefetch their page, with the navigator (fetched when idle).
  useEffect(() => {
    let stop: (() => void) | undefined;
    let stopped = false;
    whenIdle(() =>
      loadNavigator().then(
        (navigator) => {
          if (!stopped) stop = navigator.prefetchVisibleLinks(document.body, PREFETCH);
        },
        () => undefined,
      ),
    );
    return () => {
      stopped = true;
      stop?.();
    };
  }, [view.payload]);

  const { payload, messages } = view;
  const shown = useMemo(() => ({ payload, brand: boot.brand }), [payload, boot.brand]);
  const bell = liveBell && liveBell.payload === payload ? liveBell.count : undefined;
  const layoutPayload = useMemo(() => (bell === undefined ? payload : { ...payload, notifications: bell }), [payload, bell]);
  // Two boundaries: a page that throws shows the error page inside the layout (the navbar stays);
  // if the layout or the error page fails too, the last-resort page replaces everything.
  return (
    <ErrorBoundary fallback={() => <LastResortView locale={payload.locale} />}>
      <I18nProvider locale={payload.locale} messages={messages} translate={translators?.(payload.locale)} localeCookie={boot.localeCookie}>
        {/* Logout resets the user and the logo at once. */}
        <Layout
          payload={layoutPayload}
          siteName={boot.siteName}
          brand={boot.brand}
          mainRef={mainRef}
          loadState={loadState}
          user={signedOut ? null : payload.user}
          branding={signedOut ? null : (payload.branding ?? null)}
          cookieBanner={
            consentOpen ? (
              <CookieBanner
                analyticsConfigured={boot.consent.analyticsConfigured}
                current={consent}
                onDone={(choice) => {
                  setConsent(choice);
                  setConsentOpen(false);
                }}
              />
            ) : null
          }
          onCookieSettings={() => setConsentOpen(true)}
          onSignedOut={() => {
            setSignedOut(true);
            applyBranding(null);
          }}
        >
          <div ref={transitionRef} className={`page-transition ${TRANSITION_CLASS[phase]}`.trim()} data-transition-phase={phase}>
            <ErrorBoundary resetKey={payload.url} fallback={() => <ErrorView error={CLIENT_FAILURE} />}>
              <ShownPageProvider value={shown}>
                <ShownRoutes url={payload.url} routeName={payload.routeName} />
              </ShownPageProvider>
            </ErrorBoundary>
          </div>
        </Layout>
      </I18nProvider>
    </ErrorBoundary>
  );
}

import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useRoutes } from 'react-router-dom';
import { IDLE_PREFETCH_TIMEOUT_MS } from '../shared/constants.ts';
import type { Locale } from '../shared/locales.ts';
import { matchRoute, type PageKey } from '../shared/routes.ts';
import type { Translate } from '../shared/translate.ts';
import type { BootData } from './boot.ts';
import { ErrorBoundary } from './components/error-boundary.tsx';
import { ErrorView } from './components/error-view.tsx';
import { LastResortView } from './components/last-resort-view.tsx';
import { Layout } from './components/layout.tsx';
import { I18nProvider } from './translations.tsx';
import { loadPage } from './runtime/page-chunks.ts';
import { routesFor, ShownPageProvider } from './routes.tsx';
import { deferredComponent } from './runtime/deferred.tsx';
import { applyBranding } from './runtime/branding.ts';
import { TRANSITION_CLASS, type TransitionPhase } from './runtime/transition.ts';
import { loadNavigator } from './navigator-chunk.ts';
import { useLiveRefresh } from './use-live-refresh.ts';
import { usePageNavigation, type LoadState, type View } from './use-page-navigation.ts';

// The entry loads the page's messages before hydrating.
export { messagesFor } from './messages.ts';

export type AppProps = {
  boot: BootData;
  /** The server's fixed translators (one per locale, made at start); the browser makes its own i18next. */
  translators?: (locale: Locale) => Translate;
};

// The cookie banner is shown once per visitor: its own chunk, not part of every first load.
const CookieBanner = deferredComponent(() => import('./components/cookie-banner.tsx').then((m) => m.CookieBanner)).Deferred;

/** A page that failed while rendering in the browser: the error page, status 500. */
const CLIENT_FAILURE = { status: 500, message: '' } as const;

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

/** The routes' element for the URL shown (React Router matches it: client/routes.tsx). */
function ShownRoutes({ url, routeName }: { url: string; routeName: string | null }) {
  return useRoutes(routesFor(routeName), url);
}

export function App({ boot, translators }: AppProps) {
  const location = useLocation();
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
  const shownUrlRef = useRef(boot.payload.url);
  const firstRender = useRef(true);

  const { liveBell, quietRefreshRef, navigationsRef } = useLiveRefresh({
    enabled: Boolean(view.payload.user) && !signedOut,
    view,
    loadState,
    shownUrlRef,
    setView,
  });
  usePageNavigation({ boot, view, signedOut, shownUrlRef, navigationsRef, transitionRef, setView, setLoadState, setPhase, setSignedOut });

  // After a new page is shown: the document follows it, focus and scroll move to it.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // The same page read again (live): where the reader is and what has focus stay.
    if (quietRefreshRef.current) {
      quietRefreshRef.current = false;
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

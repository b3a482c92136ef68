import { createElement, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { brandingCssVariables, type Branding } from '../shared/branding.ts';
import { runGuards } from '../shared/guards.ts';
import type { Locale } from '../shared/locales.ts';
import { matchRoute } from '../shared/routes.ts';
import type { Head, PagePayload } from '../shared/page-data.ts';
import type { Messages } from '../shared/translate.ts';
import { BRANDING_STYLE_ID, type BootData } from './boot.ts';
import { ErrorView } from './components/error-view.tsx';
import { Layout } from './components/layout.tsx';
import { I18nProvider } from './i18n.tsx';
import { fetchPageData } from './navigation.ts';
import { loadedPage, loadPage } from './pages/registry.ts';

export type AppProps = { boot: BootData };

function PageView({ payload }: { payload: PagePayload }) {
  const { state } = payload;
  if (state.kind === 'error') return <ErrorView error={state.error} />;
  // The component comes from the loaded-chunk cache: the same identity on every render.
  return createElement(loadedPage(state.page), {
    data: state.data as never,
    params: payload.params,
    form: payload.form,
    user: payload.user,
  });
}

const messageCache = new Map<Locale, Messages>();

async function messagesFor(locale: Locale, boot: BootData): Promise<Messages> {
  if (locale === boot.payload.locale) return boot.messages;
  const cached = messageCache.get(locale);
  if (cached) return cached;
  const response = await fetch(boot.messageUrls[locale]);
  if (!response.ok) throw new Error(`Messages for ${locale} answered ${response.status}`);
  const messages = (await response.json()) as Messages;
  messageCache.set(locale, messages);
  return messages;
}

/** Branding colours after a client navigation: CSSOM, which the CSP allows (no inline styles). */
function applyBranding(branding: Branding | null | undefined) {
  document.getElementById(BRANDING_STYLE_ID)?.remove();
  const root = document.documentElement.style;
  const variables = brandingCssVariables(branding);
  for (const name of ['--navbar-bg', '--navbar-fg']) {
    if (variables?.[name]) root.setProperty(name, variables[name]);
    else root.removeProperty(name);
  }
}

function applyHead(head: Head, locale: Locale) {
  document.documentElement.lang = locale;
  document.title = head.title;
  document.querySelector('meta[name="description"]')?.setAttribute('content', head.description);
  document.querySelector('link[rel="canonical"]')?.setAttribute('href', head.canonical);
  document.querySelectorAll('link[rel="alternate"][hreflang]').forEach((el) => el.remove());
  for (const alt of head.alternates) {
    const link = document.createElement('link');
    link.rel = 'alternate';
    link.hreflang = alt.hrefLang;
    link.href = alt.href;
    document.head.append(link);
  }
  const robots = document.querySelector('meta[name="robots"]');
  if (head.robots) {
    if (robots) robots.setAttribute('content', head.robots);
    else document.head.insertAdjacentHTML('beforeend', `<meta name="robots" content="${head.robots}">`);
  } else robots?.remove();
}

export function App({ boot }: AppProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const [view, setView] = useState({ payload: boot.payload, messages: boot.messages });
  const [navigationError, setNavigationError] = useState(false);
  // The signed-in user comes with every page; logout clears it at once (DESIGN.md §3).
  const [signedOut, setSignedOut] = useState(false);
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  const url = location.pathname + location.search;

  const revalidate = (location.state as { revalidate?: number } | null)?.revalidate;
  useEffect(() => {
    if (url === view.payload.url && !revalidate) return;
    const controller = new AbortController();
    (async () => {
      // Guards run in the browser before a navigation (seed-spec §2); a redirect that needs
      // the server (remembering the path for after login) goes through /_data instead.
      const target = matchRoute(location.pathname);
      if (target?.kind === 'route') {
        const outcome = runGuards({ route: target.route, params: target.params, url, user: signedOut ? null : view.payload.user });
        if (outcome?.kind === 'redirect' && !outcome.rememberPath) {
          navigate(outcome.to, { replace: true });
          return;
        }
      }
      const answer = await fetchPageData(url, controller.signal);
      if (answer.kind === 'redirect') {
        if (/^\//.test(answer.to)) navigate(answer.to, { replace: true });
        else window.location.assign(answer.to);
        return;
      }
      const { payload } = answer;
      const [messages] = await Promise.all([
        messagesFor(payload.locale, boot),
        payload.state.kind === 'page' ? loadPage(payload.state.page) : null,
      ]);
      if (controller.signal.aborted) return;
      setNavigationError(false);
      setSignedOut(false);
      setView({ payload: { ...payload, url }, messages });
    })().catch((error: unknown) => {
      if (controller.signal.aborted) return;
      console.warn('Navigation failed', error);
      setNavigationError(true);
    });
    return () => controller.abort();
    // A revalidation is asked for per navigation (its key), not per URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url, location.key, navigate, boot]);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    applyHead(view.payload.head, view.payload.locale);
    applyBranding(signedOut ? null : view.payload.branding);
    if (!location.hash) window.scrollTo(0, 0);
    mainRef.current?.focus({ preventScroll: true });
    // Only when a new page is shown, not on every location change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view.payload]);

  const { payload, messages } = view;
  return (
    <I18nProvider locale={payload.locale} messages={messages}>
      {/* Logout resets the logo at once (seed-spec §4). */}
      <Layout
        payload={payload}
        siteName={boot.siteName}
        mainRef={mainRef}
        user={signedOut ? null : payload.user}
        branding={signedOut ? null : (payload.branding ?? null)}
        onSignedOut={() => {
          setSignedOut(true);
          applyBranding(null);
        }}
      >
        {navigationError ? <ErrorView error={{ status: 500, message: '' }} /> : <PageView payload={payload} />}
      </Layout>
    </I18nProvider>
  );
}

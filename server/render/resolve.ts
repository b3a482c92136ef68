// From a URL to what to show: match the route table, run the guards, load the page's data.
// The HTML renderer and the /_data endpoint both call this, so a client navigation sees
// exactly what a full page load would (same status, same redirects, same data).
import { isDatabaseUnavailable } from '../db/index.ts';
import { runGuards, UnknownMiddlewareError } from '../../shared/guards.ts';
import type { Locale } from '../../shared/locales.ts';
import type { DataResponse, ErrorInfo, PagePayload } from '../../shared/page-data.ts';
import { formOfPath, matchRoute, routePath, type PageKey, type Route, type RouteParams } from '../../shared/routes.ts';
import { isBrandedPath, type Branding } from '../../shared/branding.ts';
import type { Translate } from '../../shared/translate.ts';
import type { Session } from '../auth/session-cookie.ts';
import { withQuery, type Redirect } from '../content/redirects.ts';
import type { ContentSource } from '../content/source.ts';
import { ApiError, HttpError, PageRedirect } from '../http/errors.ts';
import { UpstreamError } from '../http/upstream.ts';
import { headForError, headForRoute, pageTitle } from './head.ts';
import { noData, type PageMeta, type PageModule, type RenderServices } from './page-module.ts';
import { settleData, STREAM_WAIT_MS } from './streamed.ts';
import { publishingHead } from '../seo/social.ts';
import type { SessionUser } from '../../shared/user.ts';

export type ResolveDeps<S extends RenderServices = RenderServices> = {
  /** Every page's server module (server/pages/): its loader. */
  pages: ReadonlyMap<PageKey, PageModule<S>>;
  /** What the loaders use (made by server/boot/pages.ts). */
  services: S;
  /** Unread project messages of the signed-in user (the navbar's badge). */
  unread?: (user: SessionUser) => Promise<number>;
  /** The new contact messages an admin has to deal with (the navbar's badge, with `unread`); 0 for anyone else. */
  leads?: (user: SessionUser) => Promise<number>;
  /** The signed-in user's unread notifications (the navbar's bell). */
  notificationsUnread?: (user: SessionUser) => Promise<number>;
  /** The signed-in user's navbar branding; must answer quickly (it is raced with a timeout). */
  branding?: (userName: string) => Promise<Branding | null>;
  origin: string;
  siteName: string;
  translator: (locale: Locale) => Translate;
  onError?: (error: unknown, url: string) => void;
  /** Drafts, read when the request is a preview (server/preview/); absent: no preview. */
  previewContent?: ContentSource;
};

export type ResolveInput = {
  url: string;
  session: Session | null;
  /** A sign-in waits for its second factor (server/two-factor/challenge.ts). */
  secondFactorPending?: boolean;
  /** The single-use link the visitor opened (server/account-links/link-cookie.ts). */
  linkToken?: string | null;
  /** A private page waits for this visitor's sign-in (the auth.redirect cookie). */
  returnPending?: boolean;
  /** The request carries a valid preview cookie: pages read drafts. */
  preview?: boolean;
  /**
   * A full page load may stream the data that arrives late (server/render/streamed.ts);
   * without it (a client navigation's /_data), every field of the data is waited for.
   */
  stream?: boolean;
};

export type Resolution = DataResponse & {
  /** An editor's redirect (server/content/redirects.ts), not the site's own: cached and counted as such. */
  editorRedirect?: true;
  /** Path to remember when a guard sends a signed-out visitor to login. */
  rememberPath?: string;
  /** The API refused the session's token (401): the session ends. */
  endSession?: boolean;
};

function splitUrl(url: string): { pathname: string; search: string } {
  const q = url.search(/[?#]/);
  return q === -1 ? { pathname: url, search: '' } : { pathname: url.slice(0, q), search: url.slice(q).split('#')[0] ?? '' };
}

export function errorPayload<S extends RenderServices>(
  deps: ResolveDeps<S>,
  input: ResolveInput,
  locale: Locale,
  routeName: string | null,
  error: ErrorInfo,
  params: RouteParams = {},
): PagePayload {
  const { pathname } = splitUrl(input.url);
  return {
    url: input.url,
    status: error.status,
    locale,
    routeName,
    params,
    state: { kind: 'error', error },
    head: publishingHead(headForError({ origin: deps.origin, pathname, title: pageTitle(error.message, deps.siteName) }), {
      ...publishingSite(deps, locale),
      title: error.message,
      article: null,
    }),
    user: input.session?.user ?? null,
  };
}

/** What the social tags and feed links of a page in `locale` need of the site. */
function publishingSite<S extends RenderServices>(deps: ResolveDeps<S>, locale: Locale) {
  return { origin: deps.origin, siteName: deps.siteName, locale, t: deps.translator(locale) };
}

/**
 * An API's refusal on a page, in the site's words: never the API's message, which is English for
 * programs, or an external API's own text (docs/specification.md §11.8, §13.1). An external API that fails (5xx, unreachable) is 503, one that refuses what the page
 * needs (a 404 for an endpoint it lacks) 502: the page exists, its source failed it.
 */
function apiErrorInfo(error: ApiError, t: Translate): ErrorInfo {
  if (error.status === 403) return { status: 403, message: t('errors.forbidden') };
  if (error.status === 503) return { status: 503, message: t('errors.unavailable') };
  if (error instanceof UpstreamError) return { status: 502, message: t('errors.upstream') };
  if (error.status === 404) return { status: 404, message: t('errors.notFound') };
  return { status: error.status, message: t('errors.generic') };
}

/** The error shown to a visitor: our own errors keep their message; anything else is "Error". */
export function errorInfo(error: unknown, t: Translate): ErrorInfo {
  if (error instanceof ApiError && !error.messageKey) return apiErrorInfo(error, t);
  if (error instanceof HttpError) {
    return { status: error.status, message: error.messageKey ? t(error.messageKey) : error.message };
  }
  if (error instanceof UnknownMiddlewareError) {
    return { status: 500, message: t('errors.unknownMiddleware', { name: error.middleware }) };
  }
  if (isDatabaseUnavailable(error)) return { status: 503, message: t('errors.unavailable') };
  return { status: 500, message: t('errors.generic') };
}

/** The editors' redirect for a path no route matches; none when the content cannot say (its loader logged why). */
async function editorRedirect(services: RenderServices, pathname: string, search: string): Promise<Resolution | null> {
  if (!services.content.redirects) return null;
  let found: Redirect | null;
  try {
    found = (await services.content.redirects()).find(pathname);
  } catch (error) {
    services.logger.warn(
      { err: error },
      `Redirects unavailable (${error instanceof Error ? error.message : String(error)}): ${pathname} answers 404`,
    );
    return null;
  }
  return found ? { kind: 'redirect', to: withQuery(found.to, search), status: found.status, editorRedirect: true } : null;
}

export async function resolvePage<S extends RenderServices>(deps: ResolveDeps<S>, input: ResolveInput): Promise<Resolution> {
  if (input.preview && deps.previewContent) {
    const result = await resolveOnce({ ...deps, services: { ...deps.services, content: deps.previewContent } }, input);
    return result.kind === 'payload' ? { ...result, payload: { ...result.payload, preview: true } } : result;
  }
  return resolveOnce(deps, input);
}

async function resolveOnce<S extends RenderServices>(deps: ResolveDeps<S>, input: ResolveInput): Promise<Resolution> {
  const { pathname, search } = splitUrl(input.url);
  const match = matchRoute(pathname);
  if (!match) {
    // Before the 404, after the route table: a page of the site always wins over a redirect.
    const redirect = await editorRedirect(deps.services, pathname, search);
    if (redirect) return redirect;
    const locale = formOfPath(pathname).locale;
    const t = deps.translator(locale);
    return { kind: 'payload', payload: errorPayload(deps, input, locale, null, { status: 404, message: t('errors.notFound') }) };
  }
  if (match.kind === 'redirect') return { kind: 'redirect', to: match.location + search, status: match.status };

  const { route, params } = match;
  const t = deps.translator(route.locale);
  try {
    const outcome = runGuards({ route, params, url: input.url, user: input.session?.user ?? null });
    if (outcome?.kind === 'redirect') {
      return { kind: 'redirect', to: outcome.to, status: 302, ...(outcome.rememberPath ? { rememberPath: outcome.rememberPath } : {}) };
    }
    if (outcome?.kind === 'error') {
      return {
        kind: 'payload',
        payload: errorPayload(deps, input, route.locale, route.name, { status: outcome.status, message: t(outcome.messageKey) }, params),
      };
    }
    const loader = deps.pages.get(route.page)?.loader ?? noData;
    const brandingUser = input.session && deps.branding && isBrandedPath(route.fullPath) ? input.session.user.userName : null;
    const [{ data: loaded, meta }, branding] = await Promise.all([
      loader({
        route,
        params,
        locale: route.locale,
        query: new URLSearchParams(search),
        t,
        session: input.session,
        secondFactorPending: input.secondFactorPending ?? false,
        linkToken: input.linkToken ?? null,
        returnPending: input.returnPending ?? false,
        services: deps.services,
      }),
      brandingUser ? deps.branding!(brandingUser) : null,
    ]);
    // What arrives late streams after the shell (a page load), or is waited for (/_data).
    const data = await settleData(loaded, input.stream ? STREAM_WAIT_MS : 0, (error) => deps.onError?.(error, input.url));
    // After the page's data: reading a project's page reads its thread.
    const user = input.session?.user;
    const [unread, leads, notifications] = await Promise.all([
      user && deps.unread ? deps.unread(user) : 0,
      user && deps.leads ? deps.leads(user) : 0,
      user && deps.notificationsUnread ? deps.notificationsUnread(user) : 0,
    ]);
    const payload = pagePayload(deps, input, route, params, data, meta, t);
    return {
      kind: 'payload',
      payload: {
        ...payload,
        ...(branding ? { branding } : {}),
        ...(unread > 0 ? { unread } : {}),
        ...(leads > 0 ? { leads } : {}),
        ...(notifications > 0 ? { notifications } : {}),
      },
    };
  } catch (error) {
    if (error instanceof PageRedirect) return { kind: 'redirect', to: error.to, status: error.status };
    if (error instanceof ApiError && error.status === 401 && input.session) {
      // An upstream 401: the session is over; back to login, remembering the page.
      const to = routePath('login', { locale: route.locale, prefixed: route.prefixed });
      return { kind: 'redirect', to, status: 302, rememberPath: input.url, endSession: true };
    }
    const info = errorInfo(error, t);
    // An external API's refusal is logged with what it said (the page says the site's words).
    if (info.status >= 500 || error instanceof UpstreamError) deps.onError?.(error, input.url);
    return { kind: 'payload', payload: errorPayload(deps, input, route.locale, route.name, info, params) };
  }
}

function pagePayload<S extends RenderServices>(
  deps: ResolveDeps<S>,
  input: ResolveInput,
  route: Route,
  params: Record<string, string>,
  data: unknown,
  meta: PageMeta | undefined,
  t: Translate,
): PagePayload {
  const title = route.base === 'index' ? null : (meta?.title ?? t(`pages.${route.page}.title`));
  return {
    url: input.url,
    status: meta?.status ?? route.status ?? 200,
    locale: route.locale,
    routeName: route.name,
    params,
    state: { kind: 'page', page: route.page, data: data as never },
    head: publishingHead(
      headForRoute({
        route,
        params,
        origin: deps.origin,
        title: pageTitle(title, deps.siteName),
        description: meta?.description ?? t(`pages.${route.page}.description`, { siteName: deps.siteName }),
        indexable: route.public && route.status === undefined,
        ...(meta ? { meta } : {}),
      }),
      { ...publishingSite(deps, route.locale), title: title ?? deps.siteName, article: meta?.article ?? null },
    ),
    user: input.session?.user ?? null,
  };
}

// What a page request gets: match, guards and loaders (resolvePage), then a redirect — with its
// session side — or the streamed page, with the cache policy of what it shows. The same
// resolution answers /_data for client navigations and re-renders a page with a form's error.
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { Locale } from '../../shared/locales.ts';
import type { FormState, PagePayload } from '../../shared/page-data.ts';
import type { SessionUser } from '../../shared/user.ts';
import { AUTH_REDIRECT_COOKIE } from '../../shared/constants.ts';
import { isSafeLocalPath } from '../../shared/safe-path.ts';
import { matchRoute, routeByName, routePath, ROUTES } from '../../shared/routes.ts';
import { clearSession, rememberPath } from '../auth/session-cookie.ts';
import { createFailWith, formFailure, redirectAfterPost } from '../http/form-answers.ts';
import type { RenderServices } from './page-module.ts';
import { resolvePage, type ResolveDeps, type Resolution } from './resolve.ts';
import { IMAGE_MAX_BYTES } from '../../shared/uploads.ts';

const PRIVATE_NO_STORE = 'private, no-store';
/**
 * An editor's 301 may be kept an hour (a browser keeps one without Cache-Control for good, and
 * an editor may correct it); a 302, or one seen in a preview of drafts, is never stored.
 */
const EDITOR_301_CACHE = 'public, max-age=3600';

/** The Cache-Control of a redirect, and an editor's counted in the metrics (res.locals.redirectStatus). */
function redirectHeaders(res: Response, result: Resolution & { kind: 'redirect' }): void {
  if (!result.editorRedirect) {
    res.set('Cache-Control', PRIVATE_NO_STORE);
    return;
  }
  res.locals.redirectStatus = result.status;
  res.set('Cache-Control', result.status === 301 && !res.locals.preview ? EDITOR_301_CACHE : PRIVATE_NO_STORE);
}

/** The session side of a guard's redirect: remember the wanted page, end a refused session. */
function applyRedirectEffects(req: Request, res: Response, result: Resolution & { kind: 'redirect' }) {
  if (result.endSession) clearSession(req, res);
  if (result.rememberPath && isSafeLocalPath(result.rememberPath)) rememberPath(req, res, result.rememberPath);
}

export function createPageHandlers<S extends RenderServices>(deps: {
  resolve: ResolveDeps<S>;
  /** Streams a resolved page (server/render/render-page.tsx with the app's options). */
  render: (req: Request, res: Response, payload: PagePayload) => Promise<void>;
  /** A signed-in user is shown a page in this locale (the language of their e-mails); must not throw or wait. */
  signedInPage?: (user: SessionUser, locale: Locale) => void;
}) {
  const resolve = async (url: string, res: Response, stream: boolean) => {
    const result = await resolvePage(deps.resolve, {
      url,
      stream,
      session: res.locals.session ?? null,
      secondFactorPending: res.locals.secondFactorPending ?? false,
      linkToken: res.locals.linkToken ?? null,
      returnPending: typeof (res.req.cookies as Record<string, unknown> | undefined)?.[AUTH_REDIRECT_COOKIE] === 'string',
      preview: res.locals.preview ?? false,
    });
    if (result.kind === 'payload' && result.payload.user) deps.signedInPage?.(result.payload.user, result.payload.locale);
    return result;
  };

  async function sendPage(req: Request, res: Response, payload: PagePayload): Promise<void> {
    // Private pages, signed-in views and errors are never stored (by the browser, a proxy or the service worker).
    // A single-use link's page is never stored at all (routes.ts noStore).
    const route = payload.routeName ? routeByName(payload.routeName) : undefined;
    if (route) res.locals.routeName = route.base;
    // A preview's drafts are nobody else's (server/preview/).
    const cacheable = !payload.user && payload.state.kind === 'page' && payload.status === 200 && !route?.noStore && !payload.preview;
    res.set('Cache-Control', cacheable ? 'no-cache' : PRIVATE_NO_STORE);
    res.vary('Cookie');
    await deps.render(req, res, payload);
  }

  /** GET /_data?path=…: a client navigation's page data, or where it must go instead. */
  const pageData: RequestHandler = async (req, res) => {
    const path = typeof req.query.path === 'string' ? req.query.path : '';
    if (!path.startsWith('/') || path.startsWith('//') || path.length > 2048) {
      res.status(400).json({ error: { code: 'bad_path', message: `Invalid page path ${JSON.stringify(path.slice(0, 100))}` } });
      return;
    }
    const result = await resolve(path, res, false);
    res.set('Cache-Control', PRIVATE_NO_STORE).vary('Cookie');
    if (result.kind === 'redirect') {
      applyRedirectEffects(req, res, result);
      if (result.editorRedirect) res.locals.redirectStatus = result.status;
      res.json({ kind: 'redirect', to: result.to, status: result.status });
    } else res.json({ kind: 'payload', payload: result.payload });
  };

  /** Any GET or HEAD (unmatched paths answer the 404 page). */
  const page: RequestHandler = async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const result = await resolve(req.originalUrl, res, true);
    if (result.kind === 'redirect') {
      applyRedirectEffects(req, res, result);
      redirectHeaders(res, result);
      res.redirect(result.status, result.to);
      return;
    }
    await sendPage(req, res, result.payload);
  };

  /** The page at req.originalUrl again, with a form's outcome and a status (the no-JS error path). */
  async function renderWithForm(req: Request, res: Response, form: FormState, status: number): Promise<void> {
    const result = await resolve(req.originalUrl, res, true);
    if (result.kind === 'redirect') {
      applyRedirectEffects(req, res, result);
      res.redirect(303, result.to);
      return;
    }
    await sendPage(req, res, { ...result.payload, status, form });
  }

  const fail = formFailure(renderWithForm);
  const failWith = createFailWith(fail, deps.resolve.services.logger);
  const { pages, services } = deps.resolve;

  /** Every form of every route whose page has an action: where the site takes a POST. */
  const actionPaths = ROUTES.filter((route) => pages.get(route.page)?.action).map((route) => route.fullPath);

  /** POST to a page: its module's action; a private page's only with a session (else: sign in, then come back). */
  const pageAction: RequestHandler = async (req, res, next) => {
    const match = matchRoute(req.path);
    const action = match?.kind === 'route' ? pages.get(match.route.page)?.action : undefined;
    if (match?.kind !== 'route' || !action) return next();
    const { route } = match;
    res.locals.routeName = route.base;
    const session = res.locals.session ?? null;
    if (!route.public && !session) return redirectAfterPost(req, res, routePath('login', route));
    await action({ req, res, next, route, session, services, fail, failWith });
  };

  return { pageData, page, renderWithForm, actionPaths, pageAction };
}

/** The bodies a page's form may post: a form (urlencoded), JSON (with JavaScript), an avatar image. */
export function formBodyParsers(): RequestHandler[] {
  return [
    express.urlencoded({ extended: false, limit: '32kb' }),
    express.json({ limit: '32kb' }),
    express.raw({ type: (req) => (req.headers['content-type'] ?? '').startsWith('image/'), limit: IMAGE_MAX_BYTES }),
  ];
}

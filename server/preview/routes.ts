// Draft preview, designed like Next.js's draft mode (docs/decisions/019):
//
//   GET /preview?secret=…&type=post|legal&slug=…|documentId=…&locale=es|en
//       404 when the preview is not configured (CMS_URL, CMS_PREVIEW_SECRET, CMS_PREVIEW_TOKEN),
//       401 when the secret is missing or wrong (compared in constant time), 400 naming the
//       parameter that is not right; else the preview cookie (cookie.ts) and a 307 to the page —
//       its URL built from the route table, never taken from the query — which then shows the
//       draft with a banner.
//   POST /preview/exit (a same-origin form: the site's CSRF check, docs/decisions/004)
//       ends the preview and goes (303) to the page it was shown on, now its published version.
//       Inside the CMS's preview pane, where a published page may not be framed, it says the
//       preview ended instead, with a link that opens the published page in a tab.
//
// While the cookie is valid (previewMode): every page reads drafts (res.locals.preview), is
// `private, no-store` (page-handlers.ts) and never enters the render cache (app.ts), and the
// response may be framed by the CMS's origin (its preview pane); nothing else is.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { SLUG_PATTERN } from '../../shared/blog.ts';
import { defaultLocale, isLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { formOfPath, LEGAL_PAGES, localePath, matchRoute } from '../../shared/routes.ts';
import type { Translate } from '../../shared/translate.ts';
import { isSafeLocalPath } from '../../shared/safe-path.ts';
import { DOCUMENT_ID, type DraftTarget, type StrapiDrafts } from '../cms/drafts.ts';
import { CmsError } from '../cms/errors.ts';
import { secretMatches } from '../http/secret.ts';
import type { Logger } from '../base/logger.ts';
import { escapeHtml } from '../http/html.ts';
import { givenOnce } from '../http/query-once.ts';
import type { PreviewCookie } from './cookie.ts';

export const PREVIEW_PATH = '/preview';
export const PREVIEW_EXIT_PATH = '/preview/exit';

declare module 'express-serve-static-core' {
  interface Locals {
    /** The request shows drafts (a valid preview cookie). */
    preview?: boolean;
  }
}

export type PreviewSetup = {
  secret: string;
  cookie: PreviewCookie;
  drafts: StrapiDrafts;
  /**
   * helmet's Content-Security-Policy middleware with the app's policy (http/csp.ts), run again on
   * a preview response once res.locals.framedByCms says the CMS's origin may frame it.
   */
  contentSecurityPolicy: (req: Request, res: Response, next: (error?: Error) => void) => void;
  /** The site's messages in a locale, and its stylesheets (the framed exit page). */
  translate: (locale: Locale) => Translate;
  stylesheets: readonly string[];
  logger: Logger;
};

const NO_STORE = 'private, no-store';

/** Headers of every preview response: never stored, never indexed, framed only by the CMS. */
function previewHeaders(req: Request, res: Response, setup: PreviewSetup): void {
  res.set({ 'Cache-Control': NO_STORE, 'X-Robots-Tag': 'noindex' });
  // helmet wrote the policy before the preview was known: it writes it again, frame-ancestors widened.
  res.locals.framedByCms = true;
  setup.contentSecurityPolicy(req, res, (error) => {
    if (error) throw error;
  });
  // helmet's X-Frame-Options would forbid what frame-ancestors allows here.
  res.removeHeader('X-Frame-Options');
}

function refuse(res: Response, status: number, message: string): void {
  res.status(status).set('Cache-Control', NO_STORE).type('text/plain').send(message);
}

class BadParameter extends Error {}

/** A query parameter given once (a repeated one is not right), or undefined. */
function single(req: Request, name: string): string | undefined {
  const value: unknown = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new BadParameter(`The parameter ${givenOnce(`"${name}"`)}`);
  return value;
}

type PreviewRequest = { locale: Locale; target: DraftTarget | { type: DraftTarget['type']; documentId: string } };

/** The query's type, locale and slug or documentId, each checked against what the site has. */
function readQuery(req: Request): PreviewRequest {
  const type = single(req, 'type');
  if (type !== 'post' && type !== 'legal') throw new BadParameter('The parameter "type" must be "post" or "legal"');
  const locale = single(req, 'locale') ?? defaultLocale;
  if (!isLocale(locale)) throw new BadParameter(`The parameter "locale" must be ${LOCALE_CODES.map((code) => `"${code}"`).join(' or ')}`);
  const slug = single(req, 'slug');
  const documentId = single(req, 'documentId');
  if ((slug === undefined) === (documentId === undefined))
    throw new BadParameter('Give exactly one of the parameters "slug" and "documentId"');
  if (documentId !== undefined) {
    if (!DOCUMENT_ID.test(documentId))
      throw new BadParameter('The parameter "documentId" must be letters and digits (a Strapi 5 documentId)');
    return { locale, target: { type, documentId } };
  }
  if (type === 'post') {
    if (!SLUG_PATTERN.test(slug!))
      throw new BadParameter('The parameter "slug" must be a post slug: lower-case letters, digits and hyphens');
    return { locale, target: { type, slug: slug! } };
  }
  const page = LEGAL_PAGES.find((p) => p === slug);
  if (!page) throw new BadParameter(`The parameter "slug" of a legal page must be one of ${LEGAL_PAGES.join(', ')}`);
  return { locale, target: { type, page } };
}

/** The page of a draft, from the route table. */
function pageUrl(target: DraftTarget, locale: Locale): string {
  return target.type === 'post' ? localePath('blog-slug', locale, { slug: target.slug }) : localePath(target.page, locale);
}

/** GET /preview. `setup` null: the preview is not configured (404). */
export function startPreview(setup: PreviewSetup | null): RequestHandler {
  return async (req, res) => {
    if (!setup) return refuse(res, 404, 'Draft preview is not available on this site');
    previewHeaders(req, res, setup);
    // The secret is in this URL: it must not leave in a Referer.
    res.set('Referrer-Policy', 'no-referrer');
    if (!secretMatches(req.query.secret, setup.secret)) return refuse(res, 401, 'Wrong or missing preview secret');
    let asked: PreviewRequest;
    try {
      asked = readQuery(req);
    } catch (error) {
      if (error instanceof BadParameter) return refuse(res, 400, error.message);
      throw error;
    }
    const { locale } = asked;
    let target: DraftTarget | null;
    if ('documentId' in asked.target) {
      const { type, documentId } = asked.target;
      try {
        target = await setup.drafts.locate(type, documentId, locale);
      } catch (error) {
        if (error instanceof CmsError && error.status === 400) {
          return refuse(res, 400, 'The CMS does not know documentId (Strapi 4): give the slug instead');
        }
        setup.logger.warn({ err: error, type, locale }, 'preview: the draft could not be looked up');
        return refuse(res, 503, 'The CMS did not answer: try again in a moment');
      }
      if (!target) return refuse(res, 404, `No ${type === 'post' ? 'post' : 'legal page'} with that documentId in "${locale}"`);
    } else target = asked.target;
    await setup.cookie.start(req, res);
    res.redirect(307, pageUrl(target, locale));
  };
}

/** Where the way out goes: the page it was on (a local path the route table knows), else the home page. */
function exitTarget(path: unknown): string {
  if (!isSafeLocalPath(path)) return '/';
  const pathname = path.split(/[?#]/, 1)[0] ?? '/';
  return matchRoute(pathname) ? path : '/';
}

/** Inside the CMS's frame: the preview ended, and the published page opens in a tab (it may not be framed). */
function endedInFrame(target: string, t: Translate, locale: Locale, stylesheets: readonly string[]): string {
  const title = escapeHtml(t('preview.ended'));
  return (
    `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${title}</title>${stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('')}</head>` +
    `<body><main class="main"><section class="error-page" aria-labelledby="preview-ended"><h1 id="preview-ended">${title}</h1>` +
    `<p><a class="button button-primary" href="${escapeHtml(target)}" target="_blank" rel="noopener">${escapeHtml(t('preview.openPublished'))}</a></p>` +
    `</section></main></body></html>`
  );
}

/** POST /preview/exit, with the form's `path`. */
export function exitPreview(setup: PreviewSetup | null): RequestHandler[] {
  return [
    express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 }),
    (req, res) => {
      if (!setup) return refuse(res, 404, 'Draft preview is not available on this site');
      setup.cookie.clear(req, res);
      const body = req.body as Record<string, unknown> | undefined;
      const target = exitTarget(body?.path);
      if (req.get('sec-fetch-dest') === 'iframe') {
        const { locale } = formOfPath(target.split(/[?#]/, 1)[0] ?? '/');
        previewHeaders(req, res, setup);
        res
          .status(200)
          .type('html')
          .send(endedInFrame(target, setup.translate(locale), locale, setup.stylesheets));
        return;
      }
      res.set('Cache-Control', NO_STORE).redirect(303, target);
    },
  ];
}

/** Reads the preview cookie into res.locals.preview; an invalid or expired one is cleared. */
export function previewMode(setup: PreviewSetup | null): RequestHandler {
  return async (req, res, next) => {
    res.locals.preview = false;
    if (!setup || !setup.cookie.present(req)) return next();
    try {
      if (await setup.cookie.active(req)) {
        res.locals.preview = true;
        previewHeaders(req, res, setup);
      } else setup.cookie.clear(req, res);
      next();
    } catch (error) {
      next(error);
    }
  };
}

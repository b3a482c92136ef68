// The Express application, composed in the order a request meets it. Read top to bottom to
// know where a request goes.
import compression from 'compression';
import cookieParser from 'cookie-parser';
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import helmet from 'helmet';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { i18n } from 'i18next';
import { LOCALE_CODES, type Locale } from '../shared/locales.ts';
import type { Config } from './config.ts';
import { loadEmbeddedContent } from './content/embedded.ts';
import type { ContentSource } from './content/source.ts';
import { hashedAssets } from './http/static-assets.ts';
import { createI18n, i18nMiddleware, messagesOf } from './i18n/index.ts';
import { rootLocaleRedirect } from './i18n/root-redirect.ts';
import { createLogger, type Logger } from './logger.ts';
import { PATHS } from './paths.ts';
import { readManifest, type ClientManifest } from './render/manifest.ts';
import { lastResortPage, renderPage } from './render/render-page.tsx';
import { resolvePage, type ResolveDeps } from './render/resolve.ts';
import { robotsTxt, sitemapXml } from './seo.ts';

export type AppDeps = {
  config: Config;
  logger?: Logger;
  content?: ContentSource;
  manifest?: ClientManifest;
  i18n?: i18n;
};

const PRIVATE_NO_STORE = 'private, no-store';

function nonceOf(res: express.Response): string {
  return res.locals.cspNonce as string;
}

export async function createApp(deps: AppDeps) {
  const { config } = deps;
  const logger = deps.logger ?? createLogger(config.LOG_LEVEL);
  const isProduction = config.NODE_ENV === 'production';
  const [content, i18n] = await Promise.all([deps.content ?? loadEmbeddedContent(PATHS.content), deps.i18n ?? createI18n(PATHS.locales)]);
  const manifest = deps.manifest ?? readManifest(PATHS.manifest);
  const messageUrls = Object.fromEntries(LOCALE_CODES.map((l) => [l, manifest.messages[l] ?? ''])) as Record<Locale, string>;

  const resolveDeps: ResolveDeps = {
    content,
    origin: config.PUBLIC_URL,
    siteName: config.SITE_NAME,
    translator: (locale) => i18n.getFixedT(locale),
    onError: (error, url) => logger.error({ err: error, url }, 'page failed'),
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  // 1. A fresh nonce per request, for every script the page carries (CSP below).
  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString('base64');
    next();
  });

  // 2. Security headers with a strict Content-Security-Policy: scripts only from us and only
  //    with this request's nonce; no inline styles; no framing.
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", (_req, res) => `'nonce-${nonceOf(res as express.Response)}'`],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          manifestSrc: ["'self'"],
          workerSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(isProduction ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: isProduction ? { maxAge: 31536000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    }),
  );

  // 3. Compression for everything dynamic (hashed assets are small and cached for a year).
  app.use(compression());

  // 4. Liveness.
  app.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });

  // 5. Static files: hashed build assets are immutable; public/ files get a short cache.
  app.use('/assets', ...hashedAssets(join(PATHS.clientBuild, 'assets')));
  app.use(express.static(PATHS.public, { maxAge: '1h', index: false }));
  app.get('/robots.txt', (_req, res) => {
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robotsTxt(config.PUBLIC_URL));
  });
  app.get('/sitemap.xml', async (_req, res) => {
    res
      .type('application/xml')
      .set('Cache-Control', 'public, max-age=3600')
      .send(await sitemapXml(config.PUBLIC_URL, content));
  });

  // 6. Cookies, then the request's language (whitelisted codes only).
  app.use(cookieParser());
  app.use(i18nMiddleware(i18n));

  // 7. The bare root picks the visitor's language (DESIGN.md §3).
  app.use(rootLocaleRedirect({ cookieEnabled: config.LOCALE_COOKIE }));

  // 8. Page data for client navigations: the same resolution as a full page load.
  app.get('/_data', async (req, res) => {
    const path = typeof req.query.path === 'string' ? req.query.path : '';
    if (!path.startsWith('/') || path.startsWith('//') || path.length > 2048) {
      res.status(400).json({ error: { code: 'bad_path', message: `Invalid page path ${JSON.stringify(path.slice(0, 100))}` } });
      return;
    }
    const result = await resolvePage(resolveDeps, { url: path, user: null });
    res.set('Cache-Control', PRIVATE_NO_STORE).vary('Cookie');
    res.json(result.kind === 'redirect' ? { kind: 'redirect', to: result.to, status: result.status } : result);
  });

  // 9. Every page: match, guard, load, then stream.
  const renderHandler: RequestHandler = async (req, res) => {
    const result = await resolvePage(resolveDeps, { url: req.originalUrl, user: null });
    if (result.kind === 'redirect') {
      res.redirect(result.status, result.to);
      return;
    }
    const { payload } = result;
    // Private pages, signed-in views and errors are never stored (DESIGN.md §3).
    const cacheable = !payload.user && payload.state.kind === 'page' && payload.status === 200;
    res.set('Cache-Control', cacheable ? 'no-cache' : PRIVATE_NO_STORE);
    await renderPage(res, payload, {
      manifest,
      siteName: config.SITE_NAME,
      nonce: nonceOf(res),
      messages: messagesOf(i18n, payload.locale),
      messageUrls,
      exposeErrors: !isProduction,
      onError: (error) => logger.error({ err: error, url: req.originalUrl }, 'render failed'),
    });
  };
  app.get('/{*splat}', renderHandler);

  // 10. Anything else (e.g. a POST to a page that takes none).
  app.use((req, res) => {
    res.status(405).set('Allow', 'GET, HEAD').type('text/plain').send(`Method ${req.method} not allowed on ${req.path}`);
  });

  // 11. Errors: a clean answer, never a stack trace in production.
  const onError: ErrorRequestHandler = (
    error: { status?: number; statusCode?: number; expose?: boolean; message?: string },
    req: Request,
    res,
    _next,
  ) => {
    const status = error.status ?? error.statusCode ?? 500;
    if (status >= 500) logger.error({ err: error, url: req.originalUrl }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    if (status < 500 && req.path.startsWith('/assets/')) {
      res.status(status).set('Cache-Control', 'no-store').type('text/plain').send('Not found');
      return;
    }
    res.status(status).set('Cache-Control', PRIVATE_NO_STORE);
    if (req.accepts(['html', 'json']) === 'json') {
      res.json({
        error: { code: status < 500 ? 'bad_request' : 'internal', message: status < 500 && error.expose ? error.message : 'Error' },
      });
    } else {
      res.type('html').send(lastResortPage(req.path.startsWith('/en') ? 'en' : 'es', isProduction ? null : String(error.message)));
    }
  };
  app.use(onError);

  return { app, logger, content, i18n, manifest };
}

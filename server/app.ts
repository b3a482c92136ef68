// The Express application: the pipeline, in the order a request meets it. Read top to bottom to
// know where a request goes; what each step is made from is built in phases by server/boot/.
import compression from 'compression';
import express from 'express';
import helmet from 'helmet';
import { join } from 'node:path';
import { localeForms, ROUTES } from '../shared/routes.ts';
import { UNSUBSCRIBE_PATH } from '../shared/mail-preferences.ts';
import { CALENDAR_PATH } from '../shared/calendar.ts';
import { LIVE_PATH } from '../shared/notifications.ts';
import { readLinkCookie, takeTokenFromUrl } from './account-links/link-cookie.ts';
import { LINK_PAGES } from './account-links/service.ts';
import { sessionMiddleware } from './auth/session-cookie.ts';
import { PATHS } from './base/paths.ts';
import { boot, type AppDeps } from './boot/index.ts';
import { mountBrand } from './brand/routes.ts';
import { WEBHOOK_PATH } from './cms/webhook.ts';
import { STYLEGUIDE_PATH } from './dev/styleguide.tsx';
import { analyticsAllowed, consentHandler } from './http/consent.ts';
import { contentImageFiles } from './http/content-images.ts';
import { errorHandler } from './http/error-handler.ts';
import { liveness, readiness } from './http/health.ts';
import { requestContext } from './http/request-context.ts';
import { requireSameOrigin } from './http/same-origin.ts';
import { hashedAssets, publicFiles } from './http/static-assets.ts';
import { themeHandler } from './http/theme.ts';
import { i18nMiddleware } from './i18n/index.ts';
import { rootLocaleRedirect } from './i18n/root-redirect.ts';
import { exitPreview, previewMode, PREVIEW_EXIT_PATH, PREVIEW_PATH, startPreview } from './preview/routes.ts';
import { DOWNLOAD_PATH } from './projects/download.ts';
import { formBodyParsers } from './render/page-handlers.ts';
import { lastResortPage } from './render/render-page.tsx';
import { mountServiceWorker } from './sw/routes.ts';
import { adminSetupGate } from './two-factor/gate.ts';

export type { AppDeps } from './boot/index.ts';

export async function createApp(deps: AppDeps) {
  const site = await boot(deps);
  const { base, data, domains, http, lifecycle } = site;
  const { config, logger, manifest, brand, i18n } = base;
  const { pages, policy } = http;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('etag', false);

  // -1. Metrics, only when ops asked for them: every request counted and timed.
  if (http.metrics.metrics) app.use(http.metrics.metrics.record);

  // 0. What every request carries (http/request-context.ts): an id, one log line (never the
  //    query), a fresh nonce for every script, its cookies and the visitor's consent, hence
  //    whether the page may load analytics — decided here, before helmet writes the policy.
  app.use(
    requestContext({
      logger,
      analyticsAllowed: (consent) => analyticsAllowed(policy.analyticsIds, consent),
      draining: () => lifecycle.draining,
      // Express compiled TRUST_PROXY into this function (the peer is hop 0).
      trustedPeer: (address) => address !== undefined && (app.get('trust proxy fn') as (a: string, i: number) => boolean)(address, 0),
    }),
  );

  // 1. The security headers, the strict Content-Security-Policy among them with the nonce above:
  //    scripts only from us and only with the nonce, no inline styles, no framing (docs/decisions/003).
  app.use(
    helmet({
      contentSecurityPolicy: policy.csp,
      // Same-origin form posts must carry a real Origin header (docs/decisions/004-csrf.md).
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: base.isProduction ? { maxAge: 31536000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    }),
  );

  // 2. Compression for everything dynamic; downloads say no-transform and skip it (downloads/stream.ts).
  app.use(compression());

  // 3. Liveness; readiness (the database answers, not draining; a CMS away is "degraded"); /metrics for a Bearer of METRICS_TOKEN.
  app.get('/healthz', liveness());
  app.get('/readyz', readiness(http.readiness));
  if (http.metrics.handler) app.get(http.metrics.path, http.metrics.handler);

  // 4. Static files: hashed build assets are immutable, public/ gets a short cache, the posts'
  //    images only by the names the content knows; the brand's files and the service worker.
  app.use('/assets/content', contentImageFiles(base.contentImages));
  app.use('/assets', ...hashedAssets(join(PATHS.clientBuild, 'assets')));
  app.use(publicFiles(PATHS.public));
  mountBrand(app, { brand, siteName: config.SITE_NAME, siteShortName: config.SITE_SHORT_NAME ?? config.SITE_NAME });
  mountServiceWorker(app, { manifest, workerFile: join(PATHS.clientBuild, 'sw.js'), siteName: config.SITE_NAME, brand, logger, i18n });
  app.get('/robots.txt', http.public.robots);
  // 4b. Before the CSRF check, each authenticated by its own token: one-click unsubscribe (RFC 8058,
  //     posted without cookies or Origin) and the CMS's webhook (its secret; every instance told).
  app.use(UNSUBSCRIBE_PATH, http.public.unsubscribe);
  app.post(WEBHOOK_PATH, http.public.webhook);
  app.get('/sitemap.xml', http.public.sitemap);
  app.use(http.public.feeds);

  // 5. The session (a bad or expired one is cleared), a single-use link's cookie, then the CSRF
  //    check for every state-changing request; a sign-in waiting for its second factor and
  //    ADMIN_REQUIRE_2FA's gate; draft preview (the cookie turns drafts on; /preview starts it).
  app.use(sessionMiddleware(domains.auth.codec, (id) => domains.auth.sessions.current(id)));
  app.use(readLinkCookie());
  app.use(requireSameOrigin(config.PUBLIC_URL));
  app.use(domains.twoFactor.challenges.middleware, adminSetupGate(domains.twoFactor.twoFactor));
  app.use(previewMode(http.preview));
  app.get(PREVIEW_PATH, startPreview(http.preview));
  app.post(PREVIEW_EXIT_PATH, ...exitPreview(http.preview));

  // 6. The API (built-in, or the external one through a proxy), then CMS media through our origin.
  app.use('/api', ...http.api);
  if (http.cms) app.use('/cms', http.cms);

  // 7. The request's language (i18next-http-middleware, whitelisted codes only) and the bare root's
  //    redirect to it; a link from an e-mail moves its token from the address bar to a cookie.
  app.use(i18nMiddleware(i18n, { localeCookie: config.LOCALE_COOKIE }));
  app.get('/', rootLocaleRedirect({ cookieEnabled: config.LOCALE_COOKIE }));
  const linkPages = ROUTES.filter((route) => Object.values(LINK_PAGES).includes(route.base)).map((route) => route.fullPath);
  app.get(linkPages, takeTokenFromUrl());

  // 8. Page data for client navigations: the same resolution as a page load.
  app.get('/_data', pages.pageData);

  // 9. Logout, the forms posted to their page (each page's action, in all its forms), consent, theme.
  app.post(localeForms('/logout'), http.private.logout);
  app.post(pages.actionPaths, ...formBodyParsers(), pages.pageAction);
  app.post(localeForms('/consent'), ...consentHandler());
  app.post(localeForms('/theme'), ...themeHandler());
  if (http.styleguide) app.get(STYLEGUIDE_PATH, http.styleguide);

  // 10. The private area's answers that are not pages: a tab's live stream, the private calendar
  //     (no session: the address is the key), documents, the data export, the PDFs.
  app.get(LIVE_PATH, http.private.live);
  if (http.private.calendar) app.get(CALENDAR_PATH, http.private.calendar);
  app.get(DOWNLOAD_PATH, http.private.document);
  app.get(http.private.dataExport.paths, http.private.dataExport.handler);
  app.get(http.private.pdf.paths, http.private.pdf.handler);

  // 11. Every page: match, guard, load, then stream (a middleware rather than a '/{*splat}' route,
  //     whose wildcard Express would decode into a parameter nobody reads).
  app.use(pages.page);

  // 12. Anything else (e.g. a POST to a page that takes none).
  app.use((req, res) => {
    res.status(405).set('Allow', 'GET, HEAD').type('text/plain').send(`Method ${req.method} not allowed on ${req.path}`);
  });

  // 13. Errors: a clean answer, never a stack trace in production.
  app.use(errorHandler({ logger, isProduction: base.isProduction, lastResortPage }));

  return {
    app,
    logger,
    content: base.content,
    i18n,
    manifest,
    db: data.db,
    contactStore: domains.contact.store,
    mail: domains.mail,
    renderCache: site.renderCache,
    sessions: domains.auth.sessions,
    accounts: domains.accounts,
    metrics: http.metrics.metrics,
    close: site.close,
    drain: site.drain,
    audit: data.auditLog,
    notifications: domains.notifications,
    fanOut: domains.fanOut,
    liveStreams: domains.liveStreams,
    jobs: domains.jobs,
  };
}

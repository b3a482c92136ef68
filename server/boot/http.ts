// Phase 4b, HTTP: the handlers and routers the Express pipeline (server/app.ts) mounts, each
// made from the domains. Nothing here decides an order: app.ts does.
import cluster from 'node:cluster';
import type { RequestHandler } from 'express';
import { createApiProxy } from '../api/proxy.ts';
import { createApiRouter } from '../api/router.ts';
import { bridgeSessionToBearer } from '../auth/bearer-bridge.ts';
import { logoutHandler } from '../auth/forms.ts';
import { createCmsProxy } from '../cms/proxy.ts';
import { cmsWebhook } from '../cms/webhook.ts';
import { styleguideHandler } from '../dev/styleguide.tsx';
import { contentImageBytes } from '../http/content-images.ts';
import { checkReadiness } from '../http/health.ts';
import { messagesOf } from '../i18n/index.ts';
import { unsubscribeRoutes } from '../mail/unsubscribe.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { pdfRoutes } from '../pdf/routes.ts';
import { documentDownload } from '../projects/download.ts';
import type { RenderCache } from '../render/render-cache.ts';
import { feedRoutes } from '../seo/feeds.ts';
import { robotsTxt, sitemapXml } from '../seo/sitemap.ts';
import { standalonePage } from '../sw/routes.ts';
import { findUser } from '../users/users.ts';
import type { Base } from './base.ts';
import type { Data } from './data.ts';
import type { AppDeps } from './deps.ts';
import type { Domains } from './domains.ts';

/** /api: the built-in API (browsers' session cookie becomes the Bearer token here; never a token in JS), or the external one through a proxy. */
export async function apiRoutes({ config, logger, errorCodes }: Base, data: Data, d: Domains): Promise<RequestHandler[]> {
  if (config.API_URL) return [await createApiProxy(config.API_URL, logger, errorCodes)];
  const { db, audit, auditLog } = data;
  const { projects, conversation, expertise, documentUploads, documentDownloads } = d.projects;
  const router = createApiRouter({
    db,
    ...d.auth,
    logger,
    branding: d.brandingStore,
    brandingInCms: config.CMS_URL !== undefined,
    contact: d.contact.inbox,
    uploads: d.uploads,
    downloads: documentDownloads,
    projects,
    conversation,
    documentUploads,
    expertise,
    audit,
    auditLog,
    deletions: d.myAccount.account.deletions,
    twoFactor: d.twoFactor.twoFactor,
    accounts: d.accounts,
    companies: d.myAccount.companies,
    notifications: d.notifications,
    mailPreferences: d.mail.preferences,
  });
  return [bridgeSessionToBearer(), router];
}

/** /metrics, only when ops asked for them (prom-client is loaded only then: a site without metrics does not pay for it at start). */
export async function metricsRoutes(
  base: Base,
  data: Data,
  readiness: Parameters<typeof checkReadiness>[0],
  renderCache: RenderCache | undefined,
  jobs: Domains['jobs'],
) {
  const { config, logger } = base;
  if (config.METRICS_TOKEN === undefined && config.METRICS_PORT === undefined) return { metrics: null, handler: null };
  const serve = await import('../metrics/serve.ts');
  const metrics: Metrics = (await import('../metrics/metrics.ts')).createMetrics({
    db: data.db,
    renderCache,
    readiness: () => checkReadiness(readiness),
    jobs,
  });
  // In a worker of a cluster, the sum of all workers, asked of the primary (metrics/serve.ts).
  const text = cluster.isWorker ? serve.metricsFromPrimary() : metrics.text;
  const handler = config.METRICS_TOKEN !== undefined ? serve.metricsHandler({ token: config.METRICS_TOKEN, text, logger }) : null;
  return { metrics, handler, path: serve.METRICS_PATH };
}

/** The public files that are not pages: robots.txt, the sitemap, the blog's feeds, the CMS webhook and the one-click unsubscribe. */
export function publicRoutes(base: Base, data: Data, d: Domains) {
  const { config, logger, manifest, brand, i18n, content } = base;
  return {
    robots: ((_req, res) => {
      res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robotsTxt(config.PUBLIC_URL));
    }) satisfies RequestHandler,
    sitemap: (async (_req, res) => {
      res
        .type('application/xml')
        .set('Cache-Control', 'public, max-age=3600')
        .send(await sitemapXml(config.PUBLIC_URL, content));
    }) satisfies RequestHandler,
    feeds: feedRoutes({
      content,
      origin: config.PUBLIC_URL,
      siteName: config.SITE_NAME,
      translator: base.translate,
      coverBytes: contentImageBytes(base.contentImages),
    }),
    webhook: cmsWebhook({ secret: config.CMS_URL ? (config.CMS_WEBHOOK_SECRET ?? null) : null, changes: data.changes, logger }),
    unsubscribe: unsubscribeRoutes({
      db: data.db,
      keys: d.mail.unsubscribeKeys,
      preferences: d.mail.preferences,
      page: (locale, nonce, body) => standalonePage({ manifest, locale, siteName: config.SITE_NAME, brand, nonce, ...body }),
      i18n,
      logger,
    }),
  };
}

/** What the private area serves that is not a page: the live stream, the calendar, documents, the data export and the PDFs. */
export function privateRoutes(deps: AppDeps, base: Base, data: Data, d: Domains) {
  const { config, logger, brand } = base;
  const pdf = pdfRoutes({
    backend: d.auth.backend,
    contact: d.contact.store,
    projects: d.projects.projects,
    siteName: config.SITE_NAME,
    brand,
    logger,
    userRecord: async (userName) => (config.API_URL ? null : findUser(data.db, userName)),
    brandColor: async (userName) => (await d.branding(userName))?.color ?? null,
    ...(deps.pdfRenderer ? { renderer: deps.pdfRenderer } : {}),
    i18n: base.i18n,
    jobsPerUser: config.PDF_JOBS_PER_USER,
    stallMs: config.DOWNLOAD_STALL_SECONDS * 1000,
    audit: data.audit,
  });
  return {
    logout: logoutHandler({ sessions: d.auth.sessions, audit: data.audit, logger }),
    live: d.liveStreams.handler,
    calendar: d.calendar?.feeds.handler ?? null,
    document: documentDownload(d.projects.conversation, d.projects.documentDownloads),
    dataExport: d.myAccount.dataDownload,
    pdf,
  };
}

/** The design system's styleguide, in development only (dev/styleguide.tsx; a 404 page in production). */
export function styleguide({ isProduction, manifest, config, brand, i18n }: Base): RequestHandler | null {
  if (isProduction) return null;
  return styleguideHandler({ manifest, siteName: config.SITE_NAME, brand: brand.page, messages: (locale) => messagesOf(i18n, locale) });
}

/** CMS media and public reads through our origin, so that the CSP stays 'self'; its own token is added server-side, never the visitor's cookies. */
export async function cmsProxy({ config, logger }: Base): Promise<RequestHandler | null> {
  if (!config.CMS_URL) return null;
  return createCmsProxy({ url: config.CMS_URL, logger, ...(config.CMS_TOKEN ? { token: config.CMS_TOKEN } : {}) });
}

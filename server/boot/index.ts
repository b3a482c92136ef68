// The composition root: the site is built in phases, each from what the earlier ones made —
// base (configuration, log, brand, content, words) → data (database, change feed, audit) →
// domains (each folder's module.ts) → HTTP (the pages and the handlers the pipeline mounts).
// server/app.ts then mounts them in the order a request meets them. docs/decisions/046.
import { bootBase } from './base.ts';
import { bootData } from './data.ts';
import type { AppDeps } from './deps.ts';
import { bootDomains } from './domains.ts';
import { apiRoutes, cmsProxy, metricsRoutes, privateRoutes, publicRoutes, styleguide } from './http.ts';
import { pageHandlers, previewSetup } from './pages.ts';
import { policyOf } from './policy.ts';

export type { AppDeps } from './deps.ts';

export async function boot(deps: AppDeps) {
  const base = await bootBase(deps);
  const data = await bootData(deps, base);
  const domains = bootDomains(deps, base, data);
  const policy = policyOf(base);
  const preview = previewSetup(base, policy);
  const { pages, renderCache } = await pageHandlers(base, data, domains, policy, preview);
  // Set on SIGTERM: finish what is running, tell clients and balancers to go elsewhere.
  const lifecycle = { draining: false };
  const readiness = {
    db: data.db,
    cmsUrl: base.config.CMS_URL,
    draining: () => lifecycle.draining,
    mail: () => domains.mail.transportState(),
  };
  const privateArea = privateRoutes(deps, base, data, domains);
  const http = {
    policy,
    preview,
    pages,
    readiness,
    metrics: await metricsRoutes(base, data, readiness, renderCache, domains.jobs),
    api: await apiRoutes(base, data, domains),
    cms: await cmsProxy(base),
    public: publicRoutes(base, data, domains),
    private: privateArea,
    styleguide: styleguide(base),
  };

  /** Releases what the site holds (graceful shutdown): timers, streams, workers and the database. */
  async function close(): Promise<void> {
    await domains.jobs.stop();
    await domains.search.idle();
    await domains.fanOut.stop();
    domains.notifications.stop();
    domains.liveStreams.close();
    await domains.mail.stop();
    await privateArea.pdf.close();
    await data.auditLog.stop();
    await data.changes.close();
    await data.db.close();
  }

  function drain(): void {
    lifecycle.draining = true;
    // Open streams end now: their browsers reconnect, to an instance that is not leaving.
    domains.liveStreams.drain();
  }

  return { base, data, domains, http, renderCache, lifecycle, close, drain };
}

export type Site = Awaited<ReturnType<typeof boot>>;

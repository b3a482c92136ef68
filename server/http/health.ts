// Liveness (/healthz: the process answers) and readiness (/readyz: the database answers, the CMS
// too when there is one, and the process is not shutting down): a load balancer sends traffic
// only to a ready instance; an orchestrator restarts one that is not alive.
import cluster from 'node:cluster';
import type { RequestHandler } from 'express';
import type { Db } from '../db/index.ts';

export function liveness(): RequestHandler {
  return (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok', worker: cluster.worker?.id ?? null });
  };
}

/** The CMS answers at all (Strapi's /_health, or any non-5xx answer), within a second. */
async function cmsReachable(cmsUrl: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('/_health', cmsUrl), { method: 'GET', signal: AbortSignal.timeout(1000), redirect: 'manual' });
    return response.status < 500;
  } catch {
    return false;
  }
}

export function readiness(deps: { db: Db; cmsUrl: string | undefined; draining: () => boolean }): RequestHandler {
  return async (_req, res) => {
    const checks: Record<string, 'ok' | 'failing'> = {};
    try {
      await deps.db.ping();
      checks.database = 'ok';
    } catch {
      checks.database = 'failing';
    }
    if (deps.cmsUrl) checks.cms = (await cmsReachable(deps.cmsUrl)) ? 'ok' : 'failing';
    if (deps.draining()) checks.shutdown = 'failing';
    const ready = Object.values(checks).every((c) => c === 'ok');
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: ready ? 'ready' : 'not ready', checks });
  };
}

// Liveness (/healthz: the process answers) and readiness (/readyz: this instance can serve).
// An orchestrator restarts an instance that is not alive; a load balancer sends traffic only to
// a ready one. Ready means the database answers and the process is not shutting down. The CMS
// is not a condition: its content is served from the last good copy while it is away (cms/), so
// a CMS outage makes every instance "degraded" (said in the body and in /metrics), never
// unready — pulling every instance out of the balancer would turn a stale blog into an outage.
// The mail server likewise (mail/transport-check.ts): while it fails its check the instance is
// degraded, and the e-mails wait in the outbox.
import cluster from 'node:cluster';
import type { RequestHandler } from 'express';
import type { Db } from '../db/index.ts';

export function liveness(): RequestHandler {
  return (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok', worker: cluster.worker?.id ?? null });
  };
}

/** The CMS answers at all (Strapi's /_health, or any non-5xx answer), within a second. */
export async function cmsReachable(cmsUrl: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('/_health', cmsUrl), { method: 'GET', signal: AbortSignal.timeout(1000), redirect: 'manual' });
    return response.status < 500;
  } catch {
    return false;
  }
}

export type Readiness = {
  /** 'ready' (everything answers), 'degraded' (serving, the CMS or the mail server away), 'not ready' (503). */
  status: 'ready' | 'degraded' | 'not ready';
  checks: { database: 'ok' | 'failing'; cms?: 'ok' | 'failing'; mail?: 'ok' | 'failing'; shutdown?: 'failing' };
};

export type ReadinessDeps = {
  db: Db;
  cmsUrl: string | undefined;
  draining: () => boolean;
  /** The mail server's last check (SMTP_URL set and checked once), else undefined. */
  mail?: () => 'ok' | 'failing' | undefined;
  /** Told every outcome (the metrics' gauges). */
  onCheck?: (readiness: Readiness) => void;
};

/** What /readyz reports, also read by /metrics. */
export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const checks: Readiness['checks'] = { database: 'ok' };
  try {
    await deps.db.ping();
  } catch {
    checks.database = 'failing';
  }
  if (deps.cmsUrl) checks.cms = (await cmsReachable(deps.cmsUrl)) ? 'ok' : 'failing';
  const mail = deps.mail?.();
  if (mail) checks.mail = mail;
  if (deps.draining()) checks.shutdown = 'failing';
  const away = checks.cms === 'failing' || checks.mail === 'failing';
  const status = checks.database === 'failing' || checks.shutdown ? 'not ready' : away ? 'degraded' : 'ready';
  const readiness = { status, checks } satisfies Readiness;
  deps.onCheck?.(readiness);
  return readiness;
}

export function readiness(deps: ReadinessDeps): RequestHandler {
  return async (_req, res) => {
    const result = await checkReadiness(deps);
    res
      .status(result.status === 'not ready' ? 503 : 200)
      .set('Cache-Control', 'no-store')
      .json(result);
  };
}

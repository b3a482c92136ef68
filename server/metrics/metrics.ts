// What ops scrape (Prometheus text, prom-client): requests by route name and status, their
// latency, the editors' redirects, the render cache, the job runs, the mail outbox, the database pool, readiness, and Node's own
// figures (event-loop lag, heap, CPU). Off unless METRICS_TOKEN or METRICS_PORT is set: then
// every request is counted here, and /metrics answers with the token on the site's port
// and/or without it on the metrics port (metrics/serve.ts).
//
// Labels stay few whatever the traffic: a route is the name of the page (`page:client-project`)
// or the pattern an Express route was declared with (`/api/projects/:id`), never a URL; a method
// is one of the HTTP methods the site answers, any other (PROPFIND, MKCOL, … Node parses 34) is
// `other`, so that a client trying them all cannot multiply the series.
import cluster from 'node:cluster';
import type { Request, RequestHandler, Response } from 'express';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import type { Readiness } from '../http/health.ts';
import type { JobRunCount } from '../jobs/runner.ts';

declare module 'express-serve-static-core' {
  interface Locals {
    /** The page's route name (its base), for the metrics' route label. */
    routeName?: string;
    /** The status of an editor's redirect answered (server/content/redirects.ts), for site_redirects_total. */
    redirectStatus?: number;
  }
}

export type MetricsDeps = {
  db: Db;
  /** The render cache's counters, when there is one. */
  renderCache?: { stats(): { entries: number; bytes: number; hits: number; misses: number } } | undefined;
  /** The readiness check, run at each scrape. */
  readiness: () => Promise<Readiness>;
  /** The job runner's count of the runs this process ended (server/jobs/runner.ts). */
  jobs?: { runsCounted(): JobRunCount[] } | undefined;
};

/** Latency buckets, in seconds: the pages' budget (25 ms) sits between two of them. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The methods counted under their own name; the site answers no other. */
const COUNTED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The method label of a request: its method when it is one the site answers, else `other`. */
export function methodLabel(req: Request): string {
  return COUNTED_METHODS.has(req.method) ? req.method : 'other';
}

/** The route label of a finished request (see the file's comment). */
export function routeLabel(req: Request, res: Response): string {
  if (res.locals.routeName) return `page:${res.locals.routeName}`;
  const route = req.route as { path?: unknown } | undefined;
  if (route?.path !== undefined) {
    // A route declared in all its locale forms is named by its first (the unprefixed one).
    const path = Array.isArray(route.path) ? route.path[0] : route.path;
    if (typeof path === 'string') return `${req.baseUrl}${path}`;
  }
  if (req.path.startsWith('/assets/')) return 'assets';
  if (res.locals.redirectStatus) return 'redirect';
  return res.statusCode === 404 ? 'not-found' : 'other';
}

/**
 * A figure read from the database, or null when the database does not answer: then the gauge
 * has no sample (an old figure would look current); site_ready says why. The scrape goes on.
 */
async function readOrForget<T>(gauge: Gauge, read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch {
    gauge.reset();
    return null;
  }
}

export type Metrics = {
  registry: Registry;
  /** Counts and times every request (registered first). */
  record: RequestHandler;
  /** This process's metrics as Prometheus text. */
  text(): Promise<string>;
};

export function createMetrics(deps: MetricsDeps): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route name and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of its response, by method and route name.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  const redirects = new Counter({
    name: 'site_redirects_total',
    help: "Editors' redirects answered (a page load's 301/302, or a client navigation told to go), by status.",
    labelNames: ['status'] as const,
    registers: [registry],
  });

  // Registered in this order, which is the order of the scrape's text.
  if (deps.renderCache) registerRenderCacheMetrics(registry, deps.renderCache);
  if (deps.jobs) registerJobMetrics(registry, deps.jobs);
  registerOutboxMetrics(registry, deps.db);
  const pool = deps.db.pool;
  if (pool) registerPoolMetrics(registry, pool);
  registerReadinessMetrics(registry, deps.readiness);

  // In a worker of a cluster, the primary asks each worker for its figures and sums them.
  if (cluster.isWorker) {
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
  }

  const record: RequestHandler = (req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      const route = routeLabel(req, res);
      const method = methodLabel(req);
      requests.inc({ method, route, status: res.statusCode });
      latency.observe({ method, route }, (performance.now() - started) / 1000);
      if (res.locals.redirectStatus) redirects.inc({ status: res.locals.redirectStatus });
    });
    next();
  };

  return { registry, record, text: () => registry.metrics() };
}

/** The render cache's hits and misses (counted from its own totals at each scrape) and its size. */
function registerRenderCacheMetrics(registry: Registry, cache: NonNullable<MetricsDeps['renderCache']>): void {
  const cacheSeen = { hits: 0, misses: 0 };
  new Counter({
    name: 'render_cache_hits_total',
    help: 'Pages answered from the render cache.',
    registers: [registry],
    collect() {
      const { hits } = cache.stats();
      this.inc(hits - cacheSeen.hits);
      cacheSeen.hits = hits;
    },
  });
  new Counter({
    name: 'render_cache_misses_total',
    help: 'Cacheable pages rendered because the cache did not hold them.',
    registers: [registry],
    collect() {
      const { misses } = cache.stats();
      this.inc(misses - cacheSeen.misses);
      cacheSeen.misses = misses;
    },
  });
  new Gauge({
    name: 'render_cache_bytes',
    help: 'Markup held by the render cache.',
    registers: [registry],
    collect() {
      this.set(cache.stats().bytes);
    },
  });
}

/** The runs of the jobs this process ended, by kind and status (done, retried, failed): workers are summed. */
function registerJobMetrics(registry: Registry, jobs: NonNullable<MetricsDeps['jobs']>): void {
  const seen = new Map<string, number>();
  new Counter({
    name: 'job_runs_total',
    help: 'Job runs ended by this process, by kind (digest, reminders) and status (done; retried: failed, tried again later; failed: given up).',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    collect() {
      for (const { kind, status, count } of jobs.runsCounted()) {
        const key = `${kind} ${status}`;
        this.inc({ kind, status }, count - (seen.get(key) ?? 0));
        seen.set(key, count);
      }
    },
  });
}

// The outbox is the database's: every instance sees the same rows, so workers are not summed.
function registerOutboxMetrics(registry: Registry, db: Db): void {
  new Gauge({
    name: 'mail_outbox_messages',
    help: 'E-mails in the outbox waiting to be sent (pending) or given up after the last attempt (failed).',
    labelNames: ['status'] as const,
    aggregator: 'max',
    registers: [registry],
    async collect() {
      const rows = await readOrForget(this, () =>
        db.k
          .selectFrom('mail_outbox')
          .select(['status', sql<number>`COUNT(*)`.as('count')])
          .where('status', 'in', ['pending', 'failed'])
          .groupBy('status')
          .execute(),
      );
      if (!rows) return;
      for (const status of ['pending', 'failed'] as const) {
        this.set({ status }, Number(rows.find((row) => row.status === status)?.count ?? 0));
      }
    },
  });
  new Gauge({
    name: 'mail_outbox_oldest_pending_seconds',
    help: 'Age of the oldest e-mail still waiting (0 when none): a stuck sender shows here first.',
    aggregator: 'max',
    registers: [registry],
    async collect() {
      const row = await readOrForget(this, () =>
        db.k
          .selectFrom('mail_outbox')
          .select(sql<string | null>`MIN(created_at)`.as('oldest'))
          .where('status', '=', 'pending')
          .executeTakeFirst(),
      );
      if (row === null) return;
      const oldest = row?.oldest ? Date.parse(row.oldest) : NaN;
      this.set(Number.isNaN(oldest) ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
    },
  });
}

function registerPoolMetrics(registry: Registry, pool: NonNullable<Db['pool']>): void {
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections: total open, idle, and requests waiting for one.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
}

// Readiness as /readyz reports it, checked once per scrape: prom-client collects every metric
// at the same time, so both gauges wait for the one check.
function registerReadinessMetrics(registry: Registry, check: () => Promise<Readiness>): void {
  let checking: Promise<Readiness> | null = null;
  const readiness = () => {
    checking ??= check().finally(() => {
      checking = null;
    });
    return checking;
  };
  new Gauge({
    name: 'site_ready',
    help: 'Readiness as /readyz reports it: 1 ready, 0.5 degraded (the CMS or the mail server away), 0 not ready.',
    aggregator: 'min',
    registers: [registry],
    async collect() {
      const { status } = await readiness();
      this.set(status === 'ready' ? 1 : status === 'degraded' ? 0.5 : 0);
    },
  });
  new Gauge({
    name: 'site_check_ok',
    help: 'Each readiness check: 1 when it passes, 0 when it fails (database, cms, mail, shutdown).',
    labelNames: ['check'] as const,
    aggregator: 'min',
    registers: [registry],
    async collect() {
      const { checks } = await readiness();
      this.set({ check: 'database' }, checks.database === 'ok' ? 1 : 0);
      if (checks.cms) this.set({ check: 'cms' }, checks.cms === 'ok' ? 1 : 0);
      if (checks.mail) this.set({ check: 'mail' }, checks.mail === 'ok' ? 1 : 0);
      this.set({ check: 'shutdown' }, checks.shutdown ? 0 : 1);
    },
  });
}

// /metrics as a Prometheus scraper meets it: off unless asked for, behind METRICS_TOKEN on the
// site's port or on METRICS_PORT of its own, and with a cluster the sum of its workers.
import { once } from 'node:events';
import { METHODS, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { expect, test } from 'vitest';
import { launchServer, freePort } from '../scripts/launch-server.ts';
import { createLogger } from '../server/base/logger.ts';
import { createJobs } from '../server/jobs/runner.ts';
import { createMetrics } from '../server/metrics/metrics.ts';
import { bearerMatches } from '../server/metrics/serve.ts';
import { createTestApp, ORIGIN, TEST_ENGINE, testDatabase } from './helpers/app.ts';
import { scaled } from './helpers/time-scale.ts';

const TOKEN = 'metrics-token-that-is-long-enough-1234567';

/** The value of one sample line of Prometheus text (`name{labels} value`), or undefined. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

test('without METRICS_TOKEN or METRICS_PORT there is no /metrics: the 404 page, and nothing is counted', async () => {
  const site = await createTestApp();
  expect(site.metrics).toBeNull();
  const res = await request(site.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
  expect(res.status).toBe(404);
  expect(res.text).not.toContain('http_requests_total');
});

test('METRICS_TOKEN is at least 32 characters, and METRICS_PORT must differ from PORT', async () => {
  await expect(createTestApp({ METRICS_TOKEN: 'short' })).rejects.toThrow(/METRICS_TOKEN: must be at least 32 characters/);
  await expect(createTestApp({ METRICS_PORT: '3000', PORT: '3000' })).rejects.toThrow(/METRICS_PORT must differ from PORT/);
});

test('/metrics answers a Bearer of METRICS_TOKEN only: 401 with WWW-Authenticate otherwise, and never cached', async () => {
  const { app } = await createTestApp({ METRICS_TOKEN: TOKEN });
  // An outsider: nothing, a wrong token, another scheme, the token with more or less, a 10 kB token.
  for (const authorization of [
    undefined,
    'Bearer wrong-token',
    `Basic ${TOKEN}`,
    `Bearer ${TOKEN}x`,
    `Bearer  ${TOKEN}`,
    `Bearer ${'x'.repeat(10_000)}`,
  ]) {
    const req = request(app).get('/metrics');
    const res = await (authorization ? req.set('Authorization', authorization) : req);
    expect(res.status, authorization).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(res.text).not.toContain('http_requests_total');
  }
  const ok = await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
  expect(ok.status).toBe(200);
  // A replayed scrape is just another read: the same answer, nothing changed by it.
  expect((await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).status).toBe(200);
  // Only GET: a POST is not a scrape.
  expect((await request(app).post('/metrics').set('Authorization', `Bearer ${TOKEN}`)).status).not.toBe(200);
  expect(ok.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  expect(ok.headers['cache-control']).toBe('no-store');
});

test('requests are counted by route name (never the URL) and status, with a latency histogram', async () => {
  const { app } = await createTestApp({ METRICS_TOKEN: TOKEN });
  await request(app).get('/es').expect(200);
  await request(app).get('/en').expect(200);
  await request(app).get('/en/blog/first-slug');
  await request(app).get('/en/blog/second-slug');
  await request(app).get('/no/such/page').expect(404);
  await request(app).get('/api/projects/12345').expect(401);
  await request(app).post('/api/login').set('Origin', ORIGIN).send({ identifier: 'nobody', password: 'wrong-password' });
  const text = (await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).text;
  expect(sample(text, 'http_requests_total{method="GET",route="page:index",status="200"}')).toBe(2);
  expect(text).toMatch(/http_requests_total\{method="GET",route="page:blog-slug",status="\d+"\} 2/);
  expect(sample(text, 'http_requests_total{method="GET",route="not-found",status="404"}')).toBe(1);
  expect(sample(text, 'http_requests_total{method="GET",route="/api/projects/:id",status="401"}')).toBe(1);
  expect(text).toMatch(/http_requests_total\{method="POST",route="\/api\/login",status="401"\} 1/);
  // No label carries the URL (a figure of the scrape may contain the digits by chance).
  expect(text).not.toContain('first-slug');
  expect(text).not.toMatch(/\{[^}]*12345[^}]*\}/);
  expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="page:index"}')).toBe(2);
  expect(text).toContain('http_request_duration_seconds_bucket{le="0.025",method="GET",route="page:index"}');
});

test('a method the site does not answer is counted as "other": every method Node parses adds no series beyond it', async () => {
  const { app } = await createTestApp({ METRICS_TOKEN: TOKEN });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const exotic = METHODS.filter((method) => !['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT'].includes(method));
  try {
    for (const method of exotic) {
      await new Promise<void>((resolve, reject) => {
        httpRequest({ port, host: '127.0.0.1', method, path: '/en' }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
          .on('error', reject)
          .end();
      });
    }
  } finally {
    server.close();
  }
  const text = (await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).text;
  const methods = new Set([...text.matchAll(/^http_requests_total\{method="([^"]+)"/gm)].map((match) => match[1]));
  expect(exotic.length).toBeGreaterThan(20);
  for (const method of exotic) expect(methods.has(method), method).toBe(false);
  const counted = text
    .split('\n')
    .filter((line) => line.startsWith('http_requests_total{method="other"'))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
  expect(counted).toBe(exotic.length);
});

test('the render cache, the outbox, readiness and the event loop are in the metrics', async () => {
  const site = await createTestApp({ METRICS_TOKEN: TOKEN });
  for (let i = 0; i < 3; i++) await request(site.app).get('/en/login').expect(200);
  // Two e-mails waiting (one for a minute) and one given up.
  const row = (status: string, createdAt: string) => ({
    kind: 'contact_message',
    recipient: 'ana@example.com',
    reply_to: null,
    locale: 'es',
    subject: 's',
    text: 't',
    html: '<p>t</p>',
    status,
    attempts: 0,
    last_error: null,
    next_attempt_at: Date.now() + 3_600_000,
    claimed_at: null,
    ref: null,
    created_at: createdAt,
    sent_at: null,
    priority: 1,
  });
  const minuteAgo = new Date(Date.now() - 60_000).toISOString();
  await site.db.k
    .insertInto('mail_outbox')
    .values([row('pending', minuteAgo), row('pending', new Date().toISOString()), row('failed', minuteAgo)])
    .execute();
  const text = (await request(site.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).text;
  expect(sample(text, 'render_cache_hits_total')).toBeGreaterThanOrEqual(1);
  expect(sample(text, 'render_cache_misses_total')).toBeGreaterThanOrEqual(1);
  expect(sample(text, 'render_cache_bytes')).toBeGreaterThan(0);
  expect(sample(text, 'mail_outbox_messages{status="pending"}')).toBe(2);
  expect(sample(text, 'mail_outbox_messages{status="failed"}')).toBe(1);
  expect(sample(text, 'mail_outbox_oldest_pending_seconds')).toBeGreaterThanOrEqual(59);
  expect(sample(text, 'site_ready')).toBe(1);
  expect(sample(text, 'site_check_ok{check="database"}')).toBe(1);
  expect(text).toContain('nodejs_eventloop_lag_seconds');
  expect(text).toContain('process_resident_memory_bytes');
});

test('job runs are counted by kind and status: a run done, a failed one tried again later, and one given up', async () => {
  const db = await testDatabase();
  const clock = { now: Date.parse('2026-12-02T09:00:00Z') };
  const jobs = createJobs({
    db,
    logger: createLogger('silent'),
    hour: 7,
    timeZone: 'UTC',
    now: () => clock.now,
    maxAttempts: 2,
    retryDelayMs: () => 60_000,
    handlers: {
      reminders: async () => {
        throw new Error('the mail server went away');
      },
      digest: async () => {},
    },
  });
  const metrics = createMetrics({ db, readiness: async () => ({ status: 'ready', checks: { database: 'ok' } }), jobs });
  try {
    await jobs.tick(); // reminders fail once; the digest waits for them
    clock.now += 60_000;
    await jobs.tick(); // reminders fail their last attempt (given up)
    await jobs.tick(); // the digest runs, its reminders over
    const text = await metrics.text();
    expect(sample(text, 'job_runs_total{kind="reminders",status="retried"}')).toBe(1);
    expect(sample(text, 'job_runs_total{kind="reminders",status="failed"}')).toBe(1);
    expect(sample(text, 'job_runs_total{kind="digest",status="done"}')).toBe(1);
    expect(await jobs.lastRunFailed()).toEqual(['reminders']);
    // A scrape again counts nothing twice.
    expect(sample(await metrics.text(), 'job_runs_total{kind="digest",status="done"}')).toBe(1);
  } finally {
    await jobs.stop();
    await db.close();
  }
});

test("the site's own job runs are in its /metrics: the day's reminders and digest, done", async () => {
  const site = await createTestApp({ METRICS_TOKEN: TOKEN }, { jobs: { now: () => Date.parse('2026-12-02T09:00:00Z') } });
  await site.jobs.tick();
  const text = (await request(site.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).text;
  expect(sample(text, 'job_runs_total{kind="reminders",status="done"}')).toBe(1);
  expect(sample(text, 'job_runs_total{kind="digest",status="done"}')).toBe(1);
  expect(await site.jobs.lastRunFailed()).toEqual([]);
});

test('an unreachable CMS shows as degraded in the metrics (site_ready 0.5, the cms check 0), a closed database as 0 with no outbox figures', async () => {
  const site = await createTestApp({ METRICS_TOKEN: TOKEN, CMS_URL: 'http://127.0.0.1:9', CMS_TOKEN: 't' });
  const text = (await request(site.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).text;
  expect(sample(text, 'site_ready')).toBe(0.5);
  expect(sample(text, 'site_check_ok{check="cms"}')).toBe(0);
  expect(sample(text, 'site_check_ok{check="database"}')).toBe(1);
  await site.close();
  const down = await request(site.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
  // The scrape still answers: not ready, and no outbox figures rather than old ones.
  expect(down.status).toBe(200);
  expect(sample(down.text, 'site_ready')).toBe(0);
  expect(sample(down.text, 'site_check_ok{check="database"}')).toBe(0);
  expect(down.text).not.toMatch(/^mail_outbox_messages\{/m);
});

test('the Bearer comparison takes the whole token and nothing else', () => {
  expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
  expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(false);
  expect(bearerMatches(`Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe(false);
  expect(bearerMatches(undefined, TOKEN)).toBe(false);
});

test(
  'WEB_CONCURRENCY=2: METRICS_PORT (no token asked) and /metrics on the site port both give the sum of the workers',
  async () => {
    const metricsPort = await freePort();
    const server = await launchServer({
      env: { WEB_CONCURRENCY: '2', METRICS_PORT: String(metricsPort), METRICS_TOKEN: TOKEN },
      startTimeoutMs: scaled(20_000),
    });
    try {
      const workers = new Set<string>();
      const SENT = 40;
      for (let i = 0; i < SENT; i++) {
        // A new connection each time: the cluster hands connections to its workers in turn.
        const res = await fetch(`${server.url}/es/login`, { headers: { Connection: 'close' } });
        await res.arrayBuffer();
        workers.add(res.headers.get('x-worker') ?? '');
      }
      expect(workers.size).toBe(2);
      const scrape = async (url: string, headers: Record<string, string> = {}) => {
        const res = await fetch(url, { headers });
        return { status: res.status, text: await res.text() };
      };
      const onPort = await scrape(`http://127.0.0.1:${metricsPort}/metrics`, { Authorization: `Bearer ${TOKEN}` });
      expect(onPort.status).toBe(200);
      expect(sample(onPort.text, 'http_requests_total{method="GET",route="page:login",status="200"}')).toBe(SENT);
      expect((await scrape(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(401);
      expect((await scrape(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
      const onSite = await scrape(`${server.url}/metrics`, { Authorization: `Bearer ${TOKEN}` });
      expect(onSite.status).toBe(200);
      expect(sample(onSite.text, 'http_requests_total{method="GET",route="page:login",status="200"}')).toBe(SENT);
      // The outbox is one database, seen by both workers: not counted twice.
      expect(sample(onSite.text, 'mail_outbox_messages{status="failed"}')).toBe(0);
    } finally {
      await server.stop();
    }
  },
  scaled(60_000),
);

test('the database pool is in the metrics on PostgreSQL (total, idle, waiting); SQLite has no pool to show', async () => {
  const { app } = await createTestApp({ METRICS_TOKEN: TOKEN });
  await request(app).get('/en/login').expect(200);
  const text = (await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).text;
  if (TEST_ENGINE === 'postgres') {
    expect(sample(text, 'db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    // A snapshot taken while the scrape's own queries run: present, whatever the figure.
    expect(sample(text, 'db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_connections{state="waiting"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'mail_outbox_messages{status="failed"}')).toBe(0);
  } else {
    expect(text).not.toContain('db_pool_connections');
  }
});

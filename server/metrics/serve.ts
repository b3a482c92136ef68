// Where /metrics answers. With METRICS_TOKEN, on the site's own port to a Bearer of that token
// (anyone else: 401, nothing about the site). With METRICS_PORT, on a listener of its own on
// HOST (the token asked there too when set). With WEB_CONCURRENCY > 1 the answer is the sum of
// every worker's figures, made by the primary (prom-client's AggregatorRegistry): a worker that
// is asked on the site's port gets it from the primary over the cluster's IPC channel.
import cluster from 'node:cluster';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { RequestHandler } from 'express';
import { AggregatorRegistry } from 'prom-client';
import type { Logger } from '../base/logger.ts';

export const METRICS_PATH = '/metrics';
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
/** How long a scrape waits for the workers' figures. */
const GATHER_TIMEOUT_MS = 5_000;

type MetricsText = () => Promise<string>;

/** The token of an `Authorization: Bearer …` header equals `token` (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (\S+)$/.exec(header ?? '')?.[1];
  if (!given) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

type MetricsOptions = { token: string | undefined; text: MetricsText; logger: Logger };
type Answer = { status: number; headers: Record<string, string>; body: string };

/** The answer to a scrape with this Authorization header: the metrics, 401 or 503. */
async function answerScrape(authorization: string | undefined, options: MetricsOptions): Promise<Answer> {
  if (options.token !== undefined && !bearerMatches(authorization, options.token)) {
    return {
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="metrics"', 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
      body: 'A valid Bearer token is required for /metrics.',
    };
  }
  try {
    return { status: 200, headers: { 'Content-Type': CONTENT_TYPE, 'Cache-Control': 'no-store' }, body: await options.text() };
  } catch (error) {
    options.logger.warn({ err: error }, 'the metrics could not be gathered');
    return {
      status: 503,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '5' },
      body: 'The metrics could not be gathered; try again.',
    };
  }
}

/** GET /metrics on the site's port (METRICS_TOKEN). */
export function metricsHandler(options: MetricsOptions): RequestHandler {
  return async (req, res) => {
    const answer = await answerScrape(req.headers.authorization, options);
    res.status(answer.status).set(answer.headers).send(answer.body);
  };
}

/** A listener of its own for /metrics (METRICS_PORT): anything else is a 404. */
export function createMetricsServer(options: MetricsOptions): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: this port serves GET /metrics only.');
      return;
    }
    void answerScrape(req.headers.authorization, options).then((answer) => {
      res.writeHead(answer.status, answer.headers).end(req.method === 'HEAD' ? undefined : answer.body);
    });
  });
}

const ASK = 'site:metrics?';
const ANSWER = 'site:metrics';
type Ask = { type: typeof ASK; id: string };
type Reply = { type: typeof ANSWER; id: string; text?: string; error?: string };

/** In the primary: the workers' figures summed, and the answer to a worker that asks for them. */
export function primaryMetrics(logger: Logger): MetricsText {
  const aggregator = new AggregatorRegistry();
  const gather = () => aggregator.clusterMetrics();
  cluster.on('message', (worker, message: unknown) => {
    const ask = message as Ask | null;
    if (ask?.type !== ASK) return;
    gather().then(
      (text) => worker.send({ type: ANSWER, id: ask.id, text } satisfies Reply),
      (error: unknown) => {
        logger.warn({ err: error }, 'the workers’ metrics could not be gathered');
        worker.send({ type: ANSWER, id: ask.id, error: String(error) } satisfies Reply);
      },
    );
  });
  return gather;
}

/** In a worker: the cluster's figures, asked of the primary. */
export function metricsFromPrimary(): MetricsText {
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = randomUUID();
      const onMessage = (message: unknown) => {
        const answer = message as Reply | null;
        if (answer?.type !== ANSWER || answer.id !== id) return;
        clearTimeout(timer);
        process.off('message', onMessage);
        if (answer.text !== undefined) resolve(answer.text);
        else reject(new Error(answer.error ?? 'no metrics'));
      };
      const timer = setTimeout(() => {
        process.off('message', onMessage);
        reject(new Error(`the primary did not answer within ${GATHER_TIMEOUT_MS} ms`));
      }, GATHER_TIMEOUT_MS + 1_000);
      process.on('message', onMessage);
      process.send!({ type: ASK, id } satisfies Ask);
    });
}

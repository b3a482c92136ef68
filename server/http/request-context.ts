// What every request carries before anything else looks at it, set in one middleware (one
// router layer instead of five: each layer Express passes costs an allocation or two, and this
// runs for every request):
//   1. an id (kept from a trusted proxy's X-Request-Id when well-formed) and one log line when
//      the response is finished: method, path (never the query), status, duration;
//   2. a fresh CSP nonce, for every script and the branding <style> of the page;
//   3. its cookies (cookie-parser) and the visitor's cookie consent, hence whether the response
//      may load analytics.
// helmet, right after this, writes the Content-Security-Policy from the nonce and the analytics
// decision (csp.ts): both must be known before it runs.
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import cookieParser from 'cookie-parser';
import type { RequestHandler, Response } from 'express';
import { CONSENT_COOKIE, parseConsent } from '../../shared/consent.ts';
import type { Logger } from '../base/logger.ts';
import { createNonceSource } from './nonce.ts';

declare module 'express-serve-static-core' {
  interface Locals {
    requestId?: string;
    cspNonce?: string;
    /** This response may load analytics: the policy allows their hosts and the page carries their tags. */
    analytics?: boolean;
  }
}

export type RequestContextOptions = {
  logger: Logger;
  /** May this visitor's responses load analytics (ids configured and consent given)? */
  analyticsAllowed: (consent: ReturnType<typeof parseConsent>) => boolean;
  /** Set on SIGTERM: answers say Connection: close, so that clients go elsewhere. */
  draining: () => boolean;
  /** Is the connection's peer a trusted proxy (TRUST_PROXY)? Only then is its X-Request-Id kept. */
  trustedPeer: (address: string | undefined) => boolean;
};

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

export function requestContext(options: RequestContextOptions): RequestHandler {
  const { logger } = options;
  const nextNonce = createNonceSource();
  const parseCookies = cookieParser();
  // Which worker answered (WEB_CONCURRENCY > 1): a worker index, useful to ops, nothing more.
  const worker = cluster.worker ? String(cluster.worker.id) : null;
  // The level is fixed at start (LOG_LEVEL): no request log, no listener.
  const logRequests = logger.isLevelEnabled('info');

  return (req, res, next) => {
    // A proxy's id ties our log line to its own; anyone else could fill our logs with chosen ids.
    const given = options.trustedPeer(req.socket.remoteAddress) ? req.headers['x-request-id'] : undefined;
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    if (options.draining()) res.setHeader('Connection', 'close');
    if (worker) res.setHeader('X-Worker', worker);
    if (logRequests) {
      const started = performance.now();
      // 'finish' comes once per response: `on` spares the wrapper that `once` makes.
      res.on('finish', () => {
        const ms = Math.round((performance.now() - started) * 10) / 10;
        logger.info({ reqId: id, method: req.method, path: req.path, status: res.statusCode, ms }, 'request');
      });
    }

    const nonce = nextNonce();
    res.locals.cspNonce = nonce;
    parseCookies(req, res, (error?: unknown) => {
      if (error) return next(error);
      const consent = parseConsent((req.cookies as Record<string, unknown>)[CONSENT_COOKIE]);
      const analytics = options.analyticsAllowed(consent);
      res.locals.consent = consent;
      res.locals.analytics = analytics;
      next();
    });
  };
}

/** The response's CSP nonce, set above for every request (the page's scripts and branding <style> carry it). */
export function nonceOf(res: Response): string {
  return res.locals.cspNonce as string;
}

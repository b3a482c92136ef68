// External API mode (API_URL set): /api/* is proxied to it. The browser's own Authorization
// header and cookies are never forwarded; the session's Bearer token is added server-side.
// An upstream 401 ends the session. What the API answers passes through as it is, but its
// refusals: the browser gets the contract's error with a code the site has words for and the
// site's own message, and the upstream's words go to the log (http/upstream.ts).
import type { Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../base/logger.ts';
import { clearSession } from '../auth/session-cookie.ts';
import { upstreamFailure } from '../http/upstream.ts';

/** Headers of one connection, not of the answer (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);
/** As much of a refusal's body as is read for the log: an error body is small. */
const REFUSAL_BODY_MAX = 64 * 1024;

/** The upstream's answer as it is, streamed: its status and headers (never its cookies, never stored). */
function passOn(proxyRes: IncomingMessage, res: Response): void {
  for (const [name, value] of Object.entries(proxyRes.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'set-cookie') res.setHeader(name, value);
  }
  res.setHeader('Cache-Control', 'private, no-store');
  res.status(proxyRes.statusCode ?? 502);
  proxyRes.pipe(res);
}

async function bodyText(proxyRes: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of proxyRes as AsyncIterable<Buffer>) {
    if (length < REFUSAL_BODY_MAX) chunks.push(chunk);
    length += chunk.length;
  }
  return Buffer.concat(chunks).subarray(0, REFUSAL_BODY_MAX).toString('utf8');
}

/** A JSON body, or null for anything else (an HTML 404 page). */
function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Loaded only in external API mode (the proxy library is not needed otherwise). */
export async function createApiProxy(apiUrl: string, logger: Logger, errorCodes: ReadonlySet<string>): Promise<RequestHandler> {
  const { createProxyMiddleware } = await import('http-proxy-middleware');

  /** A refusal in the site's terms; what the upstream said is logged. */
  async function refuse(proxyRes: IncomingMessage, req: Request, res: Response): Promise<void> {
    const status = proxyRes.statusCode ?? 502;
    const failure = upstreamFailure(status, parsedOrNull(await bodyText(proxyRes)), `${req.method} ${req.path}`, errorCodes);
    logger.warn({ err: failure }, 'API refused a request');
    const retryAfter = proxyRes.headers['retry-after'];
    if (typeof retryAfter === 'string') res.setHeader('Retry-After', retryAfter);
    res
      .status(failure.status)
      .set('Cache-Control', 'private, no-store')
      .json({ error: { code: failure.code, message: failure.message, ...(failure.fields ? { fields: failure.fields } : {}) } });
  }

  return createProxyMiddleware<Request, Response>({
    target: apiUrl,
    changeOrigin: true,
    proxyTimeout: 10_000,
    timeout: 10_000,
    xfwd: false,
    // The answer is written here: passed on as it is, or a refusal in the site's words.
    selfHandleResponse: true,
    on: {
      proxyReq(proxyReq, _req, res) {
        proxyReq.removeHeader('cookie');
        proxyReq.removeHeader('authorization');
        const token = res.locals.session?.token;
        if (token) proxyReq.setHeader('Authorization', `Bearer ${token}`);
      },
      proxyRes(proxyRes: IncomingMessage, req, res) {
        if (proxyRes.statusCode === 401 && res.locals.session) clearSession(req, res);
        if ((proxyRes.statusCode ?? 502) < 400) return passOn(proxyRes, res);
        refuse(proxyRes, req, res).catch((error: unknown) => {
          logger.warn({ err: error }, 'API proxy error');
          if (!res.headersSent) res.status(503).json({ error: { code: 'api_unavailable', message: 'The API could not be reached' } });
          else res.destroy();
        });
      },
      error(error, _req, res) {
        logger.warn({ err: error }, 'API proxy error');
        const response = res as ServerResponse;
        if (!response.headersSent && typeof response.writeHead === 'function') {
          response.writeHead(503, { 'Content-Type': 'application/json', 'Cache-Control': 'private, no-store' });
          response.end(JSON.stringify({ error: { code: 'api_unavailable', message: 'The API could not be reached' } }));
        }
      },
    },
  }) as unknown as RequestHandler;
}

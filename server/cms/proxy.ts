// The site's window on the CMS, mounted with app.use('/cms', await createCmsProxy(...)): media
// (/cms/uploads/...) and public REST reads (/cms/api/...) come from our own origin, so pages
// keep a CSP of 'self' and the browser never talks to the CMS. http-proxy-middleware does the
// proxying (as for /api, server/api/proxy.ts); this file decides what may pass, in both ways.
// What it serves is an allow list, decided on a normalised path (Strapi's router ignores case
// and has many more routes than a block list can name): files under /uploads/, and reads of
// the public collections (posts, legal pages) — nothing else, in no spelling. The path is
// percent-decoded once; what still holds a `%` (double encoding), a backslash, a `..`, an empty
// segment or a character outside [A-Za-z0-9._~@+-] is refused; `;params` are dropped; the
// collection is compared in lower case. The CMS then gets the canonical path, never the raw one.
// Published versions only: a query that asks for drafts (Strapi 5 `status`, Strapi 4
// `publicationState`, and their relatives) is refused (400) — Strapi gives drafts to whoever
// may `find` published entries, the Public role included (docs/decisions/019).
// It is a read-only window: GET and HEAD only; the upstream request carries only Accept /
// If-None-Match / If-Modified-Since / Range of the visitor's headers (never the visitor's
// cookies or Authorization), and `Authorization: Bearer {CMS_TOKEN}` when that token is
// configured (the site's own read token: never the service account's jwt, never a visitor's
// session); response headers are copied from an allowlist (never Set-Cookie). Uploads that are
// not raster images are served as attachments under a CSP of default-src 'none'; sandbox, so
// an uploaded HTML or SVG file cannot run script on our origin.
//
// Upstream answer → our answer:
//   2xx, 304, 416                  passed through (bodies piped with back-pressure, never buffered)
//   404, and 401/403               404 not_found: a resource that is not public does not exist here
//   400                            400 bad_request: the visitor's query was refused
//   other 3xx/4xx, 5xx, no answer  502 cms_unavailable: the CMS did not give a usable answer
//   no headers within timeoutMs    504 cms_timeout (also: no body bytes for timeoutMs → cut)
import type { Request, RequestHandler, Response } from 'express';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Logger } from '../base/logger.ts';

export type CmsProxyOptions = {
  /** Base URL of the CMS, e.g. https://cms.example.com. */
  url: string;
  timeoutMs?: number;
  /** CMS_TOKEN: sent upstream as `Authorization: Bearer …` with every request. */
  token?: string;
  logger: Logger;
};

type Target = { kind: 'uploads' | 'api'; path: string; query: string };

const FORWARDED_REQUEST_HEADERS = new Set(['accept', 'if-none-match', 'if-modified-since', 'range']);
// The bytes are piped as they come: their length and encoding go with them (we ask for identity).
const COPIED_RESPONSE_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'etag',
  'last-modified',
  'accept-ranges',
  'content-range',
]);
// The collections whose reads are public (Strapi's Public role reads them): nothing else under /api/.
const PUBLIC_COLLECTIONS = new Set(['posts', 'legal-pages']);
// Raster images are safe to show inline; everything else (HTML, SVG, PDF…) is downloaded.
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);
// A decoded path segment (after its ;params are dropped); upload names and entry ids fit.
const SEGMENT = /^[A-Za-z0-9._~@+-]+$/;
// A v4 id or a v5 documentId.
const ENTRY_ID = /^[A-Za-z0-9]{1,64}$/;
const MAX_PATH_LENGTH = 1024;
const MAX_QUERY_LENGTH = 2048;
// Query parameters that reach drafts in Strapi 5 or 4 (compared in lower case, brackets and all after the name).
const DRAFT_PARAMETERS = ['status', 'publicationstate', 'publicationfilter', 'haspublishedversion'];

/** Whether a query asks for drafts: any spelling of a draft parameter's name, however encoded. */
export function asksForDrafts(query: string): boolean {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(query);
  } catch {
    return true;
  }
  for (const key of params.keys()) {
    const name = key.toLowerCase().split('[', 1)[0] ?? '';
    if (DRAFT_PARAMETERS.includes(name)) return true;
  }
  return false;
}

/**
 * The decoded segments of a raw request path, or null when it cannot be read one way only:
 * percent-decoded once (a `%` left over is double encoding), no backslash, no `..` or `.`, no
 * empty segment (`//`), nothing outside SEGMENT; `;params` are dropped from each segment.
 */
function normalizedSegments(rawPath: string): string[] | null {
  if (rawPath.length > MAX_PATH_LENGTH || !rawPath.startsWith('/')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    // Malformed or overlong escapes (%zz, %c0%ae).
    return null;
  }
  if (decoded.includes('%') || decoded.includes('\\') || decoded.includes('..')) return null;
  const segments = decoded
    .slice(1)
    .split('/')
    .map((segment) => segment.split(';')[0] ?? '');
  return segments.every((segment) => SEGMENT.test(segment) && segment !== '.') ? segments : null;
}

/** The upstream request for a request URL, or null when it is not on the allow list. */
function targetOf(url: string): Target | null {
  const mark = url.indexOf('?');
  const rawPath = mark === -1 ? url : url.slice(0, mark);
  const query = mark === -1 ? '' : url.slice(mark + 1);
  const segments = normalizedSegments(rawPath);
  if (!segments) return null;
  const [root = '', ...rest] = segments;
  if (root.toLowerCase() === 'uploads' && rest.length > 0) {
    // File names keep their case (Strapi's are case-sensitive); media ignore queries.
    return { kind: 'uploads', path: `/uploads/${rest.join('/')}`, query: '' };
  }
  if (root.toLowerCase() !== 'api' || query.length > MAX_QUERY_LENGTH) return null;
  const [name = '', id, ...more] = rest;
  const collection = name.toLowerCase();
  if (!PUBLIC_COLLECTIONS.has(collection) || more.length > 0) return null;
  if (id !== undefined && !ENTRY_ID.test(id)) return null;
  // API reads keep their query (filters, locale, populate…).
  return { kind: 'api', path: `/api/${collection}${id === undefined ? '' : `/${id}`}`, query };
}

function sendError(res: Response, status: number, code: string, message: string) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).json({ error: { code, message } });
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function copyHeaders(upstream: IncomingMessage, res: Response, target: Target) {
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value !== undefined && COPIED_RESPONSE_HEADERS.has(name)) res.setHeader(name, value);
  }
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (target.kind === 'api') {
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', "default-src 'none'");
    return;
  }
  const cacheControl = upstream.headers['cache-control'];
  if (cacheControl !== undefined) res.setHeader('Cache-Control', cacheControl);
  if (!INLINE_TYPES.has(mediaType(upstream.headers['content-type']))) {
    if (upstream.headers['content-type'] === undefined) res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Disposition', 'attachment');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  }
}

/** What the gate decided for a request, and how its exchange with the CMS went. */
type Exchange = { target: Target; timedOut: boolean };

/** Loaded only when a CMS is configured (the proxy library is not needed otherwise). */
export async function createCmsProxy(options: CmsProxyOptions): Promise<RequestHandler> {
  const { createProxyMiddleware } = await import('http-proxy-middleware');
  const timeoutMs = options.timeoutMs ?? 5000;
  const bearer = options.token ? `Bearer ${options.token}` : null;
  const { logger } = options;
  const exchanges = new WeakMap<IncomingMessage, Exchange>();
  const exchangeOf = (req: IncomingMessage): Exchange => {
    const exchange = exchanges.get(req);
    if (!exchange) throw new Error(`CMS proxy: ${req.url} reached the proxy without passing its gate`);
    return exchange;
  };

  const proxy = createProxyMiddleware<Request, Response>({
    target: options.url,
    changeOrigin: true,
    xfwd: false,
    // No byte from the CMS for timeoutMs once connected (headers or body): the request is cut.
    proxyTimeout: timeoutMs,
    // Our answer depends on the CMS's status (its errors become ours, its body dropped), so the
    // response is ours to write; a passed-through body is piped, with back-pressure.
    selfHandleResponse: true,
    // The CMS gets the canonical path the gate decided, never the raw one.
    pathRewrite: (_path, req) => {
      const { path, query } = exchangeOf(req).target;
      return query ? `${path}?${query}` : path;
    },
    on: {
      proxyReq(proxyReq: ClientRequest, req) {
        // Of the visitor's headers only the allowlisted ones go on; then our own token, if any.
        for (const name of proxyReq.getHeaderNames()) {
          if (name !== 'host' && !FORWARDED_REQUEST_HEADERS.has(name)) proxyReq.removeHeader(name);
        }
        proxyReq.setHeader('Accept-Encoding', 'identity');
        if (bearer) proxyReq.setHeader('Authorization', bearer);
        const exchange = exchangeOf(req);
        // proxyTimeout counts from the connection: this deadline covers connecting too.
        const deadline = setTimeout(() => {
          exchange.timedOut = true;
          proxyReq.destroy();
        }, timeoutMs);
        proxyReq.once('response', () => clearTimeout(deadline));
        proxyReq.once('close', () => clearTimeout(deadline));
        proxyReq.once('timeout', () => {
          exchange.timedOut = true;
        });
      },
      proxyRes(proxyRes: IncomingMessage, req, res) {
        const { target } = exchangeOf(req);
        const status = proxyRes.statusCode ?? 502;
        if (!((status >= 200 && status < 300) || status === 304 || status === 416)) {
          // Drained, not sent: cutting it would make the proxy cut our answer too.
          proxyRes.resume();
          if (status === 404 || status === 401 || status === 403) return sendError(res, 404, 'not_found', 'Not found');
          if (status === 400) return sendError(res, 400, 'bad_request', 'The content service refused the request');
          logger.warn({ path: target.path, status }, 'CMS proxy: unusable answer from the CMS');
          return sendError(res, 502, 'cms_unavailable', 'The content service failed');
        }
        res.status(status);
        copyHeaders(proxyRes, res, target);
        proxyRes.pipe(res);
      },
      error(error, req, res) {
        // Only HTTP requests come here (no WebSocket is proxied).
        const response = res as Response;
        const exchange = exchanges.get(req);
        const path = exchange?.target.path;
        if (response.headersSent) {
          logger.debug({ path, err: error }, 'CMS proxy: transfer ended early');
          response.destroy();
          return;
        }
        if (exchange?.timedOut) {
          logger.warn({ path, timeoutMs }, 'CMS proxy: no answer in time');
          return sendError(response, 504, 'cms_timeout', 'The content service did not answer in time');
        }
        if (response.destroyed) return;
        logger.warn({ path, err: error }, 'CMS proxy: the CMS could not be reached');
        sendError(response, 502, 'cms_unavailable', 'The content service could not be reached');
      },
    },
  });

  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed here`);
    }
    const target = targetOf(req.url);
    if (!target) return sendError(res, 404, 'not_found', 'Not found');
    if (target.kind === 'api' && asksForDrafts(target.query)) return sendError(res, 400, 'drafts_not_public', 'Drafts are not public');
    // Node answered a 100-continue itself; and the proxy skips its proxyReq event (where the
    // headers are chosen) for a request that carries Expect.
    delete req.headers.expect;
    exchanges.set(req, { target, timedOut: false });
    return proxy(req, res, next);
  };
}

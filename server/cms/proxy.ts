// The site's window on the CMS, mounted with app.use('/cms', createCmsProxy(...)): media
// (/cms/uploads/...) and public REST reads (/cms/api/...) come from our own origin, so pages
// keep a CSP of 'self' and the browser never talks to the CMS.
// What it serves is an allow list, decided on a normalised path (Strapi's router ignores case
// and has many more routes than a block list can name): files under /uploads/, and reads of
// the public collections (posts, legal pages) — nothing else, in no spelling. The path is
// percent-decoded once; what still holds a `%` (double encoding), a backslash, a `..`, an empty
// segment or a character outside [A-Za-z0-9._~@+-] is refused; `;params` are dropped; the
// collection is compared in lower case. The CMS then gets the canonical path, never the raw one.
// Published versions only: a query that asks for drafts (Strapi 5 `status`, Strapi 4
// `publicationState`, and their relatives) is refused (400) — Strapi gives drafts to whoever
// may `find` published entries, the Public role included (docs/decisions/019).
// It is a read-only, anonymous window: GET and HEAD only; a fresh upstream request carrying
// only Accept / If-None-Match / If-Modified-Since / Range (never the visitor's cookies or
// Authorization, never our CMS credentials); response headers copied from an allowlist (never
// Set-Cookie). Uploads that are not raster images are served as attachments under a CSP of
// default-src 'none', so an uploaded HTML or SVG file cannot run script on our origin.
//
// Upstream answer → our answer:
//   2xx, 304, 416                  passed through (bodies streamed, never buffered)
//   404, and 401/403               404 not_found: a resource that is not public does not exist here
//   400                            400 bad_request: the visitor's query was refused
//   other 3xx/4xx, 5xx, no answer  502 cms_unavailable: the CMS did not give a usable answer
//   no headers within timeoutMs    504 cms_timeout (also: no body bytes for timeoutMs → cut)
import type { Request, RequestHandler, Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Logger } from '../logger.ts';

export type CmsProxyOptions = {
  /** Base URL of the CMS, e.g. https://cms.example.com. */
  url: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  logger: Logger;
};

type Target = { kind: 'uploads' | 'api'; path: string; query: string };

const FORWARDED_REQUEST_HEADERS = ['accept', 'if-none-match', 'if-modified-since', 'range'] as const;
const COPIED_RESPONSE_HEADERS = ['content-type', 'etag', 'last-modified', 'accept-ranges', 'content-range'] as const;
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

function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function copyHeaders(upstream: globalThis.Response, res: Response, target: Target) {
  for (const name of COPIED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) res.setHeader(name, value);
  }
  // fetch decodes compressed bodies, so a compressed length would be wrong.
  const length = upstream.headers.get('content-length');
  if (length !== null && !upstream.headers.has('content-encoding')) res.setHeader('Content-Length', length);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (target.kind === 'api') {
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', "default-src 'none'");
    return;
  }
  const cacheControl = upstream.headers.get('cache-control');
  if (cacheControl !== null) res.setHeader('Cache-Control', cacheControl);
  if (!INLINE_TYPES.has(mediaType(upstream.headers.get('content-type')))) {
    if (!upstream.headers.has('content-type')) res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Disposition', 'attachment');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  }
}

export function createCmsProxy(options: CmsProxyOptions): RequestHandler {
  const base = new URL(options.url);
  const baseUrl = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  const timeoutMs = options.timeoutMs ?? 5000;
  const fetchImpl = options.fetch ?? fetch;
  const { logger } = options;

  async function forward(req: Request, res: Response, target: Target) {
    const headers = new Headers({ 'Accept-Encoding': 'identity' });
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = req.get(name);
      if (value) headers.set(name, value);
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    // A visitor who leaves stops the upstream transfer too.
    res.on('close', () => controller.abort());

    let upstream: globalThis.Response;
    try {
      upstream = await fetchImpl(`${baseUrl}${target.path}${target.query ? `?${target.query}` : ''}`, {
        method: req.method,
        headers,
        signal: controller.signal,
        redirect: 'manual',
      });
    } catch (error) {
      if (timedOut) {
        logger.warn({ path: target.path, timeoutMs }, 'CMS proxy: no answer in time');
        return sendError(res, 504, 'cms_timeout', 'The content service did not answer in time');
      }
      if (res.destroyed) return;
      logger.warn({ path: target.path, err: error }, 'CMS proxy: the CMS could not be reached');
      return sendError(res, 502, 'cms_unavailable', 'The content service could not be reached');
    } finally {
      clearTimeout(timer);
    }

    const { status } = upstream;
    const passThrough = (status >= 200 && status < 300) || status === 304 || status === 416;
    if (!passThrough) {
      await upstream.body?.cancel().catch(() => undefined);
      if (status === 404 || status === 401 || status === 403) return sendError(res, 404, 'not_found', 'Not found');
      if (status === 400) return sendError(res, 400, 'bad_request', 'The content service refused the request');
      logger.warn({ path: target.path, status }, 'CMS proxy: unusable answer from the CMS');
      return sendError(res, 502, 'cms_unavailable', 'The content service failed');
    }

    res.status(status);
    copyHeaders(upstream, res, target);
    if (!upstream.body || req.method === 'HEAD' || status === 304) {
      await upstream.body?.cancel().catch(() => undefined);
      res.end();
      return;
    }
    // A body that stalls for timeoutMs is cut rather than holding the connection open.
    const idle = setTimeout(() => controller.abort(), timeoutMs);
    // The DOM and node:stream/web ReadableStream types differ only on paper.
    const body = Readable.fromWeb(upstream.body as NodeReadableStream<Uint8Array>);
    async function* touchingIdleTimer(source: AsyncIterable<Uint8Array>) {
      for await (const chunk of source) {
        idle.refresh();
        yield chunk;
      }
    }
    try {
      await pipeline(body, touchingIdleTimer, res);
    } catch (error) {
      if (!res.destroyed) res.destroy();
      logger.debug({ path: target.path, err: error }, 'CMS proxy: transfer ended early');
    } finally {
      clearTimeout(idle);
    }
  }

  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed here`);
    }
    const target = targetOf(req.url);
    if (!target) return sendError(res, 404, 'not_found', 'Not found');
    if (target.kind === 'api' && asksForDrafts(target.query)) return sendError(res, 400, 'drafts_not_public', 'Drafts are not public');
    await forward(req, res, target);
  };
}

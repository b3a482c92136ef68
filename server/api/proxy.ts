// External API mode (API_URL set): /api/* is proxied to it. The browser's own Authorization
// header and cookies are never forwarded; the session's Bearer token is added server-side.
// An upstream 401 ends the session.
import type { Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../base/logger.ts';
import { clearSession } from '../auth/session-cookie.ts';

/** Loaded only in external API mode (the proxy library is not needed otherwise). */
export async function createApiProxy(apiUrl: string, logger: Logger): Promise<RequestHandler> {
  const { createProxyMiddleware } = await import('http-proxy-middleware');
  return createProxyMiddleware<Request, Response>({
    target: apiUrl,
    changeOrigin: true,
    proxyTimeout: 10_000,
    timeout: 10_000,
    xfwd: false,
    on: {
      proxyReq(proxyReq, _req, res) {
        proxyReq.removeHeader('cookie');
        proxyReq.removeHeader('authorization');
        const token = res.locals.session?.token;
        if (token) proxyReq.setHeader('Authorization', `Bearer ${token}`);
      },
      proxyRes(proxyRes: IncomingMessage, req, res) {
        proxyRes.headers['cache-control'] = 'private, no-store';
        delete proxyRes.headers['set-cookie'];
        if (proxyRes.statusCode === 401 && res.locals.session) clearSession(req, res);
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

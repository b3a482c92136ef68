// The last handler: a clean answer for anything that failed, never a stack trace in production.
// A database that is down is a 503 (try again: the pool reconnects), anything unexpected a 500
// (logged); JSON for API-like requests, the last-resort page for browsers.
import type { Locale } from '../../shared/locales.ts';
import type { ErrorRequestHandler } from 'express';
import { localeOf } from '../../shared/locales.ts';
import { isDatabaseUnavailable } from '../db/index.ts';
import type { Logger } from '../base/logger.ts';

type Failure = { status?: number; statusCode?: number; expose?: boolean; message?: string };

export type ErrorHandlerOptions = {
  logger: Logger;
  isProduction: boolean;
  /** The page a browser gets (server/render/render-page.tsx): in its language, with the error's message outside production. */
  lastResortPage: (locale: Locale, details: string | null) => string;
};

export function errorHandler(options: ErrorHandlerOptions): ErrorRequestHandler {
  const { logger, isProduction, lastResortPage } = options;
  return (error: Failure, req, res, _next) => {
    const unavailable = isDatabaseUnavailable(error);
    const status = unavailable ? 503 : (error.status ?? error.statusCode ?? 500);
    if (unavailable) logger.warn({ err: error, path: req.path, reqId: res.locals.requestId }, 'database unavailable: 503');
    else if (status >= 500) logger.error({ err: error, path: req.path, reqId: res.locals.requestId }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    if (status < 500 && req.path.startsWith('/assets/')) {
      res.status(status).set('Cache-Control', 'no-store').type('text/plain').send('Not found');
      return;
    }
    res.status(status).set('Cache-Control', 'private, no-store');
    if (unavailable) res.set('Retry-After', '5');
    if (req.accepts(['html', 'json']) === 'json') {
      res.json({
        error: unavailable
          ? { code: 'database_unavailable', message: 'The database is not available: try again in a moment' }
          : { code: status < 500 ? 'bad_request' : 'internal', message: status < 500 && error.expose ? error.message : 'Error' },
      });
    } else {
      res.type('html').send(lastResortPage(localeOf(req.path), isProduction ? null : String(error.message)));
    }
  };
}

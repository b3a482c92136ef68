// GET /documents/my-data.json (and /es/…, /en/…): the signed-in user downloads everything the
// site holds about them (export.ts), streamed as it is read. Like the PDF documents: a visitor
// who is not signed in goes to login and comes back; never cached.
import type { Request, RequestHandler, Response } from 'express';
import { MY_DATA_PATH } from '../../shared/account.ts';
import { formOfPath, localeForms, routePath } from '../../shared/routes.ts';
import { isSafeLocalPath } from '../../shared/safe-path.ts';
import { noAudit, type Audit } from '../audit/types.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { rememberPath } from '../auth/session.ts';
import type { Logger } from '../logger.ts';
import { writeAccountData, type ExportDeps } from './export.ts';

/** Downloads one user may make per hour (DATA_EXPORTS_PER_HOUR's default): each reads everything the site holds about them. */
export const EXPORTS_PER_HOUR = 10;

/** my-data-ana-2026-11-30.json: whose and when, in characters every system accepts. */
export function dataFileName(userName: string, date: Date): string {
  const who = userName.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
  return `my-data-${who}-${date.toISOString().slice(0, 10)}.json`;
}

/** Resolves when the response may take more (after 'drain'); rejects when the client went away. */
function writeTo(res: Response): (chunk: string) => Promise<void> {
  return (chunk) =>
    new Promise((resolve, reject) => {
      if (res.destroyed || res.writableEnded) return reject(new Error('The client went away'));
      if (res.write(chunk)) return resolve();
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        if (res.destroyed) reject(new Error('The client went away'));
        else resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
}

export function accountDataDownload(deps: ExportDeps & { logger: Logger; audit?: Audit; limiter?: RateLimiter; exportsPerHour?: number }): {
  paths: string[];
  handler: RequestHandler;
} {
  const handler: RequestHandler = async (req: Request, res: Response) => {
    const session = res.locals.session;
    if (!session) {
      if (isSafeLocalPath(req.originalUrl)) rememberPath(req, res, req.originalUrl);
      res.set('Cache-Control', 'private, no-store').redirect(302, routePath('login', formOfPath(req.path)));
      return;
    }
    const now = deps.now?.() ?? new Date();
    const headers = {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${dataFileName(session.user.userName, now)}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    };
    // A HEAD learns what the download is without it being made (or counted).
    if (req.method === 'HEAD') return void res.status(200).set(headers).end();
    const key = `data-export:${session.user.userName.toLowerCase()}`;
    const perHour = deps.exportsPerHour ?? EXPORTS_PER_HOUR;
    const wait = deps.limiter ? await deps.limiter.take(key, perHour, 3_600_000) : 0;
    if (wait > 0) {
      res
        .status(429)
        .set({ 'Retry-After': String(wait), 'Cache-Control': 'private, no-store' })
        .type('text/plain')
        .send(`You downloaded your data ${perHour} times in the last hour: try again in ${wait} seconds`);
      return;
    }
    await (deps.audit ?? noAudit).record({ action: 'data_exported', actor: session.user.userName, ip: req.ip ?? null });
    res.status(200).set(headers);
    try {
      await writeAccountData(deps, session.user, session.id, writeTo(res));
      res.end();
    } catch (error) {
      if (!res.destroyed) deps.logger.error({ err: error, userName: session.user.userName }, 'data export failed');
      // Half a document must not pass for a whole one: the download fails instead.
      if (!res.headersSent) res.status(500).type('text/plain').send('The export could not be made');
      else res.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  };
  return { paths: localeForms(`/${MY_DATA_PATH}`), handler };
}

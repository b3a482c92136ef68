// GET /documents/my-data.json (and /es/…, /en/…): the signed-in user downloads everything the
// site holds about them (export.ts), streamed as it is read. Like the PDF documents: a visitor
// who is not signed in goes to login and comes back; never cached. One export per user at a
// time, EXPORTS_MAX_CONCURRENT per process, gzipped here rather than by the global compression()
// (through which every chunk of an export stayed in memory to its end: docs/decisions/028),
// ended when the client stalls or is not done by the export's deadline (its slot is one of a
// few: a client reading slowly must not hold it for minutes, docs/decisions/056).
import type { Request, RequestHandler, Response } from 'express';
import { DOCUMENT_PATHS } from '../../shared/documents.ts';
import { formOfPath, localeForms, routePath } from '../../shared/routes.ts';
import { isSafeLocalPath } from '../../shared/safe-path.ts';
import { noAudit, type Audit } from '../audit/types.ts';
import type { RateLimiter } from '../db/rate-limit.ts';
import { rememberPath } from '../auth/session-cookie.ts';
import { refuseDownload } from '../downloads/refuse.ts';
import { downloadSlots } from '../downloads/slots.ts';
import { downloadWriter, endedByClient } from '../downloads/stream.ts';
import type { Logger } from '../base/logger.ts';
import { writeAccountData, type ExportDeps } from './export.ts';

/** Downloads one user may make per hour (DATA_EXPORTS_PER_HOUR's default): each reads everything the site holds about them. */
export const EXPORTS_PER_HOUR = 10;
/** What a refused export (one running already, or the process at its cap) asks to wait. */
export const EXPORT_RETRY_AFTER_SECONDS = 10;

/** my-data-ana-2026-11-30.json: whose and when, in characters every system accepts. */
export function dataFileName(userName: string, date: Date): string {
  const who = userName.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
  return `my-data-${who}-${date.toISOString().slice(0, 10)}.json`;
}

export type DataDownloadDeps = ExportDeps & {
  logger: Logger;
  audit?: Audit;
  limiter?: RateLimiter;
  /** Exports this process makes at once (EXPORTS_MAX_CONCURRENT); one per user. */
  maxConcurrent: number;
  /** DOWNLOAD_STALL_SECONDS, in ms. */
  stallMs: number;
  /** EXPORT_DEADLINE_SECONDS, in ms: an export not done by then is ended, and its slot freed. */
  deadlineMs: number;
  /** The deadline's clock, in milliseconds (tests); by default Date.now. */
  clock?: () => number;
  /** DATA_EXPORTS_PER_HOUR: downloads one user may make per hour. */
  exportsPerHour?: number;
};

export function accountDataDownload(deps: DataDownloadDeps): {
  paths: string[];
  handler: RequestHandler;
} {
  const slots = downloadSlots({ perUser: 1, total: deps.maxConcurrent });
  const handler: RequestHandler = async (req: Request, res: Response) => {
    const session = res.locals.session;
    if (!session) {
      if (isSafeLocalPath(req.originalUrl)) rememberPath(req, res, req.originalUrl);
      res.set('Cache-Control', 'private, no-store').redirect(302, routePath('login', formOfPath(req.path)));
      return;
    }
    const userName = session.user.userName;
    const now = deps.now?.() ?? new Date();
    const headers = {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${dataFileName(userName, now)}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
    };
    // A HEAD learns what the download is without it being made (or counted).
    if (req.method === 'HEAD') return void res.status(200).set(headers).end();
    // Before the hourly count: a download refused for now is not one of the user's ten.
    const refused = slots.take(userName, res);
    if (refused === 'user') {
      return refuseDownload(res, {
        status: 429,
        retryAfterSeconds: EXPORT_RETRY_AFTER_SECONDS,
        code: 'export_in_progress',
        message: `Your data is being downloaded already: wait until that download has finished, then try again (in ${EXPORT_RETRY_AFTER_SECONDS} seconds or more)`,
      });
    }
    if (refused === 'process') {
      return refuseDownload(res, {
        status: 503,
        retryAfterSeconds: EXPORT_RETRY_AFTER_SECONDS,
        code: 'exports_busy',
        message: `Too many data exports are being made right now: try again in ${EXPORT_RETRY_AFTER_SECONDS} seconds`,
      });
    }
    // The stored user name is canonical already (shared/identity.ts).
    const key = `data-export:${userName}`;
    const perHour = deps.exportsPerHour ?? EXPORTS_PER_HOUR;
    const wait = deps.limiter ? await deps.limiter.take(key, perHour, 3_600_000) : 0;
    if (wait > 0) {
      return refuseDownload(res, {
        status: 429,
        retryAfterSeconds: wait,
        code: 'too_many_exports',
        message: `You downloaded your data ${perHour} times in the last hour: try again in ${wait} seconds`,
      });
    }
    await (deps.audit ?? noAudit).record({ action: 'data_exported', actor: userName, ip: req.ip ?? null });
    res.status(200).set(headers);
    // Gzipped here when the client takes it (JSON shrinks about tenfold), never by the global compression().
    const out = downloadWriter(res, {
      stallMs: deps.stallMs,
      gzip: req.acceptsEncodings('gzip', 'identity') === 'gzip',
      deadline: { ms: deps.deadlineMs, now: deps.clock ?? Date.now },
    });
    try {
      await writeAccountData(deps, session.user, session.id, (chunk) => out.write(chunk));
      await out.end();
    } catch (error) {
      if (endedByClient(error)) {
        deps.logger.info({ err: error, userName }, 'data export ended by its client');
        return;
      }
      deps.logger.error({ err: error, userName }, 'data export failed');
      // Half a document must not pass for a whole one: the download fails instead.
      out.fail(error instanceof Error ? error : new Error(String(error)));
    }
  };
  return { paths: localeForms(DOCUMENT_PATHS.myData), handler };
}

// A project's document, downloaded from the private area's pages: the site's own route, so that
// it works with the built-in API and an external one alike. Decided from the session's user as
// they are now; anyone who is not a participant — or not signed in — gets the site's 404 page,
// as for a document that does not exist (the PDF routes answer the same). Never cached, always
// an attachment. The bytes are read a chunk at a time as the client takes them, a client that
// stops taking them is cut off after DOWNLOAD_STALL_SECONDS, and one user downloads at most
// DOWNLOADS_PER_USER documents at once (docs/decisions/028).
import type { RequestHandler, Response } from 'express';
import { DOCUMENT_PATHS } from '../../shared/documents.ts';
import { idOf } from '../../shared/paging.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import type { Logger } from '../base/logger.ts';
import { refuseDownload } from '../downloads/refuse.ts';
import { downloadSlots, type DownloadSlots } from '../downloads/slots.ts';
import { endedByClient, sendChunks } from '../downloads/stream.ts';
import { projectId } from './access.ts';
import type { Conversation, DocumentFile } from './conversation.ts';
import { attachmentHeader } from './documents.ts';

/** A project's file (shared/documents.ts: the pages link it with documentHref). */
export const DOWNLOAD_PATH = DOCUMENT_PATHS.projectFile;

/** What a 429 asks a user with all their downloads running to wait: a document takes seconds. */
export const DOCUMENT_RETRY_AFTER_SECONDS = 5;

export type DocumentDownloads = {
  /** Documents being downloaded, per user (DOWNLOADS_PER_USER), shared by the page route and the API. */
  slots: DownloadSlots;
  /** DOWNLOAD_STALL_SECONDS, in ms. */
  stallMs: number;
  logger: Logger;
};

export function createDocumentDownloads(options: { perUser: number; stallMs: number; logger: Logger }): DocumentDownloads {
  return { slots: downloadSlots({ perUser: options.perUser }), stallMs: options.stallMs, logger: options.logger };
}

/**
 * Sends a document that `userName` may read. Throws TooManyAttemptsError (429) before anything
 * is sent when they already download as many as they may.
 */
export async function sendDocument(res: Response, userName: string, doc: DocumentFile, deps: DocumentDownloads): Promise<void> {
  const refused = deps.slots.take(userName, res);
  if (refused) {
    throw new TooManyAttemptsError(
      DOCUMENT_RETRY_AFTER_SECONDS,
      'too_many_downloads',
      `You are downloading ${deps.slots.running(userName)} documents already; wait until one has finished`,
    );
  }
  res.set({
    'Content-Type': doc.contentType,
    'Content-Disposition': attachmentHeader(doc.name),
    'Content-Length': String(doc.bytes),
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  try {
    await sendChunks(res, doc.chunks(), { stallMs: deps.stallMs });
  } catch (error) {
    // Nothing sent yet: the caller answers (a database that is down is a 503).
    if (!res.headersSent) throw error;
    if (endedByClient(error)) deps.logger.info({ err: error, userName }, 'document download ended by its client');
    else deps.logger.error({ err: error, userName }, 'document download failed half-way');
  }
}

export function documentDownload(conversation: Conversation, downloads: DocumentDownloads): RequestHandler {
  return async (req, res, next) => {
    const session = res.locals.session;
    res.set('Cache-Control', 'private, no-store');
    try {
      if (!session) return next();
      const id = projectId(req.params.id);
      const docId = idOf(String(req.params.docId));
      if (docId === null) throw new ApiError(404, 'not_found', 'No such document');
      const doc = await conversation.readDocument(session.user, id, docId);
      await sendDocument(res, session.user.userName, doc, downloads);
    } catch (error) {
      // The page handler's answer for a URL that names nothing.
      if (error instanceof ApiError && error.status === 404) return next();
      if (error instanceof TooManyAttemptsError) {
        return refuseDownload(res, { status: 429, retryAfterSeconds: error.retryAfter, code: error.code, message: error.message });
      }
      next(error);
    }
  };
}

// A project's document, downloaded from the private area's pages: the site's own route, so that
// it works with the built-in API and an external one alike. Decided from the session's user as
// they are now; anyone who is not a participant — or not signed in — gets the site's 404 page,
// as for a document that does not exist (the PDF routes answer the same). Never cached, always
// an attachment.
import type { RequestHandler } from 'express';
import { ApiError } from '../http/errors.ts';
import { projectId } from './access.ts';
import type { Conversation } from './conversation.ts';
import { attachmentHeader } from './documents.ts';

export const DOWNLOAD_PATH = '/project-files/:id/:docId';

export function documentDownload(conversation: Conversation): RequestHandler {
  return async (req, res, next) => {
    const session = res.locals.session;
    res.set('Cache-Control', 'private, no-store');
    try {
      if (!session) return next();
      const id = projectId(req.params.id);
      const docId = /^[1-9][0-9]{0,9}$/.test(String(req.params.docId)) ? Number(req.params.docId) : 0;
      if (!docId || docId > 2_147_483_647) throw new ApiError(404, 'not_found', 'No such document');
      const doc = await conversation.readDocument(session.user, id, docId);
      res.set({
        'Content-Type': doc.contentType,
        'Content-Disposition': attachmentHeader(doc.name),
        'Content-Length': String(doc.data.length),
        'X-Content-Type-Options': 'nosniff',
      });
      res.end(doc.data);
    } catch (error) {
      // The page handler's answer for a URL that names nothing.
      if (error instanceof ApiError && error.status === 404) return next();
      next(error);
    }
  };
}

// A project document uploaded, the one way for the API (POST /api/projects/{id}/documents) and
// the project page's form: at most UPLOADS_MAX_CONCURRENT read at once per process, because each
// holds its file (up to 10 MB) in memory until it is stored; admitted before a byte is read
// (conversation.admitDocument: who, how often, how much); read in the chunks it is stored in,
// never joined into one buffer (http/multipart.ts, document-chunks.ts). An upload past the cap
// waits its turn up to UPLOADS_WAIT_SECONDS, in the order they came — a page form's user would
// rather wait a moment than send the file again — then gets 503 `uploads_busy` with Retry-After
// (docs/decisions/031).
import type { Request, Response } from 'express';
import type { ProjectDocument } from '../../shared/projects.ts';
import { downloadSlots } from '../downloads/slots.ts';
import { BusyError } from '../http/errors.ts';
import { declaredLength, readMultipartFile } from '../http/multipart.ts';
import type { Actor } from './access.ts';
import type { Conversation } from './conversation.ts';
import { DOCUMENT_CHUNK_BYTES } from './document-chunks.ts';

/** What an upload refused for the cap asks to wait: another's 10 MB take seconds to arrive and be stored. */
export const UPLOAD_RETRY_AFTER_SECONDS = 10;

export type DocumentUploads = {
  /** The multipart upload of `req`, stored as a document of project `id`; the turn it took is held until `res` closes. */
  receive(actor: Actor, id: number, req: Request, res: Response): Promise<ProjectDocument>;
};

export function createDocumentUploads(deps: { conversation: Conversation; maxConcurrent: number; waitSeconds: number }): DocumentUploads {
  // Per process only: one user may take every turn (their uploads per minute bound how often).
  const turns = downloadSlots({ total: deps.maxConcurrent });
  return {
    async receive(actor, id, req, res) {
      // Before the admission: an upload refused for now does not count against the user's rate.
      if (await turns.wait(actor.userName, res, deps.waitSeconds * 1000)) {
        throw new BusyError(
          UPLOAD_RETRY_AFTER_SECONDS,
          'uploads_busy',
          `Too many documents are being uploaded right now: send yours again in ${UPLOAD_RETRY_AFTER_SECONDS} seconds`,
        );
      }
      // Who may write here, how often and how much is known before a byte of the file is read.
      const room = await deps.conversation.admitDocument(actor, id, declaredLength(req));
      const file = await readMultipartFile(req, { field: 'file', chunkBytes: DOCUMENT_CHUNK_BYTES, ...room });
      return deps.conversation.addDocument(actor, id, file);
    },
  };
}

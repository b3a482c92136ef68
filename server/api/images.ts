// Uploaded images (avatars, branding logos), served from the database to anyone with the URL.
import express, { type Router } from 'express';
import { endedByClient, sendChunks } from '../downloads/stream.ts';
import { ApiError } from '../http/errors.ts';
import { AVATAR_FILE, UPLOAD_FOLDERS } from '../uploads/images.ts';
import { handle, type ApiAuth, type ApiDeps } from './http.ts';

/** What these routes use of the API's dependencies. */
type Uses = Pick<ApiDeps, 'downloads' | 'logger' | 'uploads'>;

export function imageRoutes(deps: Uses, _auth: ApiAuth): Router {
  const router = express.Router();

  // Uploaded images: random names, so they can be cached for good; served with nosniff.
  for (const folder of UPLOAD_FOLDERS) {
    router.get(
      `/${folder}/:file`,
      handle(async (req, res) => {
        const file = String(req.params.file);
        const stored = AVATAR_FILE.test(file) ? await deps.uploads.read(`/api/${folder}/${file}`) : null;
        if (!stored) throw new ApiError(404, 'not_found', `No image ${JSON.stringify(file)}`);
        res.set({
          'Content-Type': stored.contentType,
          'Content-Length': String(stored.bytes),
          'X-Content-Type-Options': 'nosniff',
          // no-transform: sent as stored, a slice at a time (downloads/stream.ts).
          'Cache-Control': 'public, max-age=31536000, immutable, no-transform',
          'Content-Security-Policy': "default-src 'none'",
        });
        // A slice at a time, cut off when the client stops reading (docs/decisions/028).
        try {
          await sendChunks(res, stored.chunks(), { stallMs: deps.downloads.stallMs });
        } catch (error) {
          if (!res.headersSent) throw error;
          if (!endedByClient(error)) deps.logger.error({ err: error, file }, 'image download failed half-way');
        }
      }),
    );
  }
  return router;
}

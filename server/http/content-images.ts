// /assets/content/<name>: the posts' images. Only the names the content knows are served (the
// build's renditions, or an original the server measured without the build): anything else,
// a path that climbs out included, is a 404 without touching the disk. Names carry a digest of
// the image, so the answer is immutable like every hashed asset.
import type { RequestHandler } from 'express';
import { SERVED_IMAGE_NAME } from '../content/image-manifest.ts';
import type { ContentImages } from '../content/images.ts';

/** An SVG opened on its own is a document: it gets no script, no plug-in, no form, no origin. */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export function contentImageFiles(images: ContentImages): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    const file = SERVED_IMAGE_NAME.test(name) ? images.served(name) : null;
    if (!file) {
      res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('Not found');
      return;
    }
    res.type(file.type);
    if (file.type === 'image/svg+xml') res.set('Content-Security-Policy', SVG_POLICY);
    res.sendFile(file.path, { immutable: true, maxAge: '365d', dotfiles: 'deny', lastModified: false }, (error?: Error) => {
      if (!error || res.headersSent) return;
      // A rendition named in the manifest but missing from dist/ (a partial deploy): not found.
      res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('Not found');
    });
  };
}

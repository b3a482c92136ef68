// /assets/content/<name>: the posts' images. Only the names the content knows are served (the
// build's renditions, or an original the server measured without the build): anything else,
// a path that climbs out included, is a 404 without touching the disk. Names carry a digest of
// the image, so the answer is immutable like every hashed asset.
import type { RequestHandler } from 'express';
import { statSync } from 'node:fs';
import { CONTENT_IMAGES_PATH, SERVED_IMAGE_NAME } from '../content/image-manifest.ts';
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

/**
 * The size in bytes of the content image served at `path` (/assets/content/<name>), or null when
 * it is none or its file is missing (what a feed's enclosure says of a cover). A name carries its
 * image's digest, so a size once read stays true; only names the content knows are kept.
 */
export function contentImageBytes(images: ContentImages): (path: string) => number | null {
  const sizes = new Map<string, number | null>();
  return (path) => {
    const name = path.startsWith(`${CONTENT_IMAGES_PATH}/`) ? path.slice(CONTENT_IMAGES_PATH.length + 1) : '';
    const file = SERVED_IMAGE_NAME.test(name) ? images.served(name) : null;
    if (!file) return null;
    if (!sizes.has(name)) {
      let size: number | null = null;
      try {
        size = statSync(file.path).size;
      } catch {
        // A rendition named in the manifest but missing from dist/: its size is unknown.
      }
      sizes.set(name, size);
    }
    return sizes.get(name) ?? null;
  };
}

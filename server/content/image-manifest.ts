// The images of the embedded posts (covers, figures in the Markdown) as the build made them:
// renditions in dist/client/assets/content, and a manifest of their sizes that the server reads
// at start (scripts/content-images.ts writes it, images.ts reads it). An image is known by a
// digest of its bytes and of how renditions are made, so an entry is right whichever build
// wrote it, and an image changed since the build simply has none.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { PARSE_ONCE } from '../base/parse-once.ts';

export const IMAGES_FILE = 'content-images.json';

/** Changed whenever renditions are made differently: every image then gets new names. */
const RENDITIONS_VERSION = 'renditions v1';

/** The widths made of every image (those below its own width, and its own width when smaller than the largest). */
export const RENDITION_WIDTHS = [480, 800, 1200, 1600] as const;

/** Larger images are refused (the build fails, naming the file): a decompression bomb stays a file. */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** Where the images are served (server/http/content-images.ts), immutable like every hashed asset. */
export const CONTENT_IMAGES_PATH = '/assets/content';

/** A post's image: a file in the post's folder (no path), of a kind the build reads. */
export const IMAGE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.(svg|png|jpe?g|webp)$/i;

/**
 * A served file's name: `<digest>-<width>.<webp|jpg|png>` (a rendition), or `<digest>.<ext>`
 * (an original, served as it is when the build has not seen the image).
 */
export const SERVED_IMAGE_NAME = /^[0-9a-f]{16}(?:-[1-9][0-9]{0,4})?\.(?:webp|jpg|png|svg)$/;

/** A URL the build or the server made for a content image, and nothing else. */
export function isContentImageUrl(url: string): boolean {
  return url.startsWith(`${CONTENT_IMAGES_PATH}/`) && SERVED_IMAGE_NAME.test(url.slice(CONTENT_IMAGES_PATH.length + 1));
}

export type RenditionType = 'image/webp' | 'image/jpeg' | 'image/png';
export type Rendition = { url: string; width: number; height: number; type: RenditionType };
export type ImageEntry = {
  /** The image's own size (an SVG's width and height, a photo's after its EXIF orientation). */
  width: number;
  height: number;
  /** Narrowest first: WebP at every width, and one JPEG or PNG at the largest (the image's src). */
  renditions: Rendition[];
};
export type ImageManifest = ReadonlyMap<string, ImageEntry>;

/** The name an image is known by: 16 hex digits of a SHA-256 of its bytes and of RENDITIONS_VERSION. */
export function imageDigest(bytes: Uint8Array): string {
  return createHash('sha256').update(RENDITIONS_VERSION).update(bytes).digest('hex').slice(0, 16);
}

const size = z.number().int().positive().max(100_000);
const manifestSchema = z.record(
  z.string().regex(/^[0-9a-f]{16}$/),
  z.object({
    width: size,
    height: size,
    renditions: z
      .array(
        z.object({
          url: z.string().refine(isContentImageUrl, 'must be a content image URL'),
          width: size,
          height: size,
          type: z.enum(['image/webp', 'image/jpeg', 'image/png']),
        }),
      )
      .min(1),
  }),
);

/** The build's manifest in `file`, or none (no build: the server serves originals). */
export function loadImageManifest(file: string): ImageManifest {
  if (!existsSync(file)) return new Map();
  const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')), PARSE_ONCE);
  if (!parsed.success) throw new Error(`${file}: not a content images manifest (${parsed.error.issues[0]?.message ?? 'invalid'}): run npm run build`);
  return new Map(Object.entries(parsed.data));
}

/** A sized image as pages show it: `src` a JPEG/PNG (what social networks read), `srcset` the WebP renditions. */
export type SizedImage = { src: string; width: number; height: number; srcset?: string };

export function sizedImage(entry: ImageEntry): SizedImage {
  const webp = entry.renditions.filter((r) => r.type === 'image/webp');
  const raster = entry.renditions.find((r) => r.type !== 'image/webp') ?? entry.renditions.at(-1)!;
  return {
    src: raster.url,
    width: raster.width,
    height: raster.height,
    ...(webp.length > 0 ? { srcset: webp.map((r) => `${r.url} ${r.width}w`).join(', ') } : {}),
  };
}

/** The widths to make of an image `width` pixels wide: never wider than it is. */
export function renditionWidths(width: number): number[] {
  const top = Math.min(width, RENDITION_WIDTHS.at(-1)!);
  return [...RENDITION_WIDTHS.filter((w) => w < top), top];
}

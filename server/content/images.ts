// The images of the embedded posts at start. Each image file beside a post's Markdown is known
// by its digest; the build's manifest gives its renditions. An image the build has not seen
// (no build, as in the tests, or a file changed since) is served as it is, with its measured
// size: the page still reserves its room, it only misses the smaller renditions
// (docs/decisions/020-content-images.md). sharp is loaded for that measure only.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { PATHS } from '../base/paths.ts';
import {
  CONTENT_IMAGES_PATH,
  IMAGE_FILE_NAME,
  imageDigest,
  IMAGES_FILE,
  loadImageManifest,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  sizedImage,
  type ImageManifest,
  type SizedImage,
} from './image-manifest.ts';

/** The image files of one post's folder. */
export type FolderImages = {
  dir: string;
  /** File name → digest (null: larger than MAX_IMAGE_BYTES, refused when used). */
  digests: ReadonlyMap<string, string | null>;
  /** A digest of the folder's images ('' when none): the post's HTML depends on them. */
  context: string;
};

export async function folderImages(dir: string): Promise<FolderImages> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && IMAGE_FILE_NAME.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  const digests = new Map<string, string | null>();
  for (const name of names) {
    const file = join(dir, name);
    digests.set(name, (await stat(file)).size > MAX_IMAGE_BYTES ? null : imageDigest(await readFile(file)));
  }
  const context = names.length === 0 ? '' : createHash('sha256').update(names.map((n) => `${n}:${digests.get(n)}`).join('\n')).digest('base64url');
  return { dir, digests, context };
}

export type ImageFormat = 'svg' | 'png' | 'jpeg' | 'webp';

const FORMAT_OF_EXTENSION: Record<string, ImageFormat> = { '.svg': 'svg', '.png': 'png', '.jpg': 'jpeg', '.jpeg': 'jpeg', '.webp': 'webp' };
export const SERVED_AS: Record<ImageFormat, { extension: string; type: string }> = {
  svg: { extension: 'svg', type: 'image/svg+xml' },
  png: { extension: 'png', type: 'image/png' },
  jpeg: { extension: 'jpg', type: 'image/jpeg' },
  webp: { extension: 'webp', type: 'image/webp' },
};

/**
 * An image file's size (after its EXIF orientation) and format, checked: at most MAX_IMAGE_BYTES
 * and MAX_IMAGE_PIXELS, and of the format its name says. The error names the file.
 */
export async function inspectImage(file: string, bytes: Buffer): Promise<{ width: number; height: number; format: ImageFormat }> {
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new Error(`${file}: ${(bytes.length / 1048576).toFixed(1)} MB, more than the ${MAX_IMAGE_BYTES / 1048576} MB an image may have`);
  }
  const { default: sharp } = await import('sharp');
  let metadata: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    // sharp refuses to open more pixels than that, from the header, before decoding any.
    metadata = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(reason)) {
      throw new Error(`${file}: more than the ${MAX_IMAGE_PIXELS / 1_000_000} megapixels an image may have`, { cause: error });
    }
    throw new Error(`${file}: not an image that can be read (${reason})`, { cause: error });
  }
  const expected = FORMAT_OF_EXTENSION[extname(file).toLowerCase()];
  if (metadata.format !== expected) throw new Error(`${file}: the file is ${metadata.format ?? 'unknown'}, not what its name says (${expected})`);
  const { width, height } = metadata.autoOrient;
  if (!width || !height) throw new Error(`${file}: the image has no size`);
  return { width, height, format: expected };
}

export type ServedFile = { path: string; type: string };

export type ContentImages = {
  /** The image in `file`, whose digest is `digest`, as pages show it. */
  image(file: string, digest: string): Promise<SizedImage>;
  /** The file served as /assets/content/<name>, or null. */
  served(name: string): ServedFile | null;
};

/** The default manifest: the build's, beside the server bundle (entries are right for any build). */
export const DEFAULT_IMAGES_MANIFEST = join(PATHS.root, 'dist', 'server', IMAGES_FILE);
export const DEFAULT_RENDITIONS_DIR = join(PATHS.clientBuild, 'assets', 'content');

export function createContentImages({
  manifest = loadImageManifest(DEFAULT_IMAGES_MANIFEST),
  renditionsDir = DEFAULT_RENDITIONS_DIR,
}: { manifest?: ImageManifest; renditionsDir?: string } = {}): ContentImages {
  const renditions = new Map<string, ServedFile>();
  for (const entry of manifest.values()) {
    for (const { url, type } of entry.renditions) renditions.set(basename(url), { path: join(renditionsDir, basename(url)), type });
  }
  const originals = new Map<string, ServedFile>();
  return {
    async image(file, digest) {
      const entry = manifest.get(digest);
      if (entry) return sizedImage(entry);
      const { width, height, format } = await inspectImage(file, await readFile(file));
      const { extension, type } = SERVED_AS[format];
      const name = `${digest}.${extension}`;
      originals.set(name, { path: file, type });
      return { src: `${CONTENT_IMAGES_PATH}/${name}`, width, height };
    },
    served: (name) => renditions.get(name) ?? originals.get(name) ?? null,
  };
}

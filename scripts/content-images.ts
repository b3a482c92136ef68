// The build step of the embedded posts' images (docs/decisions/020-content-images.md): every
// image a post uses (its cover, the figures of its Markdown) is checked (a missing one fails the
// build, naming the post) and made into renditions: WebP at the widths of RENDITION_WIDTHS below
// its own, and a JPEG (a PNG when it has transparency) at the largest, for the image's src and
// for social networks, which read no WebP and no SVG. SVG is rasterised (librsvg). Files are
// named by the image's digest, so a rendition made by an earlier build is kept as it is.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { loadEmbeddedContent } from '../server/content/embedded.ts';
import { prerenderedOf } from '../server/content/prerendered.ts';
import {
  CONTENT_IMAGES_PATH,
  MAX_IMAGE_PIXELS,
  renditionWidths,
  type ImageEntry,
  type Rendition,
  type RenditionType,
} from '../server/content/image-manifest.ts';
import { inspectImage, type ContentImages } from '../server/content/images.ts';

const WEBP = { quality: 80, effort: 4 } as const;
const JPEG = { quality: 82, progressive: true } as const;
const PNG = { compressionLevel: 9 } as const;

/** Every image the posts under `contentDir` use, by digest, found by the server's own loading of the content. */
async function usedImages(contentDir: string): Promise<Map<string, string>> {
  const used = new Map<string, string>();
  const recording: ContentImages = {
    image: async (file, digest) => {
      used.set(digest, file);
      return { src: `${CONTENT_IMAGES_PATH}/${digest}.png`, width: 1, height: 1 };
    },
    served: () => null,
  };
  // Validates every post as the server will at start: a bad front matter or a missing image fails here.
  await loadEmbeddedContent(contentDir, prerenderedOf(new Map()), recording);
  return used;
}

/** Whether no pixel of RGBA `data` is transparent (a scan: a tenth of what sharp's stats() takes). */
function isOpaque(data: Buffer, channels: number): boolean {
  for (let i = channels - 1; i < data.length; i += channels) if (data[i] !== 255) return false;
  return true;
}

type Planned = Rendition & { name: string };

/** The renditions of one image into `outDir` (those already there are kept: same name, same bytes). */
async function renditionsOf(file: string, digest: string, outDir: string): Promise<{ entry: ImageEntry; made: number }> {
  const bytes = await readFile(file);
  const { width, height } = await inspectImage(file, bytes);
  const planned = (w: number, type: RenditionType, extension: string): Planned => {
    const name = `${digest}-${w}.${extension}`;
    return { name, url: `${CONTENT_IMAGES_PATH}/${name}`, width: w, height: Math.max(1, Math.round((height * w) / width)), type };
  };
  const webp = renditionWidths(width).map((w) => planned(w, 'image/webp', 'webp'));
  const top = webp.at(-1)!.width;
  const exists = (r: Planned) => existsSync(join(outDir, r.name));
  // JPEG, or PNG when the image has transparency: an earlier build's file tells which without decoding.
  const earlierRaster = [planned(top, 'image/jpeg', 'jpg'), planned(top, 'image/png', 'png')].find(exists);
  if (earlierRaster && webp.every(exists))
    return { entry: { width, height, renditions: [...webp, earlierRaster].map(withoutName) }, made: 0 };

  // Decoded once (EXIF orientation applied, metadata dropped), then resized from the pixels.
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS })
    .autoOrient()
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const raster = earlierRaster ?? (isOpaque(data, info.channels) ? planned(top, 'image/jpeg', 'jpg') : planned(top, 'image/png', 'png'));
  const renditions = [...webp, raster];
  let made = 0;
  for (const rendition of renditions.filter((r) => !exists(r))) {
    const resized = pixels().resize(rendition.width, rendition.height, { fit: 'fill' });
    const encoded =
      rendition.type === 'image/webp'
        ? resized.webp(WEBP)
        : rendition.type === 'image/png'
          ? resized.png(PNG)
          : resized.removeAlpha().jpeg(JPEG);
    // Written aside and renamed: an interrupted build leaves no half file under a kept name.
    const partial = join(outDir, `.${rendition.name}.partial`);
    await encoded.toFile(partial);
    await rename(partial, join(outDir, rendition.name));
    made++;
  }
  return { entry: { width, height, renditions: renditions.map(withoutName) }, made };
}

function withoutName({ name: _name, ...rendition }: Planned): Rendition {
  return rendition;
}

export type ContentImagesBuild = { manifest: Map<string, ImageEntry>; images: number; made: number; ms: number };

/** The renditions of every image the posts in `contentDir` use, into `outDir`, and their manifest. */
export async function buildContentImages({ contentDir, outDir }: { contentDir: string; outDir: string }): Promise<ContentImagesBuild> {
  const started = performance.now();
  const used = await usedImages(contentDir);
  await mkdir(outDir, { recursive: true });
  const manifest = new Map<string, ImageEntry>();
  let made = 0;
  for (const [digest, file] of used) {
    const result = await renditionsOf(file, digest, outDir);
    manifest.set(digest, result.entry);
    made += result.made;
  }
  return { manifest, images: manifest.size, made, ms: Math.round(performance.now() - started) };
}

// The build step of the embedded posts' images (scripts/content-images.ts): renditions at the
// right widths and formats, their manifest, and the images that fail the build.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { buildContentImages } from '../scripts/content-images.ts';
import { imageDigest, IMAGES_FILE, isContentImageUrl, MAX_IMAGE_PIXELS, type ImageEntry } from '../server/content/image-manifest.ts';
import { PATHS } from '../server/base/paths.ts';
import { contentDir, jpeg, post, svg } from './helpers/content.ts';

async function build(files: Record<string, string | Buffer>) {
  const dir = await contentDir(files);
  const outDir = await mkdtemp(join(tmpdir(), 'renditions-'));
  return { dir, outDir, ...(await buildContentImages({ contentDir: dir, outDir })) };
}

/** Each rendition's file as sharp reads it: its format and size. */
async function filesOf(entry: ImageEntry, outDir: string) {
  return Promise.all(
    entry.renditions.map(async ({ url }) => {
      const { format, width, height } = await sharp(join(outDir, url.split('/').pop()!)).metadata();
      return { format, width, height };
    }),
  );
}

test('a large image is made into WebP at 480, 800, 1200 and 1600 px, and a JPEG at 1600 px; the manifest has its own size', async () => {
  const photo = await jpeg(2400, 1200);
  const { manifest, outDir } = await build({
    'blog/a/es.md': post('cover: photo.jpg\ncoverAlt: A teal field\n'),
    'blog/a/photo.jpg': photo,
  });
  const entry = manifest.get(imageDigest(photo))!;
  expect(entry).toMatchObject({ width: 2400, height: 1200 });
  expect(await filesOf(entry, outDir)).toEqual([
    { format: 'webp', width: 480, height: 240 },
    { format: 'webp', width: 800, height: 400 },
    { format: 'webp', width: 1200, height: 600 },
    { format: 'webp', width: 1600, height: 800 },
    { format: 'jpeg', width: 1600, height: 800 },
  ]);
  expect(entry.renditions.map((r) => [r.width, r.height, r.type])).toEqual([
    [480, 240, 'image/webp'],
    [800, 400, 'image/webp'],
    [1200, 600, 'image/webp'],
    [1600, 800, 'image/webp'],
    [1600, 800, 'image/jpeg'],
  ]);
  expect(entry.renditions.every((r) => isContentImageUrl(r.url))).toBe(true);
});

test('an image narrower than the largest width is made up to its own width, never wider', async () => {
  const photo = await jpeg(1000, 750);
  const { manifest } = await build({ 'blog/a/es.md': post('cover: photo.jpg\ncoverAlt: A teal field\n'), 'blog/a/photo.jpg': photo });
  expect(manifest.get(imageDigest(photo))!.renditions.map((r) => `${r.width}×${r.height} ${r.type}`)).toEqual([
    '480×360 image/webp',
    '800×600 image/webp',
    '1000×750 image/webp',
    '1000×750 image/jpeg',
  ]);
});

test('an image with transparency (an SVG figure) is rasterised, and its largest rendition is a PNG, not a JPEG', async () => {
  const figure = svg(900, 300);
  const { manifest, outDir } = await build({ 'blog/a/es.md': post('', '![A dark circle](figure.svg)'), 'blog/a/figure.svg': figure });
  const entry = manifest.get(imageDigest(figure))!;
  expect(await filesOf(entry, outDir)).toEqual([
    { format: 'webp', width: 480, height: 160 },
    { format: 'webp', width: 800, height: 267 },
    { format: 'webp', width: 900, height: 300 },
    { format: 'png', width: 900, height: 300 },
  ]);
  const { channels } = await sharp(join(outDir, entry.renditions.at(-1)!.url.split('/').pop()!)).metadata();
  expect(channels).toBe(4);
});

test('an image used by both languages of a post is made once, and a rendition an earlier build made is kept, not made again', async () => {
  const photo = await jpeg(800, 400);
  const files = {
    'blog/a/es.md': post('cover: photo.jpg\ncoverAlt: Un campo turquesa\n'),
    'blog/a/en.md': post('cover: photo.jpg\ncoverAlt: A teal field\n'),
    'blog/a/photo.jpg': photo,
  };
  const first = await build(files);
  expect([first.images, first.made]).toEqual([1, 3]);
  const again = await buildContentImages({ contentDir: first.dir, outDir: first.outDir });
  expect([again.images, again.made]).toEqual([1, 0]);
  expect(again.manifest).toEqual(first.manifest);
  expect(readdirSync(first.outDir).sort()).toEqual(
    first.manifest
      .get(imageDigest(photo))!
      .renditions.map((r) => r.url.split('/').pop())
      .sort(),
  );
});

test('a cover that is missing fails the build, naming the post and the image', async () => {
  await expect(build({ 'blog/a/en.md': post('cover: missing.png\ncoverAlt: Nothing\n') })).rejects.toThrow(
    /blog\/a\/en\.md: image missing\.png not found/,
  );
});

test('an image of the Markdown that is missing fails the build, naming the post and the image', async () => {
  await expect(build({ 'blog/a/es.md': post('', 'Look:\n\n![A diagram](diagram.svg)') })).rejects.toThrow(
    /blog\/a\/es\.md: image diagram\.svg not found/,
  );
});

test('an image outside the post’s folder fails the build, naming the post', async () => {
  await expect(build({ 'blog/a/es.md': post('', '![x](../b/figure.svg)'), 'blog/b/figure.svg': svg(10, 10) })).rejects.toThrow(
    /blog\/a\/es\.md: image \.\.\/b\/figure\.svg must be an image file in the post's folder/,
  );
});

test('an image of more than 40 megapixels fails the build, naming the file: sharp opens no more pixels than that', async () => {
  expect(MAX_IMAGE_PIXELS).toBe(40_000_000);
  // The message is the answer to sharp's limitInputPixels, given when the header is read: no pixel was decoded.
  await expect(
    build({ 'blog/a/es.md': post('cover: huge.svg\ncoverAlt: Huge\n'), 'blog/a/huge.svg': svg(20_000, 20_000) }),
  ).rejects.toThrow(/blog\/a\/huge\.svg: more than the 40 megapixels an image may have/);
});

test('a file whose content is not what its name says fails the build, naming it', async () => {
  await expect(
    build({ 'blog/a/es.md': post('cover: photo.png\ncoverAlt: A photo\n'), 'blog/a/photo.png': await jpeg(20, 20) }),
  ).rejects.toThrow(/blog\/a\/photo\.png: the file is jpeg, not what its name says \(png\)/);
});

test('a cover without coverAlt is refused, naming the post', async () => {
  await expect(build({ 'blog/a/es.md': post('cover: photo.jpg\n'), 'blog/a/photo.jpg': await jpeg(20, 20) })).rejects.toThrow(
    /blog\/a\/es\.md: coverAlt is required with a cover/,
  );
});

test('the build made the shipped posts’ covers and figure: their manifest beside the server bundle, their renditions in dist', () => {
  const manifest = JSON.parse(readFileSync(join(PATHS.root, 'dist', 'server', IMAGES_FILE), 'utf8')) as Record<string, ImageEntry>;
  const shipped = [
    'web-accessibility-2026/cover.svg',
    'how-to-brief-an-expert/cover.svg',
    'data-strategy-first-90-days/cover.svg',
    'how-to-brief-an-expert/project-steps.svg',
  ];
  for (const file of shipped) {
    const entry = manifest[imageDigest(readFileSync(join(PATHS.content, 'blog', file)))];
    expect(entry, file).toBeDefined();
    expect(entry!.width, file).toBe(1200);
    for (const { url } of entry!.renditions) expect(existsSync(join(PATHS.clientBuild, url)), url).toBe(true);
  }
});

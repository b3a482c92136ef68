// /assets/content: the posts' images, served immutable with their Content-Type, and nothing else.
import express from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { expect, test } from 'vitest';
import { imageDigest, IMAGES_FILE, type ImageEntry } from '../server/content/image-manifest.ts';
import { createContentImages } from '../server/content/images.ts';
import { contentImageFiles } from '../server/http/content-images.ts';
import { PATHS } from '../server/base/paths.ts';
import { testApp } from './helpers/app.ts';
import { contentDir, jpeg, svg } from './helpers/content.ts';

const manifest = JSON.parse(readFileSync(join(PATHS.root, 'dist', 'server', IMAGES_FILE), 'utf8')) as Record<string, ImageEntry>;
const renditions = Object.values(manifest).flatMap((entry) => entry.renditions);
/** One rendition of each type the shipped posts have (WebP, JPEG for the covers, PNG for the figure). */
const ONE_OF_EACH_TYPE = [...new Map(renditions.map((r) => [r.type, r])).values()];

test('the shipped images have WebP, JPEG and PNG renditions', () => {
  expect(ONE_OF_EACH_TYPE.map((r) => r.type).sort()).toEqual(['image/jpeg', 'image/png', 'image/webp']);
});

test.each(ONE_OF_EACH_TYPE)(
  'a rendition ($type) is served from /assets/content with immutable caching and its Content-Type',
  async ({ url, type }) => {
    const res = await request(await testApp()).get(url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(1000);
  },
);

const someName = renditions[0]!.url.split('/').pop()!;

test.each([
  ['an unknown digest', '/assets/content/0123456789abcdef-480.webp'],
  ['a known digest at a width the build did not make', `/assets/content/${someName.replace(/-\d+\./, '-481.')}`],
  ['the manifest beside the server bundle', '/assets/content/../../server/content-images.json'],
  ['an encoded climb to the client manifest', '/assets/content/..%2fmanifest.json'],
  ['an encoded climb to package.json', '/assets/content/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json'],
  ['a climb after a real name', `/assets/content/${someName}/../../manifest.json`],
  ['a backslash climb', '/assets/content/..%5c..%5cpackage.json'],
  ['a real name with a suffix', `/assets/content/${someName}.br`],
  ['a partial file of an interrupted build', `/assets/content/.${someName}.partial`],
  ['the folder itself', '/assets/content/'],
])('a name the content does not know (%s) is a 404 that is not cached', async (_what, path) => {
  const res = await request(await testApp()).get(path);
  expect(res.status).toBe(404);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.text).not.toContain('"buildId"');
});

test('without the build, an original is served at its digest’s name; an SVG with a policy under which it runs nothing', async () => {
  const photo = await jpeg(40, 20);
  const figure = svg(40, 20);
  const dir = await contentDir({ 'blog/a/photo.jpg': photo, 'blog/a/figure.svg': figure });
  const images = createContentImages({ manifest: new Map() });
  await images.image(join(dir, 'blog', 'a', 'photo.jpg'), imageDigest(photo));
  await images.image(join(dir, 'blog', 'a', 'figure.svg'), imageDigest(figure));
  const app = express().use('/assets/content', contentImageFiles(images));

  const jpg = await request(app).get(`/assets/content/${imageDigest(photo)}.jpg`);
  expect(jpg.status).toBe(200);
  expect(jpg.headers['content-type']).toBe('image/jpeg');
  expect(jpg.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(Buffer.compare(jpg.body as Buffer, photo)).toBe(0);

  const svgAnswer = await request(app).get(`/assets/content/${imageDigest(figure)}.svg`);
  expect(svgAnswer.status).toBe(200);
  expect(svgAnswer.headers['content-type']).toBe('image/svg+xml');
  expect(svgAnswer.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");

  // Only the images the content uses: another file of the folder is not served, whatever its name.
  expect((await request(app).get(`/assets/content/${imageDigest(figure)}.jpg`)).status).toBe(404);
});

// The embedded posts' images in the pages: covers as responsive images, images of the Markdown
// with the build's srcset, sizes, width, height and lazy loading; without the build, the
// original with its measured size; and the sanitiser, which gives those attributes to our own
// generated URLs only.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { buildContentImages } from '../scripts/content-images.ts';
import { loadEmbeddedContent, postBodyImages } from '../server/content/embedded.ts';
import { imageDigest } from '../server/content/image-manifest.ts';
import { createContentImages, folderImages } from '../server/content/images.ts';
import { markdownToSafeHtml, type LocalImage } from '../server/content/markdown.ts';
import { htmlKey, loadPrerendered, prerenderedOf } from '../server/content/prerendered.ts';
import { PATHS } from '../server/base/paths.ts';
import { POST_IMAGE_SIZES } from '../shared/blog.ts';
import { contentDir, jpeg, post, svg } from './helpers/content.ts';

const SIZES = '(min-width: 800px) 736px, calc(100vw - 2.5rem)';

/** A post with a 1600×900 JPEG cover and a 1000×400 SVG figure, built, and loaded as the server does. */
async function builtPost(body = 'Steps:\n\n![The four steps](figure.svg)') {
  const cover = await jpeg(1600, 900);
  const figure = svg(1000, 400);
  const dir = await contentDir({
    'blog/a/es.md': post('cover: cover.jpg\ncoverAlt: Un campo turquesa\n', body),
    'blog/a/cover.jpg': cover,
    'blog/a/figure.svg': figure,
  });
  const renditionsDir = await mkdtemp(join(tmpdir(), 'renditions-'));
  const { manifest } = await buildContentImages({ contentDir: dir, outDir: renditionsDir });
  const content = await loadEmbeddedContent(dir, prerenderedOf(new Map()), createContentImages({ manifest, renditionsDir }));
  return { post: (await content.getPost('a', 'es'))!, cover: imageDigest(cover), figure: imageDigest(figure), dir };
}

test('an image of a post’s Markdown gets the build’s WebP srcset, the column’s sizes, its width and height, lazy loading and async decoding', async () => {
  const { post: built, figure: d } = await builtPost();
  expect(SIZES).toBe(POST_IMAGE_SIZES);
  expect(built.html).toBe(
    `<p>Steps:</p>\n<p><img src="/assets/content/${d}-1000.png" ` +
      `srcset="/assets/content/${d}-480.webp 480w, /assets/content/${d}-800.webp 800w, /assets/content/${d}-1000.webp 1000w" ` +
      `sizes="${SIZES}" width="1000" height="400" alt="The four steps" loading="lazy" decoding="async" /></p>`,
  );
});

test('a post’s cover is a responsive image: a JPEG src (what social networks read), a WebP srcset, its size and coverAlt', async () => {
  const { post: built, cover: d } = await builtPost();
  expect(built.cover).toEqual({
    src: `/assets/content/${d}-1600.jpg`,
    width: 1600,
    height: 900,
    alt: 'Un campo turquesa',
    srcset: `/assets/content/${d}-480.webp 480w, /assets/content/${d}-800.webp 800w, /assets/content/${d}-1200.webp 1200w, /assets/content/${d}-1600.webp 1600w`,
  });
});

test('an image written ./figure.svg is the same file as figure.svg, and its title is kept', async () => {
  const { post: built, figure: d } = await builtPost('![Steps](./figure.svg "The steps")');
  expect(built.html).toContain(`<img src="/assets/content/${d}-1000.png" srcset=`);
  expect(built.html).toContain('alt="Steps" title="The steps" loading="lazy"');
});

test('without the build, a post’s images are served as they are, with their measured width and height (their room is kept)', async () => {
  const cover = await jpeg(1600, 900);
  const figure = svg(1000, 400);
  const dir = await contentDir({
    'blog/a/es.md': post('cover: cover.jpg\ncoverAlt: Un campo\n', '![Steps](figure.svg)'),
    'blog/a/cover.jpg': cover,
    'blog/a/figure.svg': figure,
  });
  const images = createContentImages({ manifest: new Map() });
  const built = (await (await loadEmbeddedContent(dir, prerenderedOf(new Map()), images)).getPost('a', 'es'))!;
  expect(built.cover).toEqual({ src: `/assets/content/${imageDigest(cover)}.jpg`, width: 1600, height: 900, alt: 'Un campo' });
  expect(built.html).toBe(
    `<p><img src="/assets/content/${imageDigest(figure)}.svg" width="1000" height="400" alt="Steps" loading="lazy" decoding="async" /></p>`,
  );
  expect(images.served(`${imageDigest(cover)}.jpg`)).toEqual({ path: join(dir, 'blog', 'a', 'cover.jpg'), type: 'image/jpeg' });
  expect(images.served(`${imageDigest(figure)}.svg`)?.type).toBe('image/svg+xml');
});

test('a post’s pre-rendered HTML is used while its folder’s images are the ones the build saw, and not once one has changed', async () => {
  const { dir } = await builtPost();
  const file = join(dir, 'blog', 'a', 'es.md');
  const body = 'Steps:\n\n![The four steps](figure.svg)\n';
  const images = createContentImages({ manifest: new Map() });
  const key = htmlKey(body, postBodyImages(images, await folderImages(join(dir, 'blog', 'a')), file));
  const prerendered = prerenderedOf(new Map([[key, '<p>rendered by the build</p>']]));
  expect((await (await loadEmbeddedContent(dir, prerendered, images)).getPost('a', 'es'))!.html).toBe('<p>rendered by the build</p>');

  const changed = svg(1000, 500);
  await writeFile(join(dir, 'blog', 'a', 'figure.svg'), changed);
  const html = (await (await loadEmbeddedContent(dir, prerendered, images)).getPost('a', 'es'))!.html;
  expect(html).toContain(`<img src="/assets/content/${imageDigest(changed)}.svg" width="1000" height="500"`);
});

test('the shipped post with a figure carries it with its srcset in the HTML the build pre-rendered', async () => {
  const content = await loadEmbeddedContent(PATHS.content, loadPrerendered(join(PATHS.root, 'dist', 'server')));
  for (const [slug, locale] of [
    ['how-to-brief-an-expert', 'en'],
    ['como-preparar-el-briefing-de-un-experto', 'es'],
  ] as const) {
    const html = (await content.getPost(slug, locale))!.html;
    expect(html).toMatch(
      /<img src="\/assets\/content\/[0-9a-f]{16}-1200\.png" srcset="[^"]+-480\.webp 480w, [^"]+-800\.webp 800w, [^"]+-1200\.webp 1200w" sizes="[^"]+" width="1200" height="360" alt="[^"]+" loading="lazy" decoding="async" \/>/,
    );
  }
  for (const [slug, locale] of [
    ['web-accessibility-2026', 'es'],
    ['web-accessibility-2026', 'en'],
    ['data-strategy-first-90-days', 'en'],
    ['how-to-brief-an-expert', 'en'],
  ] as const) {
    const cover = (await content.getPost(slug, locale))!.cover;
    expect(cover, slug).toMatchObject({
      width: 1200,
      height: 630,
      src: expect.stringMatching(/^\/assets\/content\/[0-9a-f]{16}-1200\.jpg$/),
    });
    expect(cover!.alt.length, slug).toBeGreaterThan(30);
  }
});

// --- The sanitiser: srcset, sizes, loading and decoding are ours alone. ---

const D = '0123456789abcdef';
const OURS: LocalImage = {
  src: `/assets/content/${D}-800.png`,
  srcset: `/assets/content/${D}-480.webp 480w, /assets/content/${D}-800.webp 800w`,
  sizes: SIZES,
  width: 800,
  height: 400,
};
const OURS_HTML = `<img src="${OURS.src}" srcset="${OURS.srcset}" sizes="${SIZES}" width="800" height="400" alt="a" loading="lazy" decoding="async" />`;

test('a post’s own image given as raw HTML with onerror, style, a hostile srcset, sizes or loading keeps only the attributes the site made', () => {
  const hostile =
    '<img src="figure.svg" alt="a" onerror="alert(1)" style="position:fixed" srcset="javascript:alert(1) 1x, https://evil.example/x.png 2x" sizes="1px" loading="eager" decoding="sync" width="1" height="1">';
  expect(markdownToSafeHtml(hostile, { localImage: () => OURS })).toBe(OURS_HTML);
});

test.each([
  ['an image on another host', { ...OURS, src: 'https://evil.example/x.png' }],
  ['a javascript: src', { ...OURS, src: 'javascript:alert(1)' }],
  ['a srcset entry on another host', { ...OURS, srcset: `/assets/content/${D}-480.webp 480w, https://evil.example/x.webp 800w` }],
  ['a javascript: srcset entry', { ...OURS, srcset: `javascript:alert(1) 480w` }],
  ['a protocol-relative srcset entry', { ...OURS, srcset: `//evil.example/x.webp 480w` }],
  ['a srcset entry outside /assets/content', { ...OURS, srcset: `/assets/../api/x 480w` }],
  ['a srcset with a density instead of a width', { ...OURS, srcset: `/assets/content/${D}-480.webp 2x` }],
])('a post’s own image whose URLs are not the site’s generated ones (%s) is dropped', (_what, image) => {
  expect(markdownToSafeHtml('![a](figure.svg)', { localImage: () => image })).toBe('<p></p>');
});

test('srcset, sizes, loading and decoding are dropped from any other image (same-origin, CMS media)', () => {
  const html =
    '<img src="/img/a.png" alt="a" srcset="/b.png 2x, https://evil.example/c.png 3x" sizes="1px" loading="lazy" decoding="sync" onerror="alert(1)">';
  expect(markdownToSafeHtml(html)).toBe('<img src="/img/a.png" alt="a" />');
  expect(markdownToSafeHtml(html, { localImage: () => OURS })).toBe('<img src="/img/a.png" alt="a" />');
});

test('without a post’s folder (a legal page, CMS content), a relative image is dropped as before', () => {
  expect(markdownToSafeHtml('![a](figure.svg)')).toBe('<p></p>');
});

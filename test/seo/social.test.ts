import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { expect, test } from 'vitest';
import { DEFAULT_SOCIAL_IMAGE, SITE_LOGO } from '../../server/seo/images.ts';
import { PATHS } from '../../server/base/paths.ts';
import { intlLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { BASE_ROUTES } from '../../shared/routes.ts';
import type { PagePayload } from '../../shared/page-data.ts';
import { createTestApp, ORIGIN, testApp } from '../helpers/app.ts';
import { samplePages } from '../helpers/sample-urls.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';
import { canonicalOf, contentOf, feedLinksOf, meta, metaAll, metaTags, testCover, testPost } from './helpers.ts';

const POST = 'how-to-brief-an-expert';
/** The same post's Spanish slug (a translation has its own). */
const ES_POST = 'como-preparar-el-briefing-de-un-experto';

// Indexable public pages in both locales, with the title and type a shared link shows.
const PAGES = [
  { path: '/', locale: 'es', type: 'website', title: 'the product' },
  { path: '/en', locale: 'en', type: 'website', title: 'the product' },
  { path: '/blog', locale: 'es', type: 'website', title: 'Blog' },
  { path: '/en/blog', locale: 'en', type: 'website', title: 'Blog' },
  { path: `/blog/${ES_POST}`, locale: 'es', type: 'article', title: 'Cómo preparar el briefing de un experto independiente' },
  { path: `/en/blog/${POST}`, locale: 'en', type: 'article', title: 'How to brief an independent expert' },
  { path: '/Contact', locale: 'es', type: 'website', title: 'Contacto' },
  { path: '/en/privacy', locale: 'en', type: 'website', title: 'Privacy policy' },
] as const;
/** A locale as Open Graph writes it: the table's BCP 47 tag with an underscore (es-ES → es_ES). */
const ogLocale = (locale: Locale) => intlLocale(locale).replace('-', '_');

test.each(PAGES)('$path has Open Graph tags: title, description, og:url = canonical, site name, locales, type', async (page) => {
  const res = await request(await testApp()).get(page.path);
  expect(res.status).toBe(200);
  expect(meta(res.text, 'og:title')).toBe(page.title);
  expect(meta(res.text, 'og:description')).toBe(/<meta name="description" content="([^"]+)">/.exec(res.text)?.[1]?.replace(/&amp;/g, '&'));
  expect(meta(res.text, 'og:url')).toBe(canonicalOf(res.text));
  expect(meta(res.text, 'og:site_name')).toBe('the product');
  expect(meta(res.text, 'og:locale')).toBe(ogLocale(page.locale));
  // Every other language the page is in, as its hreflang alternates name them: each other locale
  // of the table for a page, the languages a post is written in for a post.
  const others = [...res.text.matchAll(/<link rel="alternate" hreflang="([^"]+)"/g)]
    .map((link) => link[1] as Locale)
    .filter((hrefLang) => (hrefLang as string) !== 'x-default' && hrefLang !== page.locale);
  if (page.type === 'website') expect(others).toEqual(LOCALE_CODES.filter((l) => l !== page.locale));
  expect(others.length).toBeGreaterThan(0);
  expect(metaAll(res.text, 'og:locale:alternate')).toEqual(others.map(ogLocale));
  expect(meta(res.text, 'og:type')).toBe(page.type);
});

// Every indexable page of the route table in each linked locale (a new route joins by itself):
// whatever its words, a shared link shows a card.
const INDEXABLE = samplePages().filter((page) => BASE_ROUTES.find((route) => route.base === page.base)!.indexable);

test.each(INDEXABLE)('$url, an indexable page, has Open Graph and Twitter tags: a title, og:url = canonical, an image', async (page) => {
  const res = await request(await testApp()).get(page.url);
  expect(res.status).toBe(200);
  expect(meta(res.text, 'og:title')).toBeTruthy();
  expect(meta(res.text, 'og:url')).toBe(canonicalOf(res.text));
  expect(meta(res.text, 'og:locale')).toBe(ogLocale(page.locale));
  expect(meta(res.text, 'og:image')).toMatch(/^https?:\/\//);
  expect(meta(res.text, 'twitter:card')).toBe('summary_large_image');
});

test.each(PAGES)('$path has a large-image Twitter card with the same title, description and image', async (page) => {
  const res = await request(await testApp()).get(page.path);
  expect(meta(res.text, 'twitter:card')).toBe('summary_large_image');
  expect(meta(res.text, 'twitter:title')).toBe(meta(res.text, 'og:title'));
  expect(meta(res.text, 'twitter:description')).toBe(meta(res.text, 'og:description'));
  expect(meta(res.text, 'twitter:image')).toBe(meta(res.text, 'og:image'));
  expect(meta(res.text, 'twitter:image:alt')).toBe(meta(res.text, 'og:image:alt'));
  // Twitter reads name=, Open Graph property=.
  expect(res.text).toContain('<meta name="twitter:card" content="summary_large_image">');
  expect(res.text).toContain('<meta property="og:title"');
});

test.each(PAGES.filter((page) => page.type === 'website'))(
  '$path (no image of its own) shows the default social image, absolute, with its size and alt',
  async (page) => {
    const res = await request(await testApp()).get(page.path);
    expect(meta(res.text, 'og:image')).toBe(`${ORIGIN}/og-default.png`);
    expect(meta(res.text, 'og:image:width')).toBe('1200');
    expect(meta(res.text, 'og:image:height')).toBe('630');
    expect(meta(res.text, 'og:image:alt')).toBe(page.locale === 'es' ? 'Emblema de the product' : 'Emblem of the product');
  },
);

test.each([
  ['/blog/gdpr-checklist-small-organizations', 'es'],
  ['/en/blog/gdpr-checklist-small-organizations', 'en'],
])('a post without a cover (%s) shows the default social image', async (path) => {
  const res = await request(await testApp()).get(path);
  expect(meta(res.text, 'og:image')).toBe(`${ORIGIN}/og-default.png`);
});

test.each([`/blog/${ES_POST}`, `/en/blog/${POST}`])(
  'a post with a cover (%s) shows its largest raster rendition, with its size and alt',
  async (path) => {
    const res = await request(await testApp()).get(path);
    expect(meta(res.text, 'og:image')).toMatch(new RegExp(`^${ORIGIN}/assets/content/[\\w-]+\\.(jpg|png)$`));
    expect(Number(meta(res.text, 'og:image:width'))).toBeGreaterThanOrEqual(1200);
    expect(meta(res.text, 'og:image:height')).toMatch(/^\d+$/);
    expect(meta(res.text, 'og:image:alt')?.length).toBeGreaterThan(10);
  },
);

test('a post’s page is an article: published and modified time, author, and a tag per post tag', async () => {
  const post = testPost({
    slug: 'tagged',
    date: '2026-03-01',
    updated: '2026-03-09T10:00:00Z',
    tags: [
      { slug: 'datos', name: 'Datos' },
      { slug: 'rgpd', name: 'RGPD' },
    ],
  });
  const { app } = await createTestApp(undefined, { content: contentOf([post]) });
  const res = await request(app).get('/blog/tagged');
  expect(meta(res.text, 'og:type')).toBe('article');
  expect(meta(res.text, 'article:published_time')).toBe('2026-03-01');
  expect(meta(res.text, 'article:modified_time')).toBe('2026-03-09T10:00:00Z');
  expect(meta(res.text, 'article:author')).toBe('Ana Ruiz');
  expect(metaAll(res.text, 'article:tag')).toEqual(['Datos', 'RGPD']);
});

test('a post without tags or a last change: no article:tag, modified time = published time', async () => {
  const { app } = await createTestApp(undefined, { content: contentOf([testPost({ slug: 'plain' })]) });
  const res = await request(app).get('/blog/plain');
  expect(metaAll(res.text, 'article:tag')).toEqual([]);
  expect(meta(res.text, 'article:modified_time')).toBe(meta(res.text, 'article:published_time'));
});

test.each([
  ['a site-relative cover', '/cms/uploads/cover.jpg', `${ORIGIN}/cms/uploads/cover.jpg`],
  ['a cover on a media host', 'https://media.example.test/x/cover.png', 'https://media.example.test/x/cover.png'],
])('a post with %s shows it as og:image (absolute, with its size and alt text)', async (_name, src, expected) => {
  const post = testPost({ slug: 'covered', title: 'Covered', cover: testCover(src) });
  const { app } = await createTestApp(undefined, { content: contentOf([post]) });
  const res = await request(app).get('/blog/covered');
  expect(meta(res.text, 'og:image')).toBe(expected);
  expect(meta(res.text, 'twitter:image')).toBe(expected);
  expect(meta(res.text, 'og:image:alt')).toBe('A cover');
  expect(meta(res.text, 'og:image:width')).toBe('1200');
  expect(meta(res.text, 'og:image:height')).toBe('630');
});

test('image URLs in the tags are absolute on PUBLIC_URL', async () => {
  const { app } = await createTestApp({ PUBLIC_URL: 'https://site.example.org/' });
  const res = await request(app).get('/en');
  expect(meta(res.text, 'og:image')).toBe('https://site.example.org/og-default.png');
  expect(meta(res.text, 'og:url')).toBe('https://site.example.org/en');
});

test('SITE_NAME names og:site_name and the home page’s title, escaped in the attribute', async () => {
  const { app } = await createTestApp({ SITE_NAME: 'Acme "R&D" <Co>' });
  const res = await request(app).get('/');
  expect(res.text).toContain('<meta property="og:site_name" content="Acme &quot;R&amp;D&quot; &lt;Co&gt;">');
  expect(meta(res.text, 'og:site_name')).toBe('Acme "R&D" <Co>');
  expect(meta(res.text, 'og:title')).toBe('Acme "R&D" <Co>');
});

test('a hostile post title cannot leave its meta tag', async () => {
  const title = '"><script>alert(1)</script> & more';
  const { app } = await createTestApp(undefined, { content: contentOf([testPost({ slug: 'hostile', title })]) });
  const res = await request(app).get('/blog/hostile');
  expect(res.text).not.toContain('<script>alert(1)');
  expect(meta(res.text, 'og:title')).toBe(title);
  expect(meta(res.text, 'twitter:title')).toBe(title);
});

test.each([
  ['the not-found page', '/en/does-not-exist', 404],
  ['the notFound route', '/notFound', 404],
])('a noindex page (%s) gets og:title and og:site_name only', async (_name, path, status) => {
  const res = await request(await testApp()).get(path);
  expect(res.status).toBe(status);
  expect(res.text).toContain('<meta name="robots" content="noindex">');
  expect(metaTags(res.text).map(([key]) => key)).toEqual(['og:site_name', 'og:title']);
});

test('a signed-in page of the private area gets og:title and og:site_name only', async () => {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'olga', role: 'CLI' });
  const login = await request(app)
    .post('/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: 'olga', password: DEFAULT_PASSWORD });
  expect(login.status).toBe(303);
  const cookies = (login.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
  const res = await request(app).get('/en/profile').set('Cookie', cookies);
  expect(res.status).toBe(200);
  expect(metaTags(res.text)).toEqual([
    ['og:site_name', 'the product'],
    ['og:title', 'My profile'],
  ]);
});

test.each([
  ['/', 'es'],
  ['/blog', 'es'],
  [`/es/blog/${ES_POST}`, 'es'],
  ['/en', 'en'],
  [`/en/blog/${POST}`, 'en'],
  ['/en/Contact', 'en'],
  ['/en/does-not-exist', 'en'],
  ['/notFound', 'es'],
] as const)('every page links the feeds of its language: %s (%s)', async (path, locale) => {
  const res = await request(await testApp()).get(path);
  const prefix = locale === 'es' ? '' : '/en';
  expect(feedLinksOf(res.text)).toEqual([
    {
      type: 'application/rss+xml',
      title: locale === 'es' ? 'Blog de the product (RSS)' : 'the product blog (RSS)',
      href: `${ORIGIN}${prefix}/blog/rss.xml`,
    },
    {
      type: 'application/atom+xml',
      title: locale === 'es' ? 'Blog de the product (Atom)' : 'the product blog (Atom)',
      href: `${ORIGIN}${prefix}/blog/atom.xml`,
    },
  ]);
});

test('a client navigation’s page data carries the same social tags and feed links the page’s head shows, and no JSON-LD', async () => {
  const app = await testApp();
  const page = await request(app).get(`/en/blog/${POST}`);
  const data = await request(app)
    .get('/_data')
    .query({ path: `/en/blog/${POST}` });
  const { head } = (data.body as { payload: PagePayload }).payload;
  expect(head.social).toEqual(metaTags(page.text));
  expect(head.feeds).toEqual(feedLinksOf(page.text));
  expect(JSON.stringify(data.body)).not.toContain('ld+json');
  expect(JSON.stringify(data.body)).not.toContain('"@context"');
});

/** Width and height from a PNG's IHDR chunk, after its 8-byte signature. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), `${file} is a PNG`).toBe(true);
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test('the default social image is a real 1200×630 PNG, and the logo a 512×512 PNG (scripts/og-image.ts)', () => {
  expect(pngSize(join(PATHS.public, DEFAULT_SOCIAL_IMAGE.path))).toEqual({ width: 1200, height: 630 });
  expect(pngSize(join(PATHS.public, SITE_LOGO.path))).toEqual({ width: 512, height: 512 });
});

test('the default social image and the logo are served as PNG', async () => {
  const app = await testApp();
  for (const path of [DEFAULT_SOCIAL_IMAGE.path, SITE_LOGO.path]) {
    const res = await request(app).get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
  }
});

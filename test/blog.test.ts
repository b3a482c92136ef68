// The blog at scale, as a visitor and a search engine meet it: pages of ten (rel=prev/next, a
// canonical per page), a page per tag, a search over titles and summaries that works without
// JavaScript, and translations with their own slugs (switcher, hreflang, redirects, sitemap).
// The shipped content (content/blog: 5 posts in Spanish, 4 of them in English; the briefing post
// has its own Spanish slug; proyectos-tercer-sector is only in Spanish), and for many posts a
// content folder of the test's own.
import request from 'supertest';
import { beforeAll, expect, test } from 'vitest';
import type { LoaderData, PagePayload } from '../shared/page-data.ts';
import type { loader as blogLoader } from '../server/pages/blog.ts';
import type { loader as postLoader } from '../server/pages/blog-post.ts';
import { ORIGIN, testApp } from './helpers/app.ts';
import { daysBefore, testContent, type TestPost } from './helpers/content-dir.ts';

type App = Awaited<ReturnType<typeof testApp>>;

const BRIEF_ES = 'como-preparar-el-briefing-de-un-experto';
const BRIEF_EN = 'how-to-brief-an-expert';
const SPANISH_ONLY = 'proyectos-tercer-sector';

/**
 * 23 Spanish posts (entrada-1 the newest), all tagged Datos and the even ones Pymes too; the
 * first three translated into English (each with an English slug), and one English-only post.
 */
const MANY: TestPost[] = [
  ...Array.from({ length: 23 }, (_, i): TestPost => {
    const n = i + 1;
    return {
      folder: `entrada-${n}`,
      locale: 'es',
      title: `Guía práctica número ${n}`,
      description: n <= 12 ? 'Cómo ordenar los datos de una asociación.' : 'Notas para equipos pequeños.',
      date: daysBefore(n),
      tags: n % 2 === 0 ? ['Datos', 'Pymes'] : ['Datos'],
    };
  }),
  ...[1, 2, 3].map((n): TestPost => ({
    folder: `entrada-${n}`,
    locale: 'en',
    slug: `guide-${n}`,
    title: `Practical guide number ${n}`,
    date: daysBefore(n),
    tags: ['Data'],
  })),
  { folder: 'english-only', locale: 'en', title: 'Only in English', date: daysBefore(30), tags: ['Data'] },
];

let shipped: App;
let many: App;

beforeAll(async () => {
  shipped = await testApp();
  many = await testApp(undefined, { content: await testContent(MANY) });
});

/** The <link rel=…> of a page's head, as `rel hreflang? href` lines. */
function headLinks(html: string, rel: string): string[] {
  const head = html.slice(0, html.indexOf('</head>'));
  return [...head.matchAll(/<link rel="([^"]+)"(?: hreflang="([^"]+)")? href="([^"]+)">/g)]
    .filter(([, r]) => r === rel)
    .map(([, , lang, href]) => (lang ? `${lang} ${href}` : href!));
}

/** The post links of a list page, in order (each post's h2). */
function listedSlugs(html: string): string[] {
  return [...html.matchAll(/<h2><a href="(?:\/en)?\/blog\/([^"]+)"/g)].map(([, slug]) => slug!);
}

/** The page data a client navigation gets for `path` (GET /_data). */
async function pageData(app: App, path: string) {
  const res = await request(app).get('/_data').query({ path });
  return { res, body: res.body as { kind: string; to?: string; status?: number; payload?: PagePayload } };
}

function blogData(payload: PagePayload | undefined): LoaderData<typeof blogLoader> {
  if (payload?.state.kind !== 'page') throw new Error('not a page');
  return payload.state.data as LoaderData<typeof blogLoader>;
}

// ---------------------------------------------------------------------------------------------
// Pages of ten

const entries = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `entrada-${from + i}`);

test.each([
  { url: '/blog', posts: entries(1, 10), canonical: '/blog', prev: null, next: '/blog?page=2' },
  { url: '/blog?page=2', posts: entries(11, 20), canonical: '/blog?page=2', prev: '/blog', next: '/blog?page=3' },
  { url: '/blog?page=3', posts: entries(21, 23), canonical: '/blog?page=3', prev: '/blog?page=2', next: null },
  { url: '/es/blog?page=2', posts: entries(11, 20), canonical: '/blog?page=2', prev: '/blog', next: '/blog?page=3' },
  { url: '/blog/tag/pymes?page=2', posts: ['entrada-22'], canonical: '/blog/tag/pymes?page=2', prev: '/blog/tag/pymes', next: null },
])(
  'the blog in pages of ten: $url lists its ten, with its own canonical and rel=prev/next',
  async ({ url, posts, canonical, prev, next }) => {
    const res = await request(many).get(url);
    expect(res.status).toBe(200);
    expect(listedSlugs(res.text)).toEqual(posts);
    expect(headLinks(res.text, 'canonical')).toEqual([ORIGIN + canonical]);
    expect(headLinks(res.text, 'prev')).toEqual(prev ? [ORIGIN + prev] : []);
    expect(headLinks(res.text, 'next')).toEqual(next ? [ORIGIN + next] : []);
  },
);

test('the pager links the pages before and after, says where the reader is, and is titled by its page', async () => {
  const res = await request(many).get('/blog?page=2');
  const pager = /<nav class="pager[^"]*"[^]*?<\/nav>/.exec(res.text)?.[0] ?? '';
  expect(pager).toContain('aria-label="Páginas del blog"');
  expect(pager).toMatch(/<a rel="prev" href="\/blog"[^>]*>← Más recientes<\/a>/);
  expect(pager).toMatch(/<a rel="next" href="\/blog\?page=3"[^>]*>Anteriores →<\/a>/);
  expect(pager).toContain('Página 2 de 3');
  expect(res.text).toContain('<title>Blog — página 2 | ');
  // A page past the first is this language's alone: no alternates to the other language.
  expect(headLinks(res.text, 'alternate')).toEqual([]);
});

test('the blog with ten posts or fewer has no pager and no rel=next', async () => {
  const res = await request(shipped).get('/blog');
  expect(res.text).not.toContain('<nav class="pager');
  expect(headLinks(res.text, 'next')).toEqual([]);
});

test.each([
  ['/blog?page=4', 404],
  ['/en/blog?page=2', 404],
  ['/blog/tag/pymes?page=3', 404],
  ['/blog?page=abc', 200],
  ['/blog?page=0', 200],
  ['/blog?page=-2', 200],
  ['/blog?page=1.5', 200],
  ['/blog?page=', 200],
])('a page past the end is not found; a page that is no page number is page 1: %s → %i', async (url, status) => {
  const res = await request(many).get(url);
  expect(res.status).toBe(status);
  if (status === 200) {
    expect(listedSlugs(res.text)).toEqual(entries(1, 10));
    expect(headLinks(res.text, 'canonical')).toEqual([`${ORIGIN}/blog`]);
  }
});

// ---------------------------------------------------------------------------------------------
// Tags

test('a tag’s page lists only the posts with that tag, says how many, and marks its tag in the cloud', async () => {
  const res = await request(shipped).get('/blog/tag/proyectos');
  expect(res.status).toBe(200);
  expect(listedSlugs(res.text)).toEqual([BRIEF_ES, SPANISH_ONLY]);
  expect(res.text).toContain('<h1>Artículos sobre Proyectos</h1>');
  expect(res.text).toContain('2 artículos con esta etiqueta.');
  const cloud = /<ul class="tag-list" aria-label="Temas">[^]*?<\/ul>/.exec(res.text)?.[0] ?? '';
  expect(cloud).toMatch(/aria-current="page" href="\/blog\/tag\/proyectos"/);
  expect(cloud.match(/aria-current/g)).toHaveLength(1);
  // Most used first: Proyectos and Cumplimiento normativo (2 posts each) before the rest.
  expect([...cloud.matchAll(/href="\/blog\/tag\/([^"]+)"/g)].slice(0, 2).map(([, slug]) => slug)).toEqual([
    'cumplimiento-normativo',
    'proyectos',
  ]);
});

test('a post’s tags link to their tag pages, and a tag page links back to the whole blog', async () => {
  const post = await request(shipped).get(`/blog/${BRIEF_ES}`);
  const tags = /<ul class="tag-list" aria-label="Etiquetas">[^]*?<\/ul>/.exec(post.text)?.[0] ?? '';
  expect([...tags.matchAll(/href="([^"]+)"/g)].map(([, href]) => href)).toEqual(['/blog/tag/trabajar-con-expertos', '/blog/tag/proyectos']);
  const tag = await request(shipped).get('/blog/tag/trabajar-con-expertos');
  expect(tag.text).toMatch(/class="blog-status"[^]*?<a href="\/blog"[^>]*>Ver todos los artículos<\/a>/);
});

test.each([
  ['/blog/tag/no-such-tag', 404],
  ['/blog/tag/projects', 404],
  ['/en/blog/tag/proyectos', 404],
  ['/en/blog/tag/projects', 200],
  ['/es/blog/tag/proyectos', 200],
])('each language has its own tags: %s → %i', async (url, status) => {
  expect((await request(shipped).get(url)).status).toBe(status);
});

test('an English tag page is under /en with the English tag’s slug and lists the English posts', async () => {
  const res = await request(shipped).get('/en/blog/tag/projects');
  expect(listedSlugs(res.text)).toEqual([BRIEF_EN]);
  expect(res.text).toContain('<h1>Posts about Projects</h1>');
  expect(headLinks(res.text, 'canonical')).toEqual([`${ORIGIN}/en/blog/tag/projects`]);
});

test.each(['/blog/tag/proyectos', '/en/blog/tag/projects'])('a tag page has no hreflang alternates to other languages: %s', async (url) => {
  const res = await request(shipped).get(url);
  expect(headLinks(res.text, 'alternate')).toEqual([]);
  expect(res.text).not.toContain('hreflang=');
});

// ---------------------------------------------------------------------------------------------
// Search

test.each([
  ['briefing', [BRIEF_ES]],
  ['RGPD', ['gdpr-checklist-small-organizations']],
  ['rgpd', ['gdpr-checklist-small-organizations']],
  ['ACCESIBILIDAD', ['web-accessibility-2026']],
  ['organizacion', ['web-accessibility-2026', 'gdpr-checklist-small-organizations']],
  ['organización pequeñas', ['gdpr-checklist-small-organizations']],
  ['presupuestos', [SPANISH_ONLY]],
  ['datos plan', ['data-strategy-first-90-days']],
  ['datos zzzz', []],
  ['  briefing   experto  ', [BRIEF_ES]],
])(
  'the search finds posts with every word, case and accents ignored; those with the words in the title or summary first: “%s”',
  async (q, slugs) => {
    const res = await request(shipped).get('/blog').query({ q });
    expect(res.status).toBe(200);
    expect(new Set(listedSlugs(res.text).slice(0, slugs.length))).toEqual(new Set(slugs));
    if (slugs.length === 0) expect(listedSlugs(res.text)).toEqual([]);
  },
);

test('a search in English searches the English posts', async () => {
  const res = await request(shipped).get('/en/blog').query({ q: 'breach' });
  expect(listedSlugs(res.text)).toEqual(['gdpr-checklist-small-organizations']);
  expect(res.text).toContain('1 post found.');
});

test('a search without results says so, and offers the way back to every post', async () => {
  const res = await request(shipped).get('/blog?q=zzzz');
  expect(res.status).toBe(200);
  expect(res.text).toContain('<h1>Resultados de «zzzz»</h1>');
  expect(res.text).toContain('0 artículos encontrados.');
  expect(res.text).toContain('Ningún artículo coincide con tu búsqueda.');
  expect(res.text).toMatch(/<a href="\/blog"[^>]*>Ver todos los artículos<\/a>/);
});

test('search results are not indexed (noindex, follow); their canonical is the blog', async () => {
  const res = await request(shipped).get('/blog?q=briefing');
  expect(res.text).toContain('<meta name="robots" content="noindex, follow">');
  expect(headLinks(res.text, 'canonical')).toEqual([`${ORIGIN}/blog`]);
  expect((await request(shipped).get('/blog')).text).not.toContain('name="robots"');
});

test('the search box is a GET form to the blog that works without JavaScript and keeps the words', async () => {
  const res = await request(shipped).get('/blog?q=briefing');
  const form = /<form class="blog-search"[^]*?<\/form>/.exec(res.text)?.[0] ?? '';
  expect(form).toMatch(/role="search"/);
  expect(form).toMatch(/action="\/blog" method="get"/);
  expect(form).toMatch(/<label for="blog-q">Buscar en el blog<\/label>/);
  expect(form).toMatch(/<input id="blog-q" type="search" maxLength="100" name="q" value="briefing"\/>/);
  expect((await request(shipped).get('/en/blog')).text).toMatch(/<form class="blog-search"[^>]*action="\/en\/blog"/);
});

test('the words of a search are kept in its pager’s links', async () => {
  const first = await request(many).get('/blog?q=guia');
  expect(listedSlugs(first.text)).toHaveLength(10);
  expect(first.text).toContain('23 artículos encontrados.');
  expect(first.text).toMatch(/<a rel="next" href="\/blog\?q=guia&amp;page=2"/);
  const second = await request(many).get('/blog?q=guia&page=2');
  expect(listedSlugs(second.text)).toHaveLength(10);
  expect(second.text).toMatch(/<a rel="prev" href="\/blog\?q=guia"/);
  expect(second.text).toMatch(/<a rel="next" href="\/blog\?q=guia&amp;page=3"/);
  const third = await request(many).get('/blog?q=guia&page=3');
  // The pages share no post, and together list every one.
  expect(new Set([first, second, third].flatMap((res) => listedSlugs(res.text)))).toEqual(new Set(entries(1, 23)));
  expect((await request(many).get('/blog?q=guia&page=4')).status).toBe(404);
  // Words of the summary only: posts 1 to 12.
  expect(listedSlugs((await request(many).get('/blog?q=asociacion&page=2')).text)).toHaveLength(2);
});

test('a search is cut to 100 characters', async () => {
  const res = await request(shipped)
    .get('/blog')
    .query({ q: `briefing ${'x'.repeat(200)}` });
  expect(res.status).toBe(200);
  const shown = `briefing ${'x'.repeat(91)}`;
  expect(res.text).toContain(`value="${shown}"`);
  expect(res.text).toContain(`<h1>Resultados de «${shown}»</h1>`);
  expect(res.text).toContain(`<title>Resultados de «${shown}» | `);
  expect(blogData((await pageData(shipped, `/blog?q=briefing%20${'x'.repeat(200)}`)).body.payload).q).toBe(shown);
});

test('a search is cut at 100 characters without splitting one (an emoji across the edge goes whole)', async () => {
  const q = `${'a'.repeat(99)}😀`;
  expect(blogData((await pageData(shipped, `/blog?q=${encodeURIComponent(q)}`)).body.payload).q).toBe('a'.repeat(99));
});

test.each([
  ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
  ['"><img src=x onerror=alert(1)>', '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;'],
  ['{{siteName}} ${1+1}', '{{siteName}} ${1+1}'],
])('hostile words are shown as text, escaped, and change nothing else: %s', async (q, escaped) => {
  const res = await request(shipped).get('/blog').query({ q });
  expect(res.status).toBe(200);
  expect(res.text).not.toContain('<script>alert');
  expect(res.text).not.toContain('<img src=x');
  expect(res.text).toContain(`value="${escaped}"`);
  expect(res.text).toContain(`<h1>Resultados de «${escaped}»</h1>`);
  expect(res.text).toContain(`<title>Resultados de «${escaped}» | `);
});

test.each([
  ['a NUL byte', '/blog?q=brief%00ing'],
  ['control characters', '/blog?q=brief%01%1F%7F%C2%85ing'],
  ['10 kB of words', `/blog?q=${'briefing%20'.repeat(1000)}`],
  ['a broken percent sign', '/blog?q=%E0%A4%A'],
  ['the parameter twice', '/blog?q=briefing&q=zzzz'],
])('a search with %s answers a page, harmless', async (_case, url) => {
  const res = await request(shipped).get(url);
  expect(res.status).toBe(200);
  // No control character but the whitespace an HTML page has (tab, newline, carriage return).
  expect(res.text.replace(/[\t\n\r]/g, '')).not.toMatch(/\p{Cc}/u);
  expect(res.text.length).toBeLessThan(200_000);
});

// ---------------------------------------------------------------------------------------------
// Translations, each with its own slug

function switcherHref(html: string): string | undefined {
  return /<ul class="locale-switcher"[^]*?href="([^"]+)"/.exec(html)?.[1];
}

test.each([
  { url: `/blog/${BRIEF_ES}`, switcher: `/en/blog/${BRIEF_EN}` },
  { url: `/es/blog/${BRIEF_ES}`, switcher: `/en/blog/${BRIEF_EN}` },
  { url: `/en/blog/${BRIEF_EN}`, switcher: `/blog/${BRIEF_ES}` },
  { url: `/blog/${SPANISH_ONLY}`, switcher: '/en/blog' },
  { url: '/blog/web-accessibility-2026', switcher: '/en/blog/web-accessibility-2026' },
  { url: '/blog?q=briefing', switcher: '/en/blog' },
  { url: '/blog/tag/proyectos', switcher: '/en/blog' },
])('the language switcher on $url goes to $switcher', async ({ url, switcher }) => {
  const res = await request(shipped).get(url);
  expect(res.status).toBe(200);
  expect(switcherHref(res.text)).toBe(switcher);
});

test.each([
  { url: `/en/blog/${BRIEF_ES}`, status: 301, to: `/en/blog/${BRIEF_EN}` },
  { url: `/blog/${BRIEF_EN}`, status: 301, to: `/blog/${BRIEF_ES}` },
  { url: `/es/blog/${BRIEF_EN}`, status: 301, to: `/blog/${BRIEF_ES}` },
  { url: `/en/blog/${SPANISH_ONLY}`, status: 302, to: `/blog/${SPANISH_ONLY}` },
])('a post asked for under another language’s slug: $url → $status $to', async ({ url, status, to }) => {
  const res = await request(shipped).get(url);
  expect([res.status, res.headers.location]).toEqual([status, to]);
  // And a client navigation is told the same.
  const { res: data, body } = await pageData(shipped, url);
  expect(data.status).toBe(200);
  expect(body).toEqual({ kind: 'redirect', to, status });
});

test.each(['/blog/no-such-post', '/en/blog/no-such-post', '/en/blog/english-only-but-not-here'])(
  'an unknown post is a 404: %s',
  async (url) => {
    expect((await request(shipped).get(url)).status).toBe(404);
  },
);

test.each([
  {
    url: `/blog/${BRIEF_ES}`,
    alternates: [`es ${ORIGIN}/blog/${BRIEF_ES}`, `en ${ORIGIN}/en/blog/${BRIEF_EN}`, `x-default ${ORIGIN}/blog/${BRIEF_ES}`],
  },
  {
    url: `/en/blog/${BRIEF_EN}`,
    alternates: [`es ${ORIGIN}/blog/${BRIEF_ES}`, `en ${ORIGIN}/en/blog/${BRIEF_EN}`, `x-default ${ORIGIN}/blog/${BRIEF_ES}`],
  },
  { url: `/blog/${SPANISH_ONLY}`, alternates: [] },
])('hreflang lists only the languages the post is written in, each with its slug: $url', async ({ url, alternates }) => {
  const res = await request(shipped).get(url);
  expect(headLinks(res.text, 'alternate')).toEqual(alternates);
  expect(headLinks(res.text, 'canonical')).toEqual([ORIGIN + url.replace(/^\/es\//, '/')]);
});

test('a post only in English has no alternates and no x-default (there is no Spanish page to default to)', async () => {
  const res = await request(many).get('/en/blog/english-only');
  expect(res.status).toBe(200);
  expect(headLinks(res.text, 'alternate')).toEqual([]);
  expect(headLinks(res.text, 'canonical')).toEqual([`${ORIGIN}/en/blog/english-only`]);
  expect(switcherHref(res.text)).toBe('/blog');
  expect((await request(many).get('/blog/english-only')).headers.location).toBe('/en/blog/english-only');
});

test('a post is never shown under the other language’s URL: no page of Spanish text under /en', async () => {
  const english = await request(shipped).get('/en/blog');
  expect(listedSlugs(english.text)).not.toContain(SPANISH_ONLY);
  expect(listedSlugs(english.text)).toHaveLength(4);
  expect(english.text).not.toContain('Proyectos con el tercer sector');
});

// ---------------------------------------------------------------------------------------------
// Sitemap

test('the sitemap lists each post once per language it is written in, with its own slug and its translations as alternates', async () => {
  const res = await request(shipped).get('/sitemap.xml');
  const urls = [...res.text.matchAll(/<url>([^]*?)<\/url>/g)].map(([, url]) => url!);
  const posts = urls.filter((url) => /<loc>[^<]*\/blog\/[^<]+<\/loc>/.test(url));
  const locs = posts.map((url) => /<loc>([^<]+)<\/loc>/.exec(url)![1]!.slice(ORIGIN.length));
  expect(locs.sort()).toEqual(
    [
      `/blog/${BRIEF_ES}`,
      '/blog/data-strategy-first-90-days',
      '/blog/gdpr-checklist-small-organizations',
      `/blog/${SPANISH_ONLY}`,
      '/blog/web-accessibility-2026',
      `/en/blog/${BRIEF_EN}`,
      '/en/blog/data-strategy-first-90-days',
      '/en/blog/gdpr-checklist-small-organizations',
      '/en/blog/web-accessibility-2026',
    ].sort(),
  );
  const brief = posts.find((url) => url.includes(`<loc>${ORIGIN}/en/blog/${BRIEF_EN}</loc>`))!;
  expect([...brief.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map(([, lang, href]) => `${lang} ${href}`)).toEqual([
    `es ${ORIGIN}/blog/${BRIEF_ES}`,
    `en ${ORIGIN}/en/blog/${BRIEF_EN}`,
    `x-default ${ORIGIN}/blog/${BRIEF_ES}`,
  ]);
  expect(brief).toContain('<lastmod>2026-06-18</lastmod>');
  const spanishOnly = posts.find((url) => url.includes(`/blog/${SPANISH_ONLY}<`))!;
  expect(spanishOnly).not.toContain('xhtml:link');
});

// ---------------------------------------------------------------------------------------------
// Client navigation: the same lists as JSON (/_data)

test('a client navigation gets the blog’s page as JSON: its posts, page, tags and its head', async () => {
  const { res, body } = await pageData(many, '/blog?page=2');
  expect(res.headers['cache-control']).toBe('private, no-store');
  const data = blogData(body.payload);
  expect(data).toMatchObject({ page: 2, pageCount: 3, total: 23, tag: null, q: '' });
  expect(data.posts.map((p) => p.slug)).toEqual(entries(11, 20));
  expect(data.tags).toEqual([
    { slug: 'datos', name: 'Datos', count: 23 },
    { slug: 'pymes', name: 'Pymes', count: 11 },
  ]);
  expect(body.payload?.head).toMatchObject({
    canonical: `${ORIGIN}/blog?page=2`,
    prev: `${ORIGIN}/blog`,
    next: `${ORIGIN}/blog?page=3`,
    alternates: [],
  });
});

test('a client navigation to a tag page or a search gets its list; a page past the end is a 404', async () => {
  const tag = blogData((await pageData(many, '/blog/tag/pymes')).body.payload);
  expect(tag).toMatchObject({ tag: { slug: 'pymes', name: 'Pymes' }, total: 11, pageCount: 2 });
  const search = await pageData(many, '/blog?q=equipos%20peque%C3%B1os');
  expect(blogData(search.body.payload)).toMatchObject({ q: 'equipos pequeños', total: 11 });
  expect(search.body.payload?.head.robots).toBe('noindex, follow');
  const past = (await pageData(many, '/blog?page=9')).body.payload;
  expect(past?.status).toBe(404);
});

test('a client navigation to a post gets its translations (the switcher’s links)', async () => {
  const { body } = await pageData(many, '/en/blog/guide-2');
  const state = body.payload?.state;
  expect(state?.kind === 'page' && (state.data as LoaderData<typeof postLoader>).post.translations).toEqual({
    es: 'entrada-2',
    en: 'guide-2',
  });
});

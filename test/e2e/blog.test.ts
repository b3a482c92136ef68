// The blog in Chromium, at 1366 and 390 px, with JavaScript: the search box, a
// post's tag to its tag page and back, the pager, the language switcher on a translated post and
// on a Spanish-only one; tap targets of at least 44 px, nothing scrolling sideways on a phone,
// no axe violation. The shared server has the shipped content (5 Spanish posts, 4 English); the
// pager and covers need more, so a second server reads a Strapi stand-in with 14 posts.
// Screenshots go to /tmp/shots-blogtests.
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { paginate, sendJson } from '../cms/fake-strapi.ts';
import { runAxe, setupServer, setupSite, waitForHydration, type Server, type Service } from './fixture.ts';
import { collectProblems } from './helpers.ts';

const SHOTS = '/tmp/shots-blogtests';

const BRIEF_ES = '/blog/como-preparar-el-briefing-de-un-experto';
const BRIEF_EN = '/en/blog/how-to-brief-an-expert';
const SPANISH_ONLY = '/blog/proyectos-tercer-sector';

const WIDTHS = [1366, 390] as const;
// Without JavaScript the same behaviours are plain links and a GET form: test/ui/blog.test.ts.
const CASES = WIDTHS.map((width) => ({ width, js: true }));

// ---------------------------------------------------------------------------------------------
// A Strapi stand-in (Strapi 5 answers, what the Public role reads) with 14 Spanish posts, the
// first three with a cover in Strapi's renditions, and the uploads as real PNGs of their size.

/** A PNG of one colour, `width` × `height` (what Strapi's upload stores: the image and its formats). */
function png(width: number, height: number, rgb: readonly [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const RENDITIONS = { thumbnail: [245, 138], small: [500, 281], medium: [750, 422], large: [1000, 563] } as const;

function cover(n: number) {
  const formats = Object.fromEntries(
    Object.entries(RENDITIONS).map(([name, [width, height]]) => [name, { url: `/uploads/${name}_cover${n}.png`, width, height }]),
  );
  return {
    id: 100 + n,
    documentId: `c${n}`,
    url: `/uploads/cover${n}.png`,
    width: 1600,
    height: 900,
    alternativeText: `Portada ${n}`,
    formats,
  };
}

const DAY = 86_400_000;
const STRAPI_POSTS = Array.from({ length: 14 }, (_, i) => {
  const n = i + 1;
  return {
    id: n,
    documentId: `d${n}`,
    title: `Guía práctica número ${n}`,
    slug: `guia-${n}`,
    description: 'Cómo ordenar los datos de una asociación, paso a paso.',
    content: `Texto de la guía ${n}.`,
    author: 'Equipo',
    date: new Date(Date.UTC(2026, 9, 1) - n * DAY).toISOString().slice(0, 10),
    locale: 'es',
    cover: n <= 3 ? cover(n) : null,
    tags: [
      { id: 1, documentId: 't1', name: 'Datos', slug: 'datos' },
      ...(n % 2 ? [] : [{ id: 2, documentId: 't2', name: 'Asociaciones', slug: 'asociaciones' }]),
    ],
  };
});

async function startStrapiStandIn(): Promise<Service> {
  const legal = JSON.parse(readFileSync(new URL('../cms/fixtures/v5-legal-pages.json', import.meta.url), 'utf8')) as { data: object[] };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://cms');
    const upload = /^\/uploads\/(?:(thumbnail|small|medium|large)_)?cover(\d+)\.png$/.exec(url.pathname);
    if (upload) {
      const [width, height] = upload[1] ? RENDITIONS[upload[1] as keyof typeof RENDITIONS] : [1600, 900];
      res.writeHead(200, { 'Content-Type': 'image/png' });
      return res.end(png(width, height, [48, 183 - Number(upload[2]) * 30, 187]));
    }
    const locale = url.searchParams.get('locale') ?? 'es';
    const slug = url.searchParams.get('filters[slug][$eq]');
    if (url.pathname === '/api/posts') {
      const posts = STRAPI_POSTS.filter((post) => post.locale === locale && (!slug || post.slug === slug));
      return sendJson(res, 200, paginate(posts, url.searchParams));
    }
    if (url.pathname === '/api/legal-pages') {
      const page = url.searchParams.get('filters[page][$eq]');
      return sendJson(res, 200, { data: legal.data.map((entry) => ({ ...entry, page })), meta: {} });
    }
    sendJson(res, 404, { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const site = setupSite();
const cmsSite = setupServer({ cms: startStrapiStandIn });
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

/** A page at `width` px, with or without JavaScript, as a visitor who has answered the cookie banner. */
function openPage(options: { width: number; js: boolean; server?: Server }): Promise<Page> {
  return site.newPage({
    server: options.server,
    viewport: { width: options.width, height: 900 },
    javaScriptEnabled: options.js,
    reducedMotion: 'reduce',
    consent: true,
  });
}

async function visit(page: Page, path: string, js: boolean): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  if (js) await waitForHydration(page);
}

const h1 = (page: Page) => page.locator('h1').innerText();
const listed = (page: Page) => page.locator('.post-list h2 a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));

/** The language switcher's link; on a phone with JavaScript it is behind the burger. */
async function switcher(page: Page, width: number, js: boolean) {
  if (js && width < 1024) await page.locator('button.navbar-burger').click();
  return page.locator('.locale-switcher a');
}

describe('the blog in Chromium', () => {
  it.each(CASES)('searching from the blog shows the results at a URL with ?q= ($width px, JavaScript $js)', async ({ width, js }) => {
    const page = await openPage({ width, js });
    const problems = collectProblems(page);
    await visit(page, '/blog', js);
    await page.locator('#blog-q').fill('Briefing');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL((url) => url.search === '?q=Briefing');
    await expect.poll(() => h1(page)).toBe('Resultados de «Briefing»');
    // The post whose title says it first; others say it in their text.
    const found = await listed(page);
    expect(found[0]).toBe(BRIEF_ES);
    expect(await page.locator('#blog-q').inputValue()).toBe('Briefing');
    expect(await page.locator('.blog-status').innerText()).toContain(
      found.length === 1 ? '1 artículo encontrado.' : `${found.length} artículos encontrados.`,
    );
    expect(problems).toEqual([]);
  });

  it.each(CASES)('a post’s tag leads to its tag page, and back ($width px, JavaScript $js)', async ({ width, js }) => {
    const page = await openPage({ width, js });
    await visit(page, BRIEF_ES, js);
    await page.locator('ul[aria-label="Etiquetas"]').getByRole('link', { name: 'Proyectos' }).click();
    await page.waitForURL((url) => url.pathname === '/blog/tag/proyectos');
    await expect.poll(() => h1(page)).toBe('Artículos sobre Proyectos');
    expect(await listed(page)).toEqual([BRIEF_ES, SPANISH_ONLY]);
    expect(await page.locator('.tag[aria-current="page"]').innerText()).toBe('Proyectos');
    await page.goBack();
    await page.waitForURL((url) => url.pathname === BRIEF_ES);
    await expect.poll(() => h1(page)).toBe('Cómo preparar el briefing de un experto independiente');
  });

  it.each(CASES)('the pager goes to page 2 and back, and the head follows ($width px, JavaScript $js)', async ({ width, js }) => {
    const page = await openPage({ width, js, server: cmsSite });
    await visit(page, '/blog', js);
    expect(await page.locator('.post-list > li').count()).toBe(10);
    await page.locator('.pager').getByRole('link', { name: 'Anteriores →' }).click();
    await page.waitForURL((url) => url.search === '?page=2');
    await expect.poll(() => listed(page)).toEqual(['/blog/guia-11', '/blog/guia-12', '/blog/guia-13', '/blog/guia-14']);
    expect(await page.locator('.pager').innerText()).toContain('Página 2 de 2');
    const head = () =>
      page.evaluate(() => ({
        canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href'),
        prev: document.querySelector('link[rel="prev"]')?.getAttribute('href'),
        next: document.querySelector('link[rel="next"]')?.getAttribute('href') ?? null,
      }));
    await expect
      .poll(head)
      .toEqual({ canonical: expect.stringMatching(/\/blog\?page=2$/), prev: expect.stringMatching(/\/blog$/), next: null });
    await page.locator('.pager').getByRole('link', { name: '← Más recientes' }).click();
    await page.waitForURL((url) => url.pathname === '/blog' && url.search === '');
    await expect.poll(() => page.locator('.post-list > li').count()).toBe(10);
    await expect.poll(async () => (await head()).next).toMatch(/\/blog\?page=2$/);
  });

  it.each(CASES)(
    'the language switcher on a translated post lands on the translation’s own slug ($width px, JavaScript $js)',
    async ({ width, js }) => {
      const page = await openPage({ width, js });
      await visit(page, BRIEF_ES, js);
      await (await switcher(page, width, js)).click();
      await page.waitForURL((url) => url.pathname === BRIEF_EN);
      await expect.poll(() => h1(page)).toBe('How to brief an independent expert');
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      await (await switcher(page, width, js)).click();
      await page.waitForURL((url) => url.pathname === BRIEF_ES);
      await expect.poll(() => h1(page)).toBe('Cómo preparar el briefing de un experto independiente');
    },
  );

  it.each(CASES)(
    'the language switcher on a post only in Spanish goes to the English blog ($width px, JavaScript $js)',
    async ({ width, js }) => {
      const page = await openPage({ width, js });
      await visit(page, SPANISH_ONLY, js);
      const link = await switcher(page, width, js);
      expect(await link.getAttribute('href')).toBe('/en/blog');
      await link.click();
      await page.waitForURL((url) => url.pathname === '/en/blog');
      await expect.poll(() => h1(page)).toBe('Blog');
      expect(await listed(page)).not.toContain('/en/blog/proyectos-tercer-sector');
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Tap targets, width, accessibility, screenshots

const LAYOUT_PAGES = [
  { name: 'blog', path: '/blog' },
  { name: 'tag', path: '/blog/tag/proyectos' },
  { name: 'search', path: '/blog?q=briefing' },
  { name: 'search-empty', path: '/blog?q=zzzz' },
  { name: 'post', path: BRIEF_ES },
  { name: 'cms-blog', path: '/blog', cms: true },
  { name: 'cms-page-2', path: '/blog?page=2', cms: true },
  { name: 'cms-post', path: '/blog/guia-1', cms: true },
];

describe('the blog’s layout', () => {
  it.each(WIDTHS.flatMap((width) => LAYOUT_PAGES.map((p) => ({ ...p, width }))))(
    '$name at $width px: tags, pager links and the search button are at least 44 px high, nothing scrolls sideways',
    async ({ name, path, cms, width }) => {
      const page = await openPage({ width, js: true, ...(cms ? { server: cmsSite } : {}) });
      await visit(page, path, true);
      const heights = await page
        .locator('.tag, .pager a, .blog-search button')
        .evaluateAll((els) => els.map((el) => ({ text: (el as HTMLElement).innerText, height: el.getBoundingClientRect().height })));
      expect(heights.length).toBeGreaterThan(0);
      expect(heights.filter((h) => h.height < 44)).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // Covers keep their room before they load (width and height given): no layout shift.
      for (const img of await page.locator('img.post-cover').all()) {
        const box = await img.evaluate((el: HTMLImageElement) => ({
          ratio: el.width / el.height,
          declared: Number(el.getAttribute('width')) / Number(el.getAttribute('height')),
        }));
        expect(box.declared).toBeGreaterThan(0);
        expect(box.ratio).toBeCloseTo(box.declared, 1);
      }
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    },
  );

  it.each(WIDTHS)(
    'at %i px a listed cover sits beside its text (from 768 px) or above it, and the pager spreads to the edges',
    async (width) => {
      const page = await openPage({ width, js: true, server: cmsSite });
      await visit(page, '/blog', true);
      const first = page.locator('.post-list > li').first();
      const cover = (await first.locator('img.post-cover').boundingBox())!;
      const title = (await first.locator('h2').boundingBox())!;
      if (width >= 768) {
        expect(cover.width).toBeCloseTo(256, 0);
        expect(title.x).toBeGreaterThan(cover.x + cover.width);
        expect(title.y).toBeLessThan(cover.y + cover.height);
      } else {
        expect(title.y).toBeGreaterThanOrEqual(cover.y + cover.height);
      }
      // The browser picks a rendition for the size shown, not the 1600 px original.
      await expect
        .poll(() => first.locator('img.post-cover').evaluate((img: HTMLImageElement) => img.currentSrc))
        .toMatch(/(small|medium|large|thumbnail)_cover1\.png$/);
      const list = (await page.locator('.post-list').boundingBox())!;
      const older = (await page.locator('.pager a[rel="next"]').boundingBox())!;
      expect(older.x + older.width).toBeCloseTo(list.x + list.width, 0);
      const input = page.locator('#blog-q');
      expect(Number.parseFloat(await input.evaluate((el) => getComputedStyle(el).paddingLeft))).toBeGreaterThanOrEqual(8);
      expect(await page.locator('.blog-tools-label').innerText()).toBe('Temas');
    },
  );

  const AXE_PAGES = [
    '/blog',
    '/en/blog',
    '/blog/tag/proyectos',
    '/en/blog/tag/projects',
    '/blog?q=briefing',
    '/en/blog?q=brief',
    '/blog?q=zzzz',
    '/en/blog?q=zzzz',
    BRIEF_ES,
    BRIEF_EN,
    SPANISH_ONLY,
  ];

  it.each(AXE_PAGES)('axe-core finds no violation on %s', async (path) => {
    const page = await openPage({ width: 1366, js: true });
    await visit(page, path, true);
    const results = await runAxe(page);
    const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`).join('\n');
    expect(results.violations, summary).toEqual([]);
  });

  it('axe-core finds no violation on the pager and on covers (the blog read from Strapi)', async () => {
    const page = await openPage({ width: 390, js: true, server: cmsSite });
    for (const path of ['/blog', '/blog?page=2', '/blog/guia-1']) {
      await visit(page, path, true);
      const results = await runAxe(page);
      expect(results.violations.map((v) => `${path} ${v.id}`)).toEqual([]);
    }
  });
});

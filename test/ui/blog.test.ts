// The blog without JavaScript, on the app in this process (docs/decisions/047): the search box
// is a GET form, a post's tag leads to its tag page, the pager's links go to page 2 and back with
// the head following, and the language switcher lands on a translation's own slug (or on the
// other language's blog when there is none). With JavaScript, at 1366 and 390 px, and the blog's
// layout and axe-core, it is test/e2e/blog.test.ts's.
import { expect, test } from 'vitest';
import { createTestApp, testApp } from '../helpers/app.ts';
import { plainBrowser, textOf, type PlainPage } from '../helpers/plain-browser.ts';
import { paginate, sendJson, startFakeStrapi } from '../cms/fake-strapi.ts';

const BRIEF_ES = '/blog/como-preparar-el-briefing-de-un-experto';
const BRIEF_EN = '/en/blog/how-to-brief-an-expert';
const SPANISH_ONLY = '/blog/proyectos-tercer-sector';

const h1 = (page: PlainPage) => textOf(page.document.querySelector('h1'));
const listed = (page: PlainPage) => [...page.document.querySelectorAll('.post-list h2 a')].map((a) => a.getAttribute('href'));

/** The link of `selector` whose text is `name`. */
function link(page: PlainPage, selector: string, name: string): Element {
  const found = [...page.document.querySelectorAll(`${selector} a`)].find((a) => textOf(a) === name);
  expect(found, `a link “${name}” in ${selector}`).toBeTruthy();
  return found!;
}

test('without JavaScript searching from the blog shows the results at a URL with ?q=', async () => {
  const browser = plainBrowser(await testApp());
  let page = await browser.open('/blog');
  const search = page.document.querySelector<HTMLInputElement>('#blog-q')!;
  search.value = 'Briefing';
  page = await browser.submit(page, search.form!.querySelector<HTMLButtonElement>('button')!);
  expect(page.url.search).toBe('?q=Briefing');
  expect(h1(page)).toBe('Resultados de «Briefing»');
  // The post whose title says it first; others say it in their text.
  const found = listed(page);
  expect(found[0]).toBe(BRIEF_ES);
  expect(page.document.querySelector<HTMLInputElement>('#blog-q')?.value).toBe('Briefing');
  expect(textOf(page.document.querySelector('.blog-status'))).toContain(
    found.length === 1 ? '1 artículo encontrado.' : `${found.length} artículos encontrados.`,
  );
});

test('without JavaScript a post’s tag leads to its tag page, and back', async () => {
  const browser = plainBrowser(await testApp());
  let page = await browser.open(BRIEF_ES);
  page = await browser.follow(page, link(page, 'ul[aria-label="Etiquetas"]', 'Proyectos'));
  expect(page.url.pathname).toBe('/blog/tag/proyectos');
  expect(h1(page)).toBe('Artículos sobre Proyectos');
  expect(listed(page)).toEqual([BRIEF_ES, SPANISH_ONLY]);
  expect(textOf(page.document.querySelector('.tag[aria-current="page"]'))).toBe('Proyectos');
  // Back: the post's own document again.
  page = await browser.follow(page, link(page, '.post-list h2', 'Cómo preparar el briefing de un experto independiente'));
  expect(page.url.pathname).toBe(BRIEF_ES);
  expect(h1(page)).toBe('Cómo preparar el briefing de un experto independiente');
});

/** 14 Spanish posts in Strapi 5's answers: two pages of 10. */
function strapiWithPosts() {
  const posts = Array.from({ length: 14 }, (_, i) => ({
    id: i + 1,
    documentId: `d${i + 1}`,
    title: `Guía práctica número ${i + 1}`,
    slug: `guia-${i + 1}`,
    description: 'Cómo ordenar los datos de una asociación, paso a paso.',
    content: `Texto de la guía ${i + 1}.`,
    author: 'Equipo',
    date: new Date(Date.UTC(2026, 9, 1) - (i + 1) * 86_400_000).toISOString().slice(0, 10),
    locale: 'es',
    cover: null,
    tags: [{ id: 1, documentId: 't1', name: 'Datos', slug: 'datos' }],
  }));
  return startFakeStrapi((req, res) => {
    if (req.path !== '/api/posts')
      return sendJson(res, 404, { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found' } });
    const locale = req.query.get('locale') ?? 'es';
    const slug = req.query.get('filters[slug][$eq]');
    return sendJson(
      res,
      200,
      paginate(
        posts.filter((post) => post.locale === locale && (!slug || post.slug === slug)),
        req.query,
      ),
    );
  });
}

test('without JavaScript the pager goes to page 2 and back, and the head follows', async () => {
  const cms = await strapiWithPosts();
  const { app } = await createTestApp({ CMS_URL: cms.url });
  const browser = plainBrowser(app);
  const head = (page: PlainPage) => ({
    canonical: page.document.querySelector('link[rel="canonical"]')?.getAttribute('href'),
    prev: page.document.querySelector('link[rel="prev"]')?.getAttribute('href') ?? null,
    next: page.document.querySelector('link[rel="next"]')?.getAttribute('href') ?? null,
  });
  let page = await browser.open('/blog');
  expect(page.document.querySelectorAll('.post-list > li')).toHaveLength(10);
  page = await browser.follow(page, link(page, '.pager', 'Anteriores →'));
  expect(page.url.search).toBe('?page=2');
  expect(listed(page)).toEqual(['/blog/guia-11', '/blog/guia-12', '/blog/guia-13', '/blog/guia-14']);
  expect(textOf(page.document.querySelector('.pager'))).toContain('Página 2 de 2');
  expect(head(page)).toEqual({ canonical: expect.stringMatching(/\/blog\?page=2$/), prev: expect.stringMatching(/\/blog$/), next: null });
  page = await browser.follow(page, link(page, '.pager', '← Más recientes'));
  expect(page.url.pathname + page.url.search).toBe('/blog');
  expect(page.document.querySelectorAll('.post-list > li')).toHaveLength(10);
  expect(head(page).next).toMatch(/\/blog\?page=2$/);
});

test('without JavaScript the language switcher on a translated post lands on the translation’s own slug', async () => {
  const browser = plainBrowser(await testApp());
  let page = await browser.open(BRIEF_ES);
  page = await browser.follow(page, page.document.querySelector('.locale-switcher a')!);
  expect(page.url.pathname).toBe(BRIEF_EN);
  expect(h1(page)).toBe('How to brief an independent expert');
  expect(page.document.documentElement.getAttribute('lang')).toBe('en');
  page = await browser.follow(page, page.document.querySelector('.locale-switcher a')!);
  expect(page.url.pathname).toBe(BRIEF_ES);
  expect(h1(page)).toBe('Cómo preparar el briefing de un experto independiente');
});

test('without JavaScript the language switcher on a post only in Spanish goes to the English blog', async () => {
  const browser = plainBrowser(await testApp());
  let page = await browser.open(SPANISH_ONLY);
  const switcher = page.document.querySelector('.locale-switcher a')!;
  expect(switcher.getAttribute('href')).toBe('/en/blog');
  page = await browser.follow(page, switcher);
  expect(page.url.pathname).toBe('/en/blog');
  expect(h1(page)).toBe('Blog');
  expect(listed(page)).not.toContain('/en/blog/proyectos-tercer-sector');
});

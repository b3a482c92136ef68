// The pages that show the site search: the blog's ?q= (posts) and /search (every kind), through
// HTTP as a browser without JavaScript gets them.
import request from 'supertest';
import { beforeAll, expect, test } from 'vitest';
import { SEARCH_MAX } from '../../shared/search.ts';
import { testApp } from '../helpers/app.ts';
import { fakeContent } from '../helpers/search-content.ts';

type App = Awaited<ReturnType<typeof testApp>>;
let shipped: App;

beforeAll(async () => {
  shipped = await testApp();
});

const listed = (html: string) => [...html.matchAll(/<h2><a href="([^"]+)"/g)].map((m) => m[1]);

test('a word only in the body of a shipped post finds it on the blog, in English and in Spanish', async () => {
  const en = await request(shipped).get('/en/blog?q=dashboard');
  expect(en.status).toBe(200);
  expect(listed(en.text)).toContain('/en/blog/data-strategy-first-90-days');
  const es = await request(shipped).get('/blog?q=cuadro%20de%20mando');
  expect(listed(es.text).length).toBeGreaterThan(0);
});

test('a tag’s name finds its posts on the blog, accents and case aside', async () => {
  const res = await request(shipped).get('/blog?q=proteccion');
  expect(listed(res.text)).toContain('/blog/gdpr-checklist-small-organizations');
});

test('each result shows the text around the words found, the words in <mark>', async () => {
  const res = await request(shipped).get('/en/blog?q=dashboard');
  expect(res.text).toMatch(/<p class="search-fragment">[^<]*<mark>dashboard<\/mark>/i);
});

test('a fragment is escaped: markup in a post’s text is shown as text, <mark> the only element', async () => {
  const { content } = fakeContent([
    { slug: 'x', locale: 'es', title: 'Seguridad', html: '<p>Nunca pegues &lt;img src=x onerror=alert(1)&gt; en un panel.</p>' },
  ]);
  const app = await testApp(undefined, { content });
  const res = await request(app).get('/blog?q=panel');
  const fragment = /<p class="search-fragment">([^]*?)<\/p>/.exec(res.text)?.[1] ?? '';
  expect(fragment).toContain('<mark>panel</mark>');
  expect(fragment.replaceAll(/<\/?mark>/g, '')).not.toMatch(/<|>/);
  expect(res.text).not.toContain('<img src=x');
});

test('/search finds every kind of content, each with its kind named', async () => {
  const res = await request(shipped).get('/en/search?q=forecast');
  expect(res.status).toBe(200);
  expect(res.text).toContain('<meta name="robots" content="noindex, follow">');
  expect(res.text).toMatch(/<p class="search-kind">Case study<\/p>/);
  const es = await request(shipped).get('/search?q=accesibilidad');
  expect(es.text).toMatch(/<p class="search-kind">Artículo<\/p>/);
  expect(listed(es.text)).toContain('/blog/web-accessibility-2026');
});

test('/search is a GET form that works without JavaScript and keeps the words', async () => {
  const res = await request(shipped).get('/en/search?q=data');
  const form = /<form class="blog-search site-search"[^]*?<\/form>/.exec(res.text)?.[0] ?? '';
  expect(form).toMatch(/action="\/en\/search" method="get"/);
  expect(form).toMatch(/name="q" value="data"/);
});

test('an empty search is the page’s prompt, not an error; a page past the first of it is not found', async () => {
  const res = await request(shipped).get('/search?q=%20%20');
  expect(res.status).toBe(200);
  expect(res.text).toContain('<h1>Buscar</h1>');
  expect(res.text).toContain('<meta name="robots" content="noindex, follow">');
  expect((await request(shipped).get('/search?page=2')).status).toBe(404);
});

test(`a search longer than ${SEARCH_MAX} characters is cut, and the page says so`, async () => {
  const res = await request(shipped)
    .get('/en/search')
    .query({ q: `data ${'x'.repeat(500)}` });
  expect(res.status).toBe(200);
  expect(res.text).toContain(`its first ${SEARCH_MAX} characters were searched`);
});

test.each(['"', 'NEAR(data strategy)', '-data', 'data*', 'title:data', '(', "' OR 1=1 --", '%00'])(
  'the engine’s syntax in a search is never an error: %j',
  async (q) => {
    for (const path of ['/en/search', '/en/blog']) {
      const res = await request(shipped).get(path).query({ q });
      expect(res.status, path).toBe(200);
    }
  },
);

test('/search finds a practice’s page and a case study’s page of the shipped content by a word of their text, in both languages', async () => {
  const en = await request(shipped).get('/en/search?q=decarbonisation');
  expect(listed(en.text)).toContain('/en/practices/sustainability');
  const es = await request(shipped).get('/search?q=descarbonizaci%C3%B3n');
  expect(listed(es.text)).toContain('/practices/sustainability');
  // A word of a case study's challenge only.
  const study = await request(shipped).get('/en/search?q=lorries');
  expect(listed(study.text)).toContain('/en/case-studies/nortia-demand-forecast');
});

// What a shared link and a search engine read in <head>: right on a post loaded directly, and
// still right after client navigations (the blog list, another post, the other language) —
// never the page before's tags or JSON-LD. A post's head as the server writes it is
// test/ui/social-meta.test.ts's.
import type { Page } from 'playwright-core';
import { beforeEach, expect, test } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { BLOG_SLUG, collectProblems } from './helpers.ts';

const site = setupSite();
let page: Page;
let problems: string[];

beforeEach(async () => {
  page = await site.newPage();
  problems = collectProblems(page);
});

/** What <head> says now: social tags (each with how many there are), canonical, feeds, JSON-LD types and headline. */
function headFacts(p: Page) {
  return p.evaluate(() => {
    const metas = [...document.head.querySelectorAll('meta[property], meta[name^="twitter:"]')];
    const content = (key: string) =>
      metas.filter((m) => (m.getAttribute('property') ?? m.getAttribute('name')) === key).map((m) => m.getAttribute('content'));
    const ld = [...document.head.querySelectorAll('script[type="application/ld+json"]')].map(
      (s) => JSON.parse(s.textContent ?? '{}') as { '@type': string; headline?: string },
    );
    return {
      title: document.title,
      ogTitle: content('og:title'),
      ogType: content('og:type'),
      ogUrl: content('og:url'),
      ogLocale: content('og:locale'),
      twitterTitle: content('twitter:title'),
      articleAuthor: content('article:author'),
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
      feeds: [...document.head.querySelectorAll('link[rel="alternate"][type]')].map((l) => l.getAttribute('href')),
      jsonLd: ld.map((d) => `${d['@type']}${d.headline ? `: ${d.headline}` : ''}`),
    };
  });
}

// A post whose translations have their own slugs: the switcher leads to the English one.
const OTHER_SLUG = 'how-to-brief-an-expert';
const OTHER_ES_SLUG = 'como-preparar-el-briefing-de-un-experto';

test('a post loaded directly, then the blog and another post by client navigation: the head tells the truth each time', async () => {
  const origin = site.baseURL;
  const direct = `/blog/${BLOG_SLUG}`;
  await page.goto(direct);
  await waitForHydration(page);
  const title = await page.locator('h1').innerText();
  expect(await headFacts(page)).toEqual({
    title: `${title} | the product`,
    ogTitle: [title],
    ogType: ['article'],
    ogUrl: [origin + direct],
    ogLocale: ['es_ES'],
    twitterTitle: [title],
    articleAuthor: [expect.any(String)],
    canonical: origin + direct,
    feeds: [`${origin}/blog/rss.xml`, `${origin}/blog/atom.xml`],
    jsonLd: [`BlogPosting: ${title}`, 'BreadcrumbList'],
  });

  // To the blog list by the post's back link (client navigation: no new document).
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(request.url());
  });
  await page
    .locator('main')
    .getByRole('link', { name: /Todos los artículos/ })
    .click();
  await page.waitForURL('**/blog');
  await expect.poll(() => headFacts(page).then((f) => f.ogTitle)).toEqual(['Blog']);
  expect(await headFacts(page)).toEqual({
    title: 'Blog | the product',
    ogTitle: ['Blog'],
    ogType: ['website'],
    ogUrl: [`${origin}/blog`],
    ogLocale: ['es_ES'],
    twitterTitle: ['Blog'],
    articleAuthor: [],
    canonical: `${origin}/blog`,
    feeds: [`${origin}/blog/rss.xml`, `${origin}/blog/atom.xml`],
    // The post's JSON-LD is gone (the server writes it into a page's first load only).
    jsonLd: [],
  });

  // To another post from the list.
  await page.locator(`main a[href="/blog/${OTHER_ES_SLUG}"]`).first().click();
  await page.waitForURL(`**/blog/${OTHER_ES_SLUG}`);
  await expect.poll(() => headFacts(page).then((f) => f.ogType)).toEqual(['article']);
  const other = await page.locator('h1').innerText();
  expect(await headFacts(page)).toMatchObject({
    title: `${other} | the product`,
    ogTitle: [other],
    ogUrl: [`${origin}/blog/${OTHER_ES_SLUG}`],
    twitterTitle: [other],
    canonical: `${origin}/blog/${OTHER_ES_SLUG}`,
    jsonLd: [],
  });

  // To the same post in English by the locale switcher: the language's locale and feeds.
  await page.locator('ul.locale-switcher a').click();
  await page.waitForURL(`**/en/blog/${OTHER_SLUG}`);
  await expect.poll(() => headFacts(page).then((f) => f.ogLocale)).toEqual(['en_US']);
  expect(await headFacts(page)).toMatchObject({
    ogUrl: [`${origin}/en/blog/${OTHER_SLUG}`],
    canonical: `${origin}/en/blog/${OTHER_SLUG}`,
    feeds: [`${origin}/en/blog/rss.xml`, `${origin}/en/blog/atom.xml`],
    jsonLd: [],
  });
  expect(documents, 'document requests during the client navigations').toEqual([]);
  expect(problems, problems.join('\n')).toEqual([]);
});

// What a shared link and a search engine read in <head> of a post loaded directly, from the
// app's server-rendered HTML (docs/decisions/047). That the head stays right after hydration and
// client navigations is test/e2e/social-meta.test.ts's; that a post page loads without a console
// error (a CSP refusal among them) is test/e2e/pages.test.ts's.
import { expect, test } from 'vitest';
import { ORIGIN, testApp } from '../helpers/app.ts';
import { plainBrowser } from '../helpers/plain-browser.ts';

/** What <head> says: the locale, canonical and feeds, and the JSON-LD types and headline. */
function headFacts(document: Document) {
  const content = (key: string) =>
    [...document.head.querySelectorAll(`meta[property="${key}"], meta[name="${key}"]`)].map((meta) => meta.getAttribute('content'));
  const ld = [...document.head.querySelectorAll('script[type="application/ld+json"]')].map(
    (script) => JSON.parse(script.textContent ?? '{}') as { '@type': string; headline?: string },
  );
  return {
    ogLocale: content('og:locale'),
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
    feeds: [...document.head.querySelectorAll('link[rel="alternate"][type]')].map((link) => link.getAttribute('href')),
    jsonLd: ld.map((data) => `${data['@type']}${data.headline ? `: ${data.headline}` : ''}`),
  };
}

test('a post loaded directly in English has its JSON-LD, its locale, canonical URL and feeds in <head>', async () => {
  const page = await plainBrowser(await testApp()).open('/en/blog/how-to-brief-an-expert');
  expect(page.status).toBe(200);
  expect(headFacts(page.document)).toEqual({
    ogLocale: ['en_US'],
    canonical: `${ORIGIN}/en/blog/how-to-brief-an-expert`,
    feeds: [`${ORIGIN}/en/blog/rss.xml`, `${ORIGIN}/en/blog/atom.xml`],
    jsonLd: ['BlogPosting: How to brief an independent expert', 'BreadcrumbList'],
  });
});

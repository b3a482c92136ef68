// A streamed page in Chromium (server/render/streamed.ts): the built server on a fake Strapi
// whose home and case-study answers take 1.5 s (and are never cached: CMS_CACHE_SECONDS=0, so
// that every load streams). The shell paints before the CMS answers; the case studies arrive in
// the same response and hydrate without a mismatch; without JavaScript they are shown too.
import { expect, test } from 'vitest';
import { fixture, paginate, sendJson, sendStrapiError, startFakeStrapi } from '../cms/fake-strapi.ts';
import { setupSite, waitForHydration, type Server } from './fixture.ts';
import { collectProblems } from './helpers.ts';

const CMS_DELAY_MS = 1500;
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const caseStudyTitles = (fixture('v5-case-studies') as { data: { title: string; locale: string }[] }).data
  .filter((entry) => entry.locale === 'en')
  .map((entry) => entry.title);

const site = setupSite();

/** A server on that slow CMS, stopped (with the CMS) when the test ends. */
function slowSite(): Promise<Server> {
  return site.startServer({ env: { CMS_CACHE_SECONDS: '0' }, cms: slowCms });
}

/** (The fake closes itself when the test ends.) */
async function slowCms() {
  const cms = await startFakeStrapi((req, res) => {
    const later = (send: () => void) => void cms.delay(CMS_DELAY_MS).then(send);
    if (req.path === '/api/home') return later(() => sendJson(res, 200, fixture('v5-home')));
    if (req.path === '/api/case-studies')
      return later(() => sendJson(res, 200, paginate((fixture('v5-case-studies') as { data: unknown[] }).data, req.query)));
    if (req.path.startsWith('/uploads/')) {
      // The clients' logos of the home fixture: a pixel is enough.
      res.writeHead(200, { 'Content-Type': 'image/png' });
      return res.end(PIXEL);
    }
    sendStrapiError(res, 404, 'NotFoundError', 'Not Found');
  });
  return { url: cms.url, stop: async () => undefined };
}

test('the shell paints before a slow CMS answers, the case studies stream in and hydrate without an error', async () => {
  const page = await site.newPage({ server: await slowSite() });
  const problems = collectProblems(page);
  const started = Date.now();
  await page.goto('/en', { waitUntil: 'commit' });
  // The hero is on screen while the CMS has not answered yet.
  await expect.poll(() => page.locator('#hero-title').isVisible()).toBe(true);
  expect(Date.now() - started).toBeLessThan(CMS_DELAY_MS);
  expect(await page.locator('.streamed-fallback').count()).toBeGreaterThan(0);
  await waitForHydration(page);
  for (const title of caseStudyTitles) await expect.poll(() => page.getByRole('heading', { name: title }).isVisible()).toBe(true);
  expect(await page.locator('.streamed-fallback').count()).toBe(0);
  // Hydrated: a client navigation works, and nothing complained (no hydration mismatch).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog', exact: true }).click();
  await page.waitForURL('**/en/blog');
  expect(problems).toEqual([]);
});

test('without JavaScript the streamed case studies are shown and the placeholders are not', async () => {
  const page = await site.newPage({ server: await slowSite(), javaScriptEnabled: false });
  await page.goto('/en');
  for (const title of caseStudyTitles) expect(await page.getByRole('heading', { name: title }).isVisible()).toBe(true);
  for (const fallback of await page.locator('.streamed-fallback').all()) expect(await fallback.isVisible()).toBe(false);
  expect(await page.locator('#hero-title').isVisible()).toBe(true);
});

// Montserrat on the web (docs/decisions/022): self-hosted from /assets as WOFF2, preloaded,
// allowed by the CSP, drawn by body and headings once loaded; and while it loads the fallback
// face with its metrics keeps every line where Montserrat puts it: nothing moves when it arrives.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';

const site = setupSite();

/** A context of its own with the consent made (no banner over the page) and no service worker in the way. */
async function withPage<T>(
  viewport: { width: number; height: number },
  run: (page: Page, context: BrowserContext) => Promise<T>,
): Promise<T> {
  const context = await site.newContext({ viewport, serviceWorkers: 'block', consent: true });
  return run(await context.newPage(), context);
}

test('body and h1 are drawn in Montserrat once it is loaded (and in no font from elsewhere)', async () => {
  await withPage({ width: 1366, height: 900 }, async (page) => {
    const fonts: { url: string; status: number; type: string; cache: string }[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() === 'font')
        fonts.push({
          url: res.url(),
          status: res.status(),
          type: res.headers()['content-type'] ?? '',
          cache: res.headers()['cache-control'] ?? '',
        });
    });
    await page.goto('/');
    await waitForHydration(page);
    await page.evaluate(() => document.fonts.ready);
    const state = await page.evaluate(() => ({
      loaded: document.fonts.check('400 16px Montserrat') && document.fonts.check('700 32px Montserrat'),
      body: getComputedStyle(document.body).fontFamily,
      h1: getComputedStyle(document.querySelector('h1')!).fontFamily,
      faces: [...document.fonts].filter((face) => face.status === 'loaded').map((face) => `${face.family} ${face.style} ${face.weight}`),
    }));
    expect(state.loaded).toBe(true);
    expect(state.body).toMatch(/^Montserrat, "Montserrat Fallback"/);
    expect(state.h1).toMatch(/^Montserrat, "Montserrat Fallback"/);
    expect(state.faces).toContain('Montserrat normal 100 900');
    // One file for every weight (and, as the home page quotes its clients in italics, one for the
    // italics), from /assets, as WOFF2, cached for a year.
    expect(fonts.map((font) => new URL(font.url).pathname.replace(/-[A-Z0-9]+\.woff2$/, ''))).toEqual(
      expect.arrayContaining(['/assets/montserrat-latin-wght-normal']),
    );
    expect(fonts.length).toBeLessThanOrEqual(2);
    for (const font of fonts) {
      expect(new URL(font.url).pathname).toMatch(/^\/assets\/montserrat-latin-wght-(normal|italic)-[A-Z0-9]+\.woff2$/);
      expect(font).toMatchObject({ status: 200, type: 'font/woff2' });
      expect(font.cache).toContain('immutable');
    }
  });
});

test('the font the first paint draws with is preloaded (crossorigin, as font), and the CSP allows fonts from the site only', async () => {
  await withPage({ width: 390, height: 844 }, async (page) => {
    const response = await page.goto('/en/blog');
    const csp = response!.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("font-src 'self'");
    const preloads = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="font"]')].map((link) => ({
        href: new URL(link.href).pathname,
        type: link.type,
        crossOrigin: link.crossOrigin,
      })),
    );
    expect(preloads).toHaveLength(1);
    expect(preloads[0]).toMatchObject({ type: 'font/woff2', crossOrigin: 'anonymous' });
    expect(preloads[0]!.href).toMatch(/^\/assets\/montserrat-latin-wght-normal-/);
    // The preload is used, not fetched twice: one request for the font.
    await waitForHydration(page);
    const requests = await page.evaluate(
      () => performance.getEntriesByType('resource').filter((entry) => entry.name.includes('montserrat-latin-wght-normal')).length,
    );
    expect(requests).toBe(1);
  });
});

test('italics come from Montserrat’s italic file only where a page has italics', async () => {
  await withPage({ width: 1366, height: 900 }, async (page) => {
    await page.goto('/en/Contact');
    await waitForHydration(page);
    const italic = await page.evaluate(() => [...document.fonts].filter((face) => face.style === 'italic').map((face) => face.status));
    expect(italic).toEqual(['unloaded']);
  });
});

describe('nothing moves when Montserrat arrives late, after the page has hydrated (CLS < 0.01: in fact none)', () => {
  test.each([
    { width: 390, height: 844 },
    { width: 1366, height: 900 },
  ])('home at $width px', async (viewport) => {
    await withPage(viewport, async (page, context) => {
      await page.addInitScript(() => {
        const shifts: { value: number; sources: string[] }[] = [];
        (window as unknown as { layoutShifts: typeof shifts }).layoutShifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
            sources: { node?: Node }[];
          })[]) {
            if (entry.hadRecentInput) continue;
            const sources = entry.sources.map((s) =>
              s.node instanceof Element ? s.node.outerHTML.slice(0, 80) : String(s.node?.nodeName),
            );
            shifts.push({ value: entry.value, sources });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let delayed = 0;
      await context.route('**/*.woff2', async (route) => {
        delayed++;
        await held;
        await route.continue();
      });
      await page.goto('/', { waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => document.documentElement.classList.contains('js'));
      // Drawn with the fallback first…
      expect(await page.evaluate(() => document.fonts.check('400 16px Montserrat'))).toBe(false);
      // The page painted with the fallback and hydrated (two frames: painted for sure), then the font.
      await waitForHydration(page);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      release();
      await page.evaluate(() => document.fonts.ready);
      // …then in Montserrat, and a frame later every shift has been reported.
      expect(await page.evaluate(() => document.fonts.check('400 16px Montserrat'))).toBe(true);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      expect(delayed).toBeGreaterThan(0);
      const shifts = await page.evaluate(
        () => (window as unknown as { layoutShifts: { value: number; sources: string[] }[] }).layoutShifts,
      );
      const cls = shifts.reduce((sum, shift) => sum + shift.value, 0);
      // Under 0.01 is the budget; the fallback's metrics make it nothing at all (with the
      // system's sans-serif instead, this page shifted 0.002–0.01).
      expect(cls, JSON.stringify(shifts)).toBeLessThan(0.001);
    });
  });
});

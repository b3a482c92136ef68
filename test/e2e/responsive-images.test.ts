// The posts' images in Chromium: the browser picks the rendition its screen needs (a small one
// on a phone, a larger one on a laptop or a sharper screen), and the page keeps each image's room
// before it has loaded: nothing moves when it arrives (no layout shift). Screenshots of a post and
// of the blog at both widths go to /tmp/shots-images/.
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { DESKTOP as LAPTOP, PHONE, setupSite, waitForHydration } from './fixture.ts';
import { collectProblems } from './helpers.ts';

const SHOTS = '/tmp/shots-images';
/** Posts with a cover; the brief's also has a figure in its text. */
const COVERED = '/en/blog/web-accessibility-2026';
const WITH_FIGURE = '/en/blog/how-to-brief-an-expert';

const site = setupSite();
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

async function open(
  options: { viewport: { width: number; height: number }; deviceScaleFactor?: number; javaScript?: boolean },
  run: (page: Page, context: BrowserContext) => Promise<void>,
): Promise<void> {
  const context = await site.newContext({
    viewport: options.viewport,
    deviceScaleFactor: options.deviceScaleFactor ?? 1,
    javaScriptEnabled: options.javaScript ?? true,
    consent: true,
  });
  await run(await context.newPage(), context);
}

/** The rendition the browser chose for the first image matching `selector`, once it has loaded. */
async function chosenRendition(page: Page, selector: string): Promise<string> {
  const image = page.locator(selector).first();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const src = await image.evaluate((img: HTMLImageElement) => img.currentSrc);
  return new URL(src).pathname.replace(/^\/assets\/content\/[0-9a-f]{16}/, '');
}

test.each([
  { what: 'a 390 px phone', viewport: PHONE, scale: 1, javaScript: true, rendition: '-480.webp' },
  { what: 'a 390 px phone without JavaScript', viewport: PHONE, scale: 1, javaScript: false, rendition: '-480.webp' },
  { what: 'a 1366 px laptop', viewport: LAPTOP, scale: 1, javaScript: true, rendition: '-800.webp' },
  { what: 'a 1366 px laptop with a sharper screen (2×)', viewport: LAPTOP, scale: 2, javaScript: true, rendition: '-1200.webp' },
])("on $what, the browser picks the cover's $rendition rendition", async ({ viewport, scale, javaScript, rendition }) => {
  await open({ viewport, deviceScaleFactor: scale, javaScript }, async (page) => {
    const problems = collectProblems(page);
    await page.goto(COVERED);
    expect(await chosenRendition(page, 'img.post-cover')).toBe(rendition);
    const cover = page.locator('img.post-cover');
    expect(await cover.getAttribute('width')).toBe('1200');
    expect(await cover.getAttribute('height')).toBe('630');
    expect(await cover.getAttribute('alt')).toMatch(/^Abstract illustration: .+ focus ring/);
    expect(problems).toEqual([]);
  });
});

test.each([
  { what: 'a laptop', viewport: LAPTOP, beside: true },
  { what: 'a phone', viewport: PHONE, beside: false },
])(
  "in the blog's list on $what, a cover is 16rem wide beside its post's text (or above it on a phone), and the browser picks its 480 px rendition",
  async ({ viewport, beside }) => {
    await open({ viewport }, async (page) => {
      await page.goto('/en/blog');
      expect(await chosenRendition(page, '.post-summary img.post-cover')).toBe('-480.webp');
      const article = page.locator('.post-summary article').first();
      const cover = (await article.locator('img.post-cover').boundingBox())!;
      const title = (await article.locator('h2').boundingBox())!;
      if (beside) {
        expect(cover.width).toBe(256);
        expect(title.x).toBeGreaterThan(cover.x + cover.width);
        expect(title.y).toBeLessThan(cover.y + cover.height);
      } else {
        expect(cover.width).toBe(viewport.width - 40);
        expect(title.y).toBeGreaterThan(cover.y + cover.height);
      }
    });
  },
);

test.each([
  { what: 'a phone', viewport: PHONE },
  { what: 'a laptop', viewport: LAPTOP },
])('on $what, the cover and the figure keep their room before they load: nothing moves when they arrive (CLS 0)', async ({ viewport }) => {
  await open({ viewport }, async (page, context) => {
    // Every layout shift of the page, from its first paint on.
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { layoutShifts: number[] }).layoutShifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) shifts.push(entry.value);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // The images arrive a second late, so that the page is laid out without them first.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route('**/assets/content/**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(WITH_FIGURE, { waitUntil: 'domcontentloaded' });
    // Hydrated first (its scripts are not held), so that hydration is measured too.
    await page.waitForFunction(() => document.documentElement.classList.contains('js'));
    const boxes = () =>
      page.evaluate(() =>
        ['img.post-cover', '.post-body img[loading="lazy"]'].map((selector) => {
          const img = document.querySelector<HTMLImageElement>(selector)!;
          const { x, y, width, height } = img.getBoundingClientRect();
          return { selector, loaded: img.complete && img.naturalWidth > 0, box: { x, y, width, height } };
        }),
      );
    const before = await boxes();
    expect(before.map((b) => b.loaded)).toEqual([false, false]);
    // The room is the image's: its width at the image's own aspect ratio (1200×630, 1200×360).
    const [cover, figure] = before.map((b) => b.box);
    expect(cover!.height).toBeCloseTo((cover!.width * 630) / 1200, 0);
    expect(figure!.height).toBeCloseTo((figure!.width * 360) / 1200, 0);

    release();
    await page.locator('.post-body img[loading="lazy"]').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(async () => (await boxes()).every((b) => b.loaded)).toBe(true);
    expect((await boxes()).map((b) => b.box)).toEqual(before.map((b) => b.box));
    const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts);
    expect(shifts.reduce((sum, value) => sum + value, 0)).toBe(0);
  });
});

test.each([
  { name: 'phone', viewport: PHONE },
  { name: 'laptop', viewport: LAPTOP },
])('screenshots of a post with a cover and a figure, and of the blog, on a $name', async ({ name, viewport }) => {
  await open({ viewport }, async (page) => {
    for (const [shot, path] of [
      ['post', WITH_FIGURE],
      ['blog', '/en/blog'],
      ['blog-es', '/blog'],
    ] as const) {
      await page.goto(path);
      await waitForHydration(page);
      // Lazy images below the fold: scrolled through once so that the full-page picture has them.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 400) {
          window.scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        window.scrollTo(0, 0);
      });
      await expect.poll(() => page.evaluate(() => [...document.images].every((img) => img.complete && img.naturalWidth > 0))).toBe(true);
      await page.screenshot({ path: `${SHOTS}/${shot}-${name}.png`, fullPage: true });
    }
  });
});

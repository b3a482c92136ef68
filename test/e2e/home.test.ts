// The home page, the call to action and the 404 page in Chromium, at 390 px (a phone) and
// 1366 px (a laptop), under the site's real CSP: every section visible, nothing wider than the
// window, images with their size that load (the illustration and the icons are files the page
// colours), touch targets of at least 44 px, no axe violation, hydration without a problem.
// Screenshots of home, 404, a legal page and the blog in both languages at both widths go to
// /tmp/shots-home/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, test } from 'vitest';
import { DESKTOP as LAPTOP, PHONE, runAxe, setupSite, waitForHydration } from './fixture.ts';
import { collectProblems } from './helpers.ts';

const SHOTS = '/tmp/shots-home';
const WIDTHS = [
  { name: '390', viewport: PHONE },
  { name: '1366', viewport: LAPTOP },
] as const;

const site = setupSite();
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

async function open(
  options: { viewport: { width: number; height: number }; javaScript?: boolean },
  run: (page: Page, context: BrowserContext) => Promise<void>,
): Promise<void> {
  const context = await site.newContext({
    viewport: options.viewport,
    javaScriptEnabled: options.javaScript ?? true,
    reducedMotion: 'reduce',
    consent: true,
  });
  await run(await context.newPage(), context);
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, 'the page scrolls sideways').toBeLessThanOrEqual(widths.client);
}

/** Links and buttons in `scope` (not inline links of running text) smaller than 44×44 px. */
async function smallTargets(page: Page, scope: string): Promise<string[]> {
  return page.locator(scope).evaluateAll((roots) =>
    roots.flatMap((root) =>
      [...root.querySelectorAll<HTMLElement>('a[href], button, input:not([type=hidden])')]
        .filter((element) => !element.closest('p:not(.actions), .case-story'))
        .map((element) => ({ element, box: element.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0 && (box.width < 44 || box.height < 44))
        .map(({ element, box }) => `${element.outerHTML.slice(0, 80)} ${Math.round(box.width)}×${Math.round(box.height)}`),
    ),
  );
}

/** Pixels of the element's picture within `tolerance` of an RGB colour. */
async function pixelsOf(png: Buffer, [r, g, b]: [number, number, number], tolerance = 24): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (Math.abs(data[i]! - r) <= tolerance && Math.abs(data[i + 1]! - g) <= tolerance && Math.abs(data[i + 2]! - b) <= tolerance) count++;
  }
  return count;
}

const TEAL: [number, number, number] = [0x30, 0xb7, 0xbb];

describe.each(WIDTHS)('at $name px', ({ name, viewport }) => {
  test('the home page shows every section, nothing wider than the window, and hydrates without a problem', async () => {
    await open({ viewport }, async (page) => {
      const problems = collectProblems(page);
      await page.goto('/en');
      await waitForHydration(page);
      for (const id of ['hero-title', 'logos-title', 'services-title', 'how-title', 'figures-title', 'cases-title', 'cta-title']) {
        const heading = page.locator(`#${id}`);
        await heading.scrollIntoViewIfNeeded();
        expect(await heading.isVisible(), id).toBe(true);
      }
      expect(await page.locator('.practices > li').count()).toBe(4);
      expect(await page.locator('.steps > li').count()).toBe(9);
      expect(await page.locator('.figure').count()).toBe(4);
      expect(await page.locator('.case-study').count()).toBe(3);
      await noSidewaysScroll(page);
      expect(problems).toEqual([]);
    });
  });

  test('the illustration, the icons and the logos have their size and load, and the theme colours the illustration', async () => {
    await open({ viewport }, async (page) => {
      const loaded = new Map<string, number>();
      page.on('response', (response) => loaded.set(new URL(response.url()).pathname, response.status()));
      await page.goto('/en');
      await waitForHydration(page);
      const art = page.locator('svg.hero-art');
      expect([await art.getAttribute('width'), await art.getAttribute('height')]).toEqual(['560', '440']);
      const box = (await art.boundingBox())!;
      // Shown smaller on a phone, in the illustration's proportions.
      expect(Math.abs(box.width / box.height - 560 / 440)).toBeLessThan(0.02);
      if (name === '390') expect(box.width).toBeLessThanOrEqual(352);
      expect(loaded.get('/hero-art.svg')).toBe(200);
      expect(loaded.get('/practice-icons.svg')).toBe(200);
      // The layers are drawn (under the real CSP), in the theme's teal.
      expect(await pixelsOf(await art.screenshot(), TEAL)).toBeGreaterThan(500);
      expect(await page.locator('use.art-accent').evaluate((use) => getComputedStyle(use).fill)).toBe('rgb(48, 183, 187)');
      const icon = page.locator('.practice-badge svg').first();
      expect([await icon.getAttribute('width'), await icon.getAttribute('height')]).toEqual(['28', '28']);
      expect(await icon.getAttribute('aria-hidden')).toBe('true');
      const logos = page.locator('.logos img');
      expect(await logos.count()).toBe(5);
      await page.locator('.logos').scrollIntoViewIfNeeded();
      for (const logo of await logos.all()) {
        expect(Number(await logo.getAttribute('width'))).toBeGreaterThan(0);
        expect(Number(await logo.getAttribute('height'))).toBe(96);
        expect((await logo.getAttribute('alt'))?.length).toBeGreaterThan(3);
        await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
        // Greyscale, and shown at the logo row's height.
        expect(await logo.evaluate((img) => getComputedStyle(img).filter)).toBe('grayscale(1)');
        expect((await logo.boundingBox())!.height).toBe(name === '390' ? 32 : 44);
      }
    });
  });

  test('the largest paint of the home page is its text, not the illustration', async () => {
    await open({ viewport }, async (page) => {
      await page.goto('/en');
      await waitForHydration(page);
      const largest = await page.evaluate(
        () =>
          new Promise<string>((resolve) => {
            new PerformanceObserver((list) => {
              const last = list.getEntries().at(-1) as PerformanceEntry & { element?: Element | null };
              resolve(last.element?.tagName.toLowerCase() ?? 'none');
            }).observe({ type: 'largest-contentful-paint', buffered: true });
          }),
      );
      expect(['h1', 'p']).toContain(largest);
    });
  });

  test('every link and button of the home page, the call to action and the 404 page is at least 44 px in each direction', async () => {
    await open({ viewport }, async (page) => {
      await page.goto('/en');
      await waitForHydration(page);
      expect(await smallTargets(page, 'main')).toEqual([]);
      await page.goto('/en/no-such-page');
      await waitForHydration(page);
      expect(await smallTargets(page, 'main')).toEqual([]);
      await page.goto('/en/privacy');
      await waitForHydration(page);
      expect(await smallTargets(page, '.cta-band')).toEqual([]);
    });
  });

  test.each(['/en', '/', '/en/no-such-page', '/no-existe', '/en/privacy', '/blog', '/en/Contact'])(
    'axe-core reports no violations on %s',
    async (path) => {
      await open({ viewport }, async (page) => {
        await page.goto(path);
        await waitForHydration(page);
        const results = await runAxe(page);
        const violations = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        expect(violations).toEqual([]);
      });
    },
  );

  test('screenshots of home, 404, a legal page and the blog (with its call to action) in both languages', async () => {
    const pages = [
      ['home', '/', '/en'],
      ['404', '/no-existe', '/en/no-such-page'],
      ['legal', '/privacy', '/en/privacy'],
      ['blog', '/blog', '/en/blog'],
      ['contact-practice', '/Contact?practice=data', '/en/Contact?practice=data'],
    ] as const;
    await open({ viewport }, async (page) => {
      for (const [label, es, en] of pages) {
        for (const [locale, path] of [
          ['es', es],
          ['en', en],
        ] as const) {
          await page.goto(path);
          await waitForHydration(page);
          await noSidewaysScroll(page);
          // Lazy images (the logos) load before the full-page picture is taken.
          await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
          await page.waitForFunction(() => [...document.images].every((img) => img.complete));
          await page.screenshot({ path: join(SHOTS, `${label}-${locale}-${name}.png`), fullPage: true });
        }
      }
    });
  });
});

test('a practice’s card leads to its page, and its page to the contact form with its subject filled in (client navigations)', async () => {
  await open({ viewport: PHONE }, async (page) => {
    const problems = collectProblems(page);
    await page.goto('/en');
    await waitForHydration(page);
    await page.locator('#practice-sustainability').scrollIntoViewIfNeeded();
    // A tap anywhere on the card follows its link (not only on the title).
    const text = (await page.locator('#practice-sustainability p').first().boundingBox())!;
    await page.mouse.click(text.x + text.width / 2, text.y + text.height / 2);
    await page.waitForURL('**/en/practices/sustainability');
    await expect.poll(() => page.locator('h1').innerText()).toBe('Sustainability and ESG');
    await page.locator('.practice-contact').getByRole('link', { name: 'Tell us about your project' }).click();
    await page.waitForURL('**/en/Contact?practice=sustainability');
    await expect.poll(() => page.locator('input[name="subject"]').inputValue()).toBe('About Sustainability');
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
    expect(problems).toEqual([]);
  });
});

test('the 404 page hydrates with its help, and its search of the blog works', async () => {
  await open({ viewport: LAPTOP }, async (page) => {
    const problems = collectProblems(page, { documentStatus: 404 });
    const response = await page.goto('/en/no-such-page');
    expect(response?.status()).toBe(404);
    await waitForHydration(page);
    await page.getByRole('searchbox', { name: 'Search the blog' }).fill('accessibility');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/en/blog?q=accessibility');
    await expect.poll(() => page.locator('h1').innerText()).toMatch(/accessibility/);
    expect(problems).toEqual([]);
  });
});

test('a client navigation to a missing page shows the 404 page’s help once its part has loaded', async () => {
  await open({ viewport: LAPTOP }, async (page) => {
    const problems = collectProblems(page, { documentStatus: 404 });
    await page.goto('/en/blog');
    await waitForHydration(page);
    // The address of a post that is gone, reached without a reload (as back/forward would).
    await page.evaluate(() => {
      window.history.pushState({ usr: null, key: 'gone' }, '', '/en/blog/a-post-that-is-gone');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect.poll(() => page.locator('h1').innerText()).toBe('This page could not be found');
    await expect.poll(() => page.locator('.not-found-practices a').count()).toBe(4);
    expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
  });
});

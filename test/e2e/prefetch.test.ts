// Links prefetch their page's chunk when they become visible, once the browser is idle (2000 ms
// timeout), and never on a 2g connection or in Save-Data mode (saving the visitor's data).
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { pageChunks } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

const site = setupSite();
let chunks: Record<string, string>;

beforeAll(() => {
  chunks = pageChunks();
});

/**
 * A context with the consent already given (so that the cookie banner, whose "Cookie policy"
 * link points to a legal page, does not show) and the service worker blocked (it could fetch
 * chunks itself). Records every page chunk the page requests.
 */
async function openContext(): Promise<{ context: BrowserContext; page: Page; requested: string[] }> {
  const context = await site.newContext({ serviceWorkers: 'block', consent: true });
  const page = await context.newPage();
  const requested: string[] = [];
  const files = new Set(Object.values(chunks));
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (files.has(path)) requested.push(path);
  });
  return { context, page, requested };
}

/** Whether the page has a link to `href` that is inside the viewport. */
function linkInViewport(page: Page, href: string): Promise<boolean> {
  return page.evaluate(
    (target) =>
      [...document.querySelectorAll<HTMLAnchorElement>(`a[href="${target}"]`)].some((a) => {
        const r = a.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight;
      }),
    href,
  );
}

/**
 * Emulates the connection for navigator.connection. Network.emulateNetworkConditions with only
 * `connectionType: 'cellular2g'` leaves effectiveType at '4g' (Chromium derives it from the
 * emulated latency, and a real ≥ 1.4 s latency would make the test crawl), so these use the
 * CDP overrides that change what the page reads without slowing the network:
 * Network.overrideNetworkState (effectiveType from the RTT: 1900 ms is '2g') and
 * Emulation.setDataSaverOverride (saveData). If this Chromium lacks them, an init script
 * defines navigator.connection instead.
 */
async function emulateConnection(context: BrowserContext, page: Page, mode: 'save-data' | '2g'): Promise<void> {
  try {
    const cdp = await context.newCDPSession(page);
    if (mode === 'save-data') {
      await cdp.send('Emulation.setDataSaverOverride' as never, { dataSaverEnabled: true } as never);
    } else {
      await cdp.send('Network.enable');
      await cdp.send(
        'Network.overrideNetworkState' as never,
        {
          offline: false,
          latency: 1900,
          downloadThroughput: 50_000 / 8,
          uploadThroughput: 50_000 / 8,
          connectionType: 'cellular2g',
        } as never,
      );
    }
  } catch {
    await page.addInitScript((m) => {
      const connection = m === 'save-data' ? { saveData: true, effectiveType: '4g' } : { saveData: false, effectiveType: '2g' };
      Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => connection });
    }, mode);
  }
}

describe('prefetching visible links', () => {
  it('links that become visible prefetch their page chunk after idle, without any click', async () => {
    const { context, page, requested } = await openContext();
    const blog = chunks.blog!;
    const contact = chunks.contact!;
    const legal = chunks.legal!;
    // The server does not preload those chunks itself: only the current page's.
    const html = await (await context.request.get('/en')).text();
    for (const file of [blog, contact, legal]) expect(html).not.toContain(file);

    await page.goto('/en');
    const loadedAt = Date.now();
    await page.waitForFunction(() => document.documentElement.classList.contains('js'));
    expect(await linkInViewport(page, '/en/blog')).toBe(true);
    expect(await linkInViewport(page, '/en/Contact')).toBe(true);

    // Within ~3 s (the idle callback's timeout is 2 s).
    await expect.poll(() => requested.includes(blog) && requested.includes(contact), { timeout: scaled(3_000) }).toBe(true);
    expect(Date.now() - loadedAt).toBeLessThan(3_500);
    expect(page.url()).toMatch(/\/en$/);

    // The legal pages are linked from the footer only, below the fold: not fetched yet…
    await expect.poll(() => requested.includes(chunks.login!), { timeout: scaled(3_000) }).toBe(true);
    expect(await linkInViewport(page, '/en/legal')).toBe(false);
    expect(requested).not.toContain(legal);
    // …until the footer scrolls into view.
    await page.locator('footer').scrollIntoViewIfNeeded();
    await expect.poll(() => requested.includes(legal), { timeout: scaled(3_000) }).toBe(true);
    // Each chunk once.
    expect(requested.filter((f) => f === blog)).toHaveLength(1);
    expect(page.url()).toMatch(/\/en$/);
  });

  for (const mode of ['save-data', '2g'] as const) {
    it.concurrent(`nothing is prefetched in ${mode} mode`, async ({ expect }) => {
      const { context, page, requested } = await openContext();
      await emulateConnection(context, page, mode);
      await page.goto('/en');
      await waitForHydration(page);
      const connection = await page.evaluate(() => {
        const c = (navigator as { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
        return { saveData: c?.saveData, effectiveType: c?.effectiveType };
      });
      if (mode === 'save-data') expect(connection.saveData).toBe(true);
      else expect(connection.effectiveType).toBe('2g');
      expect(await linkInViewport(page, '/en/blog')).toBe(true);
      expect(await linkInViewport(page, '/en/Contact')).toBe(true);

      // Until a prefetch would have started: the visible links are seen by an intersection
      // observer within the next frames and fetched at the idle callback that follows (2 s at
      // most); an idle callback asked for after those frames runs after the app's, and a
      // request it started reaches the test within a moment.
      await page.evaluate(
        () =>
          new Promise<void>((resolve) => {
            const frames = (n: number) =>
              n === 0 ? requestIdleCallback(() => resolve(), { timeout: 2_000 }) : requestAnimationFrame(() => frames(n - 1));
            frames(3);
          }),
      );
      await page.waitForTimeout(250);
      // Only the current page's own chunk was loaded.
      expect(requested).toEqual([chunks.home]);
    });
  }
});

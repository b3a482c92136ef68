// The full-screen spinner while client requests are in flight, stopped by failures too, and page
// loading pending → error | done with a 200 ms minimum delay (a fast answer does not flash).
// page.route is used, so the service worker is blocked (it could otherwise answer the requests
// before the route sees them).
import type { BrowserContext, Page, Route } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { scaled } from '../helpers/time-scale.ts';

type LoadEvent = { t: number; state: string | null; busy: string | null };

declare global {
  interface Window {
    __loadLog?: LoadEvent[];
    __clickAt?: number;
  }
}

const site = setupSite();
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  context = await site.newContext({ serviceWorkers: 'block' });
  page = await context.newPage();
});

const overlay = () => page.locator('.loading-overlay[role="status"]');
const blogLink = () => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog', exact: true });

/** Records every change of main[data-load-state] / aria-busy, and the time of the next click. */
async function recordLoadState(p: Page): Promise<void> {
  await p.evaluate(() => {
    const main = document.querySelector('main');
    if (!main) throw new Error('no <main>');
    const log: LoadEvent[] = [];
    window.__loadLog = log;
    const snap = () =>
      log.push({ t: performance.now(), state: main.getAttribute('data-load-state'), busy: main.getAttribute('aria-busy') });
    snap();
    new MutationObserver(snap).observe(main, { attributes: true, attributeFilter: ['data-load-state', 'aria-busy'] });
    document.addEventListener('click', () => (window.__clickAt ??= performance.now()), { capture: true });
  });
}

async function openHome(): Promise<void> {
  await page.goto('/en');
  await waitForHydration(page);
  // Nothing is in flight once the page has settled: no spinner.
  expect(await overlay().count()).toBe(0);
}

describe('loading spinner and load state', () => {
  it('the spinner shows while a page request is in flight and goes away when it answers', async () => {
    await openHome();
    let answered = false;
    await page.route('**/_data**', async (route: Route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      answered = true;
      await route.continue();
    });

    await blogLink().click();
    await overlay().waitFor({ state: 'visible', timeout: scaled(1_000) });
    expect(answered, 'the spinner shows before the answer arrives').toBe(false);
    expect(await overlay().getAttribute('aria-busy')).toBe('true');
    expect(await overlay().innerText()).toContain('Loading…');
    expect(await page.locator('main').getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('main').getAttribute('data-load-state')).toBe('pending');

    await overlay().waitFor({ state: 'detached', timeout: scaled(5_000) });
    expect(answered).toBe(true);
    await expect.poll(() => page.locator('h1').innerText()).toBe('Blog');
    expect(await page.locator('main').getAttribute('aria-busy')).toBe('false');
    expect(await page.locator('main').getAttribute('data-load-state')).toBe('done');
  });

  it('a failed request stops the spinner and the error page shows', async () => {
    await openHome();
    let failed = false;
    await page.route('**/_data**', async (route: Route) => {
      // Long enough for the spinner to show first.
      await new Promise((resolve) => setTimeout(resolve, 500));
      failed = true;
      await route.abort('failed');
    });

    await blogLink().click();
    await overlay().waitFor({ state: 'visible', timeout: scaled(1_000) });
    await overlay().waitFor({ state: 'detached', timeout: scaled(5_000) });
    expect(failed).toBe(true);

    const error = page.locator('.error-page');
    await error.waitFor({ state: 'visible' });
    expect(await error.locator('h1').innerText()).toBe('Error');
    expect(await error.locator('.error-status').innerText()).toBe('500');
    const home = error.getByRole('link', { name: 'Back to the home page' });
    expect(await home.getAttribute('href')).toBe('/en');
    expect(page.url()).toMatch(/\/en\/blog$/);
    expect(await page.locator('main').getAttribute('aria-busy')).toBe('false');
    // The spinner stays gone: nothing else is left in flight.
    expect(await overlay().count()).toBe(0);
  });

  it("a failed page load ends in the 'error' load state, not 'done', after the same 200 ms minimum", async () => {
    await openHome();
    await recordLoadState(page);
    await page.route('**/_data**', (route: Route) => route.abort('failed'));

    await blogLink().click();
    await page.locator('.error-page').waitFor({ state: 'visible' });
    // Let any transition finish: the state must still read error afterwards.
    await page.waitForFunction(() => document.querySelector('div.page-transition')?.getAttribute('data-transition-phase') === 'idle');
    const { log, clickAt } = await page.evaluate(() => ({ log: window.__loadLog ?? [], clickAt: window.__clickAt ?? Number.NaN }));
    const summary = `click at ${clickAt.toFixed(1)}\n${JSON.stringify(log)}`;
    const states = log.map((e) => e.state).filter((s, i, all) => i === 0 || s !== all[i - 1]);
    // Page loading goes pending, then error or done…
    expect.soft(states, summary).toEqual(['done', 'pending', 'error']);
    expect.soft(await page.locator('main').getAttribute('data-load-state')).toBe('error');
    // …with a minimum delay of 200 ms, whatever the outcome (a fast failure does not flash).
    const error = log.find((e) => e.state === 'error');
    expect.soft(error, summary).toBeDefined();
    if (error) expect.soft(error.t - clickAt, summary).toBeGreaterThanOrEqual(200);
  });

  it('a fast page answer still keeps the page pending for at least 200 ms after the click', async () => {
    // Reduced motion: no leave animation, whose 150 ms would hide a missing minimum delay.
    await context.close();
    context = await site.newContext({ serviceWorkers: 'block', reducedMotion: 'reduce' });
    page = await context.newPage();
    // The page's data, fetched beforehand and answered from memory at once.
    const data = await context.request.get('/_data?path=%2Fen%2Fblog', { headers: { Accept: 'application/json' } });
    expect(data.status()).toBe(200);
    const body = await data.text();
    await page.route('**/_data**', (route: Route) => route.fulfill({ status: 200, contentType: 'application/json', body }));

    await openHome();
    // The blog chunk is prefetched (the link is visible): wait for it, so that only the
    // minimum delay can make the navigation take 200 ms.
    await page.waitForFunction(
      () => performance.getEntriesByType('resource').some((e) => /\/assets\/blog-[^/]*\.js$/.test(e.name)),
      undefined,
      {
        timeout: scaled(5_000),
      },
    );
    await recordLoadState(page);

    await blogLink().click();
    await page.waitForFunction(
      () =>
        document.querySelector('main')?.getAttribute('data-load-state') === 'done' && document.querySelector('h1')?.textContent === 'Blog',
    );
    const { log, clickAt, dataEnd } = await page.evaluate(() => ({
      log: window.__loadLog ?? [],
      clickAt: window.__clickAt ?? Number.NaN,
      dataEnd:
        performance
          .getEntriesByType('resource')
          .filter((e) => new URL(e.name).pathname === '/_data')
          .map((e) => (e as PerformanceResourceTiming).responseEnd)
          .at(-1) ?? Number.NaN,
    }));
    const summary = `click at ${clickAt.toFixed(1)}, data answered at ${dataEnd.toFixed(1)}\n${JSON.stringify(log)}`;

    const pending = log.find((e) => e.state === 'pending');
    const done = log.find((e) => e.state === 'done' && pending && e.t > pending.t);
    expect(pending, summary).toBeDefined();
    expect(pending!.busy, summary).toBe('true');
    expect(done, summary).toBeDefined();
    // The answer itself came well before 200 ms…
    expect(dataEnd - clickAt, summary).toBeLessThan(200);
    // …yet the page stayed pending for the minimum delay.
    expect(done!.t - clickAt, summary).toBeGreaterThanOrEqual(200);
    expect(done!.busy, summary).toBe('false');
  });
});

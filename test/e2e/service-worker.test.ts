// The service worker in a real Chromium (served at /sw.js with scope /; nothing private is ever
// cached): registration, offline pages from the cache, the offline fallback in the page's
// language, nothing private stored, and a new version replacing the old caches. http://127.0.0.1
// is a secure context, so the worker registers as it would over HTTPS.
import type { BrowserContext, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { runAxe, setupSite, waitForHydration } from './fixture.ts';
import { collectProblems } from './helpers.ts';
import { loadBrand } from '../../server/brand/brand.ts';

declare global {
  interface Window {
    __marker?: number;
  }
}

const CACHE_PREFIX = 'site-sw-';

const site = setupSite();
let context: BrowserContext;
let page: Page;
let problems: string[];

beforeEach(async () => {
  context = await site.newContext({ serviceWorkers: 'allow' });
  page = await context.newPage();
  problems = collectProblems(page);
});

/** The build's version, as /sw.js carries it in its first line. */
async function workerVersion(): Promise<string> {
  const response = await context.request.get('/sw.js');
  const match = /^self\.__SW_CONFIG__ = (.*);$/m.exec(await response.text());
  if (!match?.[1]) throw new Error('/sw.js carries no configuration');
  return (JSON.parse(match[1]) as { version: string }).version;
}

/** Waits until the page's worker is activated and controls the page. */
async function activeWorker(p: Page) {
  return p.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const worker = registration.active;
    if (!worker) throw new Error('no active worker');
    while (worker.state !== 'activated') await new Promise((resolve) => worker.addEventListener('statechange', resolve, { once: true }));
    while (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    }
    return { scope: registration.scope, scriptURL: worker.scriptURL, state: worker.state };
  });
}

/** The names of the origin's caches. Read-only: it never opens (and so never re-creates) one. */
async function cacheNames(p: Page): Promise<string[]> {
  return p.evaluate(() => caches.keys());
}

/**
 * Every cache of the origin with the paths (and queries) it holds. `caches.open` creates a cache
 * that is missing, so this must not run while a worker may be deleting caches (during its
 * activation): a cache deleted between `keys()` and `open()` would be made again.
 */
async function cachedUrls(p: Page): Promise<Record<string, string[]>> {
  return p.evaluate(async () => {
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = (await cache.keys()).map((request) => {
        const url = new URL(request.url);
        return url.pathname + url.search;
      });
    }
    return out;
  });
}

describe('service worker', () => {
  it('registers at /sw.js with scope / and takes control of the page, without console noise', async () => {
    await page.goto('/en');
    await waitForHydration(page);
    const worker = await activeWorker(page);
    expect(worker.scope).toBe(`${site.baseURL}/`);
    expect(worker.scriptURL).toBe(`${site.baseURL}/sw.js`);
    expect(worker.state).toBe('activated');

    const script = await context.request.get('/sw.js');
    expect(script.status()).toBe(200);
    expect(script.headers()['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers()['cache-control']).toBe('no-cache');
    expect(script.headers()['service-worker-allowed']).toBe('/');

    // The shell is precached in this version's cache.
    const version = await workerVersion();
    const cached = await cachedUrls(page);
    expect(cached[`${CACHE_PREFIX}shell-${version}`]).toEqual(
      expect.arrayContaining(['/offline', '/en/offline', '/favicon.svg', ...Object.values(loadBrand().page.logos)]),
    );

    // A page loaded under the worker's control works as before.
    await page.goto('/en/blog');
    await waitForHydration(page);
    expect(await page.locator('h1').innerText()).toBe('Blog');
    expect(problems).toEqual([]);
  });

  it('offline: a visited page comes from the cache, an unvisited one shows the offline page in its language', async () => {
    await page.goto('/en');
    await waitForHydration(page);
    await activeWorker(page);
    const version = await workerVersion();

    // A visit under the worker's control stores the public page.
    await page.goto('/en/blog');
    await waitForHydration(page);
    await expect.poll(async () => (await cachedUrls(page))[`${CACHE_PREFIX}pages-${version}`] ?? []).toContain('/en/blog');
    expect(problems).toEqual([]);

    await context.setOffline(true);
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    expect(await page.locator('h1').innerText()).toBe('Blog');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    // Its scripts came from the cache too: the page hydrates.
    await page.waitForFunction(() => document.documentElement.classList.contains('js'));

    // Never visited: the offline page, English under /en, Spanish otherwise.
    await page.goto('/en/privacy');
    expect(page.url()).toBe(`${site.baseURL}/en/privacy`);
    expect(await page.locator('h1').innerText()).toBe('You are offline');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('');

    await page.goto('/cookies');
    expect(await page.locator('h1').innerText()).toBe('Sin conexión');
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    // The stylesheet came from the cache: the offline page is styled.
    expect(await page.locator('.navbar').evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');

    // Back online, "Reintentar" loads the page itself.
    await context.setOffline(false);
    await page.getByRole('link', { name: 'Reintentar' }).click();
    await page.waitForURL('**/cookies');
    await expect.poll(() => page.locator('h1').innerText()).not.toBe('Sin conexión');
  });

  it('never stores private answers: API, page data, CMS, private pages, redirects, errors', async () => {
    await page.goto('/');
    await waitForHydration(page);
    await activeWorker(page);
    const version = await workerVersion();

    for (const path of ['/en/blog', '/profile', '/en/client', '/admin', '/en/admin/users', '/changePassword', '/en/does-not-exist']) {
      await page.goto(path);
      await waitForHydration(page);
    }
    await page.evaluate(async () => {
      for (const url of ['/api/me', '/_data?path=%2Fen%2Fblog', '/_data?path=%2Fprofile', '/cms/uploads/x.png']) {
        await fetch(url, { credentials: 'same-origin' }).then((r) => r.arrayBuffer());
      }
    });
    await expect.poll(async () => (await cachedUrls(page))[`${CACHE_PREFIX}pages-${version}`] ?? []).toContain('/en/blog');

    const all = Object.values(await cachedUrls(page)).flat();
    const forbidden = all.filter(
      (path) =>
        /^\/(api|_data|cms)(\/|\?|$)/.test(path) ||
        /^(\/(es|en))?\/(profile|client|admin|expert|organization|changePassword|does-not-exist)$/.test(path) ||
        /^(\/(es|en))?\/admin\//.test(path),
    );
    expect(forbidden).toEqual([]);
  });

  it('on activation, caches of other versions are deleted and only the current version’s remain', async () => {
    // Leftovers of an earlier version, made before any worker exists (the offline page runs
    // no script, so nothing registers yet), next to a cache that is not the worker's.
    await page.goto('/offline');
    await page.evaluate(async (prefix) => {
      for (const name of [`${prefix}shell-old`, `${prefix}pages-old`, 'another-app-cache']) {
        const cache = await caches.open(name);
        await cache.put(`/${name}-entry`, new Response('old'));
      }
    }, CACHE_PREFIX);

    await page.goto('/en');
    await waitForHydration(page);
    await activeWorker(page);
    const version = await workerVersion();
    const names = await cacheNames(page);
    expect(names).toContain('another-app-cache');
    expect(names).toContain(`${CACHE_PREFIX}shell-${version}`);
    expect(names.filter((name) => name.startsWith(CACHE_PREFIX) && !name.endsWith(`-${version}`))).toEqual([]);
  });

  it('a new worker takes over without reloading the page and deletes other versions’ caches', async () => {
    await page.goto('/en');
    await waitForHydration(page);
    await activeWorker(page);
    const version = await workerVersion();
    await page.goto('/en/blog');
    await waitForHydration(page);
    await expect.poll(async () => (await cachedUrls(page))[`${CACHE_PREFIX}pages-${version}`] ?? []).toContain('/en/blog');

    // Caches of an earlier version appear while this one runs; then another worker script is
    // installed for the same scope (the browser cannot be handed another build's /sw.js here:
    // its update fetch cannot be intercepted, so a new script URL makes the new worker).
    await page.evaluate(async (prefix) => {
      window.__marker = 1;
      for (const name of [`${prefix}shell-old`, `${prefix}pages-old`, 'another-app-cache']) {
        await (await caches.open(name)).put(`/${name}-entry`, new Response('old'));
      }
    }, CACHE_PREFIX);
    const taken = await page.evaluate(async () => {
      const changed = new Promise<string>((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(navigator.serviceWorker.controller?.scriptURL ?? ''), {
          once: true,
        }),
      );
      await navigator.serviceWorker.register('/sw.js?next', { scope: '/' });
      return changed;
    });
    expect(taken).toBe(`${site.baseURL}/sw.js?next`);
    // The page learns of the new controller (controllerchange) *before* the new worker's
    // activate event runs (Service Workers spec, Activate): only once it is 'activated' have the
    // other versions' caches been deleted.
    expect((await activeWorker(page)).scriptURL).toBe(`${site.baseURL}/sw.js?next`);

    expect((await cacheNames(page)).filter((name) => name !== 'another-app-cache').sort()).toEqual([
      `${CACHE_PREFIX}pages-${version}`,
      `${CACHE_PREFIX}shell-${version}`,
    ]);
    // The current version's caches are kept, the page was not reloaded, nothing was logged.
    expect((await cachedUrls(page))[`${CACHE_PREFIX}pages-${version}`]).toContain('/en/blog');
    expect(Object.keys(await cachedUrls(page))).toContain('another-app-cache');
    expect(await page.evaluate(() => window.__marker)).toBe(1);
    expect(problems).toEqual([]);
  });

  it.each(['/offline', '/en/offline'])('the offline page %s has no accessibility violation', async (path) => {
    const axePage = await site.newPage({ reducedMotion: 'reduce' });
    await axePage.goto(path);
    const results = await runAxe(axePage);
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

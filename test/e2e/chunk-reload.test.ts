// A chunk-load failure (a deploy removed the chunk a page needs) reloads the page, at most once
// per 60 s, tracked in sessionStorage under `chunk-reload-at`; a second failure within 60 s shows
// the error page instead of looping. page.route makes the chunks "disappear", so the service
// worker is blocked (it could answer from its cache).
import type { Page, Route } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { scaled } from '../helpers/time-scale.ts';

declare global {
  interface Window {
    __chunkMarker?: number;
  }
}

const KEY = 'chunk-reload-at';

const site = setupSite();
let page: Page;
/** Main-frame document requests made after the test's first page load. */
let documents: string[];

beforeEach(async () => {
  // No cookie banner (consent): its links would only add noise to the footer.
  page = await site.newPage({ serviceWorkers: 'block', consent: true });
  documents = [];
});

/** Opens /en and starts counting document loads from there. */
async function openHome(): Promise<void> {
  await page.goto('/en');
  await waitForHydration(page);
  await page.evaluate(() => {
    window.__chunkMarker = 1;
  });
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(new URL(request.url()).pathname);
  });
}

const notFound = (route: Route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' });

/** Waits until the reload's new document (without the old one's marker) has started its scripts. */
async function waitForNewDocument(): Promise<void> {
  await page.waitForFunction(() => window.__chunkMarker === undefined && document.documentElement.classList.contains('js'), undefined, {
    timeout: scaled(10_000),
  });
  await waitForHydration(page);
}

function reloadStamp(p: Page): Promise<string | null> {
  return p.evaluate((key) => sessionStorage.getItem(key), KEY);
}

function footerLink(name: string) {
  return page.getByRole('contentinfo').getByRole('link', { name, exact: true });
}

describe('chunk-load failures', () => {
  it('a page chunk that no longer exists reloads the page once, and the fresh document shows the page', async () => {
    // The old build's contact chunk is gone until the page reloads (the new document asks the
    // server again and gets it). Routed before the first load, so that the prefetch of the
    // visible Contact link cannot load it either.
    await page.route('**/assets/contact-*.js', (route) => (documents.length === 0 ? notFound(route) : route.continue()));
    await openHome();
    expect(await reloadStamp(page)).toBeNull();

    const before = Date.now();
    await footerLink('Contact').click();
    await expect.poll(() => documents, { timeout: scaled(10_000) }).toEqual(['/en/Contact']);
    await waitForNewDocument();

    // A new document: the marker of the old one is gone.
    expect(await page.evaluate(() => window.__chunkMarker)).toBeUndefined();
    expect(new URL(page.url()).pathname).toBe('/en/Contact');
    expect(await page.locator('h1').innerText()).toBe('Contact');
    const stamp = Number(await reloadStamp(page));
    expect(stamp).toBeGreaterThanOrEqual(before - 1_000);
    expect(stamp).toBeLessThanOrEqual(Date.now());
    // Once only.
    expect(documents).toEqual(['/en/Contact']);
  });

  it('a second chunk failure within 60 s shows the error page instead of reloading again', async () => {
    await page.route('**/assets/contact-*.js', (route) => (documents.length === 0 ? notFound(route) : route.continue()));
    // Another page's chunk is gone for good (the legal pages: the contact form links to the
    // privacy policy, so the reloaded page would prefetch it otherwise).
    await page.route('**/assets/legal-*.js', notFound);
    await openHome();
    await footerLink('Contact').click();
    await expect.poll(() => documents, { timeout: scaled(10_000) }).toEqual(['/en/Contact']);
    await waitForNewDocument();
    await page.evaluate(() => {
      window.__chunkMarker = 2;
    });
    const stamp = await reloadStamp(page);
    expect(stamp).not.toBeNull();

    // Seconds later, that other page is asked for.
    await footerLink('Legal notice').click();
    const error = page.locator('.error-page');
    await error.waitFor({ state: 'visible', timeout: scaled(10_000) });
    expect(await error.locator('h1').innerText()).toBe('Error');
    expect(await error.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/en');
    expect(new URL(page.url()).pathname).toBe('/en/legal');

    // No second reload: the same document, the same stamp.
    expect(await page.evaluate(() => window.__chunkMarker)).toBe(2);
    expect(documents).toEqual(['/en/Contact']);
    expect(await reloadStamp(page)).toBe(stamp);
  });

  it('in Spanish the error page after a second failure reads Error and Volver a la página de inicio', async () => {
    await page.route('**/assets/contact-*.js', notFound);
    await page.goto('/blog');
    await waitForHydration(page);
    // A reload happened a moment ago.
    await page.evaluate((key) => sessionStorage.setItem(key, String(Date.now() - 5_000)), KEY);
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(new URL(request.url()).pathname);
    });

    await page.getByRole('contentinfo').getByRole('link', { name: 'Contacto', exact: true }).click();
    const error = page.locator('.error-page');
    await error.waitFor({ state: 'visible', timeout: scaled(10_000) });
    expect(await error.locator('h1').innerText()).toBe('Error');
    expect(await error.getByRole('link', { name: 'Volver a la página de inicio' }).getAttribute('href')).toBe('/');
    expect(documents).toEqual([]);
  });

  it('when the reloaded document cannot load its chunk either, it does not reload again', async () => {
    // The chunk stays gone: the reloaded /en/Contact cannot start its scripts.
    await page.route('**/assets/contact-*.js', notFound);
    await openHome();
    const gaveUp = page.waitForEvent('console', {
      predicate: (message) => message.text().includes('could not start its scripts'),
      timeout: scaled(10_000),
    });
    await footerLink('Contact').click();
    await gaveUp;

    expect(documents).toEqual(['/en/Contact']);
    // The server-rendered page stays usable.
    expect(await page.locator('h1').innerText()).toBe('Contact');
    expect(await page.evaluate(() => document.documentElement.classList.contains('js'))).toBe(true);
    await page.waitForLoadState('networkidle');
    expect(documents).toEqual(['/en/Contact']);
  });

  it('a reload recorded more than 60 s ago does not block the next one', async () => {
    await page.route('**/assets/contact-*.js', (route) => (documents.length === 0 ? notFound(route) : route.continue()));
    await openHome();
    await page.evaluate((key) => sessionStorage.setItem(key, String(Date.now() - 61_000)), KEY);
    const before = Date.now();
    await footerLink('Contact').click();
    await expect.poll(() => documents, { timeout: scaled(10_000) }).toEqual(['/en/Contact']);
    await waitForNewDocument();
    expect(Number(await reloadStamp(page))).toBeGreaterThanOrEqual(before - 1_000);
  });
});

// (b) Client-side navigation and (c) the locale switcher.
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { collectProblems } from './helpers.ts';

declare global {
  interface Window {
    __marker?: number;
    __reactRouterVersion?: string;
  }
}

const site = setupSite();
let page: Page;
let problems: string[];

beforeEach(async () => {
  page = await site.newPage();
  problems = collectProblems(page);
});

/** The page's SEO links: canonical and the hreflang alternates. */
async function seoLinks(p: Page) {
  return p.evaluate(() => ({
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
    alternates: Object.fromEntries(
      [...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((el) => [el.getAttribute('hreflang'), el.getAttribute('href')]),
    ),
  }));
}

describe('navigation', () => {
  it('React Router runs the page after hydration (window.__reactRouterVersion), and its links navigate without a document load', async () => {
    await page.goto('/en/blog');
    await waitForHydration(page);
    expect(await page.evaluate(() => window.__reactRouterVersion)).toMatch(/^7\./);
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(request.url());
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact' }).first().click();
    await page.waitForURL('**/en/Contact');
    await page.goBack();
    await page.waitForURL('**/en/blog');
    await expect.poll(() => page.locator('h1').innerText()).toBe('Blog');
    expect(documents).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('a client-side navigation happens without a new document load', async () => {
    await page.goto('/en');
    await waitForHydration(page);
    await page.evaluate(() => {
      window.__marker = 1;
    });
    const documents: string[] = [];
    const pageData: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(request.url());
      if (new URL(request.url()).pathname === '/_data') pageData.push(request.url());
    });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog', exact: true }).click();
    await page.waitForURL('**/en/blog');
    await expect.poll(() => page.locator('h1').innerText()).toBe('Blog');

    expect(await page.evaluate(() => window.__marker)).toBe(1);
    expect(documents, 'document requests after the click').toEqual([]);
    // The page's data came from the JSON endpoint instead.
    expect(pageData.map((u) => new URL(u).searchParams.get('path'))).toEqual(['/en/blog']);
    await expect.poll(() => page.title()).toContain('Blog');
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('the locale switcher lists every locale except the current one and keeps the current page', async () => {
    const origin = site.baseURL;
    await page.goto('/blog');
    await waitForHydration(page);
    expect(await page.getAttribute('html', 'lang')).toBe('es');

    const switcher = page.locator('ul.locale-switcher a');
    expect(await switcher.count()).toBe(1);
    expect(await switcher.innerText()).toBe('English');
    expect(await switcher.getAttribute('href')).toBe('/en/blog');
    expect(await seoLinks(page)).toEqual({
      canonical: `${origin}/blog`,
      alternates: { es: `${origin}/blog`, en: `${origin}/en/blog`, 'x-default': `${origin}/blog` },
    });

    await switcher.click();
    await page.waitForURL('**/en/blog');
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('en');
    const navbar = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => navbar.getByRole('link', { name: 'Private Area' }).count()).toBe(1);

    expect(await switcher.count()).toBe(1);
    expect(await switcher.innerText()).toBe('Español');
    expect(await switcher.getAttribute('href')).toBe('/blog');
    expect(await seoLinks(page)).toEqual({
      canonical: `${origin}/en/blog`,
      alternates: { es: `${origin}/blog`, en: `${origin}/en/blog`, 'x-default': `${origin}/blog` },
    });
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

// A page that throws in the browser must not blank the screen: the error page ("Error", status
// 500) shows inside the layout, and when the layout around it fails too, the last-resort page
// shows. The failures are made the way they happen for real: page data the page's code cannot
// handle, on a client navigation and during hydration of a direct load.
import type { BrowserContext, Page, Route } from 'playwright-core';
import { expect, test } from 'vitest';
import { BOOT_ELEMENT_ID } from '../../client/boot.ts';
import { setupSite, waitForHydration } from './fixture.ts';

const site = setupSite();

function newContext(): Promise<BrowserContext> {
  // No service worker: it would answer requests that page.route never sees.
  return site.newContext({ serviceWorkers: 'block', consent: true });
}

/** Answers /_data for `path` with the real answer, changed by `edit`. */
async function editPageData(page: Page, path: string, edit: (payload: Record<string, unknown>) => void): Promise<void> {
  await page.route(
    (url) => url.pathname === '/_data' && url.searchParams.get('path') === path,
    async (route: Route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { kind: string; payload: Record<string, unknown> };
      edit(body.payload);
      await route.fulfill({ response, json: body });
    },
  );
}

/** The visible text of the first match, or '' while there is none (for polling). */
async function visibleText(page: Page, selector: string): Promise<string> {
  const element = page.locator(selector).first();
  return (await element.isVisible()) ? (await element.innerText()).trim() : '';
}

test('a page that throws after a client navigation shows the error page (Error, 500) inside the layout, and the next navigation works', async () => {
  const context = await newContext();
  const page = await context.newPage();
  page.on('console', () => undefined);
  await page.goto('/en');
  await waitForHydration(page);
  // The blog's data without its list: the page's code throws while rendering.
  await editPageData(page, '/en/blog', (payload) => {
    (payload.state as { data: unknown }).data = { posts: null };
  });
  await page.locator('header.navbar a[href="/en/blog"]').first().click();
  await expect.poll(() => visibleText(page, 'main h1')).toBe('Error');
  await expect.poll(() => visibleText(page, 'main .error-status')).toBe('500');
  // The layout stays: the navbar and the footer are there and visible.
  expect(await page.locator('header.navbar').isVisible()).toBe(true);
  expect(await page.locator('footer').first().isVisible()).toBe(true);
  // "Back to the home page" leads on, and the next page renders normally.
  await page.getByRole('link', { name: 'Back to the home page' }).click();
  await page.waitForURL((url) => url.pathname === '/en');
  await expect.poll(() => page.locator('main .error-status').count()).toBe(0);
  expect(await page.locator('main h1').first().isVisible()).toBe(true);
});

test('a page that throws while hydrating a direct load shows the error page inside the layout, not a blank screen', async () => {
  const context = await newContext();
  const page = await context.newPage();
  // The server's markup is right, but the boot data the browser hydrates with is not.
  await page.route('**/en/blog', async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(
      new RegExp(`(<script type="application/json" id="${BOOT_ELEMENT_ID}"[^>]*>)(.*?)(</script>)`),
      (_all, open: string, json: string, close: string) => {
        const boot = JSON.parse(json) as { payload: { state: { data: unknown } } };
        boot.payload.state.data = { posts: null };
        return open + JSON.stringify(boot) + close;
      },
    );
    await route.fulfill({ response, body: html });
  });
  await page.goto('/en/blog');
  await waitForHydration(page);
  await expect.poll(() => visibleText(page, 'main h1')).toBe('Error');
  await expect.poll(() => visibleText(page, 'main .error-status')).toBe('500');
  expect(await page.locator('header.navbar').isVisible()).toBe(true);
});

test('when the layout around the error page fails too, the last-resort page shows with a link home', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await page.goto('/en/Contact');
  await waitForHydration(page);
  // A signed-in user whose name is not text: the navbar itself throws, outside the page's boundary.
  await editPageData(page, '/en/blog', (payload) => {
    payload.user = { name: { first: 'x' }, lastName: 'y', userName: 'x', role: 'CLI', avatar: null, scope: [] };
  });
  await page.locator('header.navbar a[href="/en/blog"]').first().click();
  await expect.poll(() => visibleText(page, 'h1')).toBe('An error occurred while showing the error page');
  const home = page.getByRole('link', { name: 'Go back to home' });
  expect(await home.getAttribute('href')).toBe('/en');
  await home.click();
  await page.waitForURL((url) => url.pathname === '/en');
  await waitForHydration(page);
  expect(await page.locator('header.navbar').isVisible()).toBe(true);
});

test('the last-resort page is in Spanish on a Spanish page', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await page.goto('/Contact');
  await waitForHydration(page);
  await editPageData(page, '/blog', (payload) => {
    payload.user = { name: { first: 'x' }, lastName: 'y', userName: 'x', role: 'CLI', avatar: null, scope: [] };
  });
  await page.locator('header.navbar a[href="/blog"]').first().click();
  await expect.poll(() => visibleText(page, 'h1')).toBe('Se ha producido un error al mostrar la página de error');
  expect(await page.getByRole('link', { name: 'Volver al inicio' }).getAttribute('href')).toBe('/');
});

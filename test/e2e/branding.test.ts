// Per-area branding as the user meets it: the navbar's *computed* background and the logo that
// actually loaded, on a direct load of /client and /organization in every locale form, with and
// without JavaScript, after a no-JS sign-in and after a reload. (A string in the HTML proved
// nothing: the stylesheet's :root defaults used to win the cascade.)
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { loadBrand } from '../../server/brand/brand.ts';
import { scaled } from '../helpers/time-scale.ts';

const PASSWORD = 'correct horse 1';
const USERS = [
  { userName: 'root', role: 'ADMIN', name: 'Rosa' },
  { userName: 'acme', role: 'CLI', name: 'Ana' },
  { userName: 'muni', role: 'ORG', name: 'Olga' },
] as const;
/** Dark red and a dark green: both far from the default teal (rgb(48, 183, 187)). */
const BRANDING = {
  acme: { color: '#8b0000', rgb: 'rgb(139, 0, 0)', area: 'client' },
  muni: { color: '#14532d', rgb: 'rgb(20, 83, 45)', area: 'organization' },
} as const;
const TEAL = 'rgb(48, 183, 187)';
/** A 2×2 PNG (red), small enough for any upload limit. */
const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAwMDAAAAK/wH/xTAjrQAAAABJRU5ErkJggg==',
  'base64',
);

const site = setupSite({ users: USERS.map((user) => ({ ...user, lastName: 'Test' })), password: PASSWORD });
const logos: Record<string, string> = {};

function newContext(options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  return site.newContext({ ...options, consent: true });
}

/** Signs in through the login form (a real POST without JavaScript, fetch with it). */
async function signIn(page: Page, userName: string, javaScript: boolean): Promise<void> {
  await page.goto('/login');
  if (javaScript) await waitForHydration(page);
  await page.locator('#login-identifier').fill(userName);
  await page.locator('#login-password').fill(PASSWORD);
  await page.locator('main form button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
}

async function navbarBackground(page: Page): Promise<string> {
  return page.locator('header.navbar').evaluate((el) => getComputedStyle(el).backgroundColor);
}

/** The logo's src and whether the browser really decoded it (a broken image has no width). */
async function navbarLogo(page: Page): Promise<{ src: string; loaded: boolean }> {
  const logo = page.locator('.navbar-brand img');
  await logo.evaluate((img: HTMLImageElement) =>
    img.complete ? null : new Promise((resolve) => img.addEventListener('load', resolve, { once: true })),
  );
  return logo.evaluate((img: HTMLImageElement) => ({ src: img.getAttribute('src') ?? '', loaded: img.complete && img.naturalWidth > 0 }));
}

beforeAll(async () => {
  // The admin sets each user's colour and logo through the API, as the branding editor does.
  const context = await newContext();
  const page = await context.newPage();
  await signIn(page, 'root', true);
  const headers = { Origin: site.baseURL };
  for (const [userName, { color }] of Object.entries(BRANDING)) {
    const colour = await page.request.put(`/api/admin/branding/${userName}`, { headers, data: { color } });
    expect(colour.status(), await colour.text()).toBe(200);
    const logo = await page.request.put(`/api/admin/branding/${userName}/logo`, {
      headers: { ...headers, 'Content-Type': 'image/png' },
      data: LOGO_PNG,
    });
    expect(logo.status(), await logo.text()).toBe(200);
    logos[userName] = ((await logo.json()) as { branding: { logo: string } }).branding.logo;
  }
  await context.close();
}, scaled(60_000));

describe.each([
  { javaScript: true, label: 'with JavaScript' },
  { javaScript: false, label: 'without JavaScript' },
])('branding in the first paint $label', ({ javaScript }) => {
  test.each(Object.entries(BRANDING))(
    'the %s area shows its colour and logo on a direct load of every locale form and after a reload',
    async (userName, { rgb, area }) => {
      const context = await newContext({ javaScriptEnabled: javaScript });
      const page = await context.newPage();
      // The sign-in lands on the area itself (the role's home): the first page after login.
      await signIn(page, userName, javaScript);
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/${area}`);
      // With JavaScript the sign-in ends in a client navigation: the page shows once its data came.
      await expect.poll(() => navbarBackground(page)).toBe(rgb);
      for (const path of [`/${area}`, `/es/${area}`, `/en/${area}`]) {
        await page.goto(path);
        if (javaScript) await waitForHydration(page);
        expect(await navbarBackground(page), path).toBe(rgb);
        expect(await navbarLogo(page), path).toEqual({ src: logos[userName], loaded: true });
        await page.reload();
        if (javaScript) await waitForHydration(page);
        expect(await navbarBackground(page), `${path} after a reload`).toBe(rgb);
        expect(await navbarLogo(page), `${path} after a reload`).toEqual({ src: logos[userName], loaded: true });
      }
      // Elsewhere the navbar is teal with the default logo.
      await page.goto('/profile');
      expect(await navbarBackground(page)).toBe(TEAL);
      expect((await navbarLogo(page)).src).toBe(loadBrand().page.logos.light);
    },
  );
});

test('a client navigation into the area and out of it applies and removes the branding', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await signIn(page, 'acme', true);
  await page.goto('/profile');
  await waitForHydration(page);
  expect(await navbarBackground(page)).toBe(TEAL);
  await page.evaluate(() => {
    window.history.pushState({}, '', '/client');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect.poll(() => navbarBackground(page)).toBe(BRANDING.acme.rgb);
  await expect.poll(async () => (await navbarLogo(page)).src).toBe(logos.acme);
  await page.goBack();
  await expect.poll(() => navbarBackground(page)).toBe(TEAL);
});

// Dark mode in Chromium (docs/decisions/023): the first paint is already in the right theme (the
// cookie's, else the system's) with no script at all; the navbar's switch changes it without a
// reload and remembers it; on a phone it is in the burger menu and, like every button, control
// and link in a list, at least 44 px high. The switch without JavaScript (a form post) is
// test/ui/theme.test.ts's.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { setupSite, waitForHydration, type PageOptions } from './fixture.ts';

/** The background of each theme (--color-bg) and the navbar's teal, in both. */
const BACKGROUND = { light: 'rgb(255, 255, 255)', dark: 'rgb(14, 24, 25)' } as const;
const TEAL = 'rgb(48, 183, 187)';

const site = setupSite();

async function withContext<T>(options: PageOptions, cookie: string | null, run: (page: Page, context: BrowserContext) => Promise<T>) {
  const context = await site.newContext({ ...options, consent: true });
  if (cookie) await context.addCookies([{ name: 'theme', value: cookie, url: site.baseURL }]);
  return run(await context.newPage(), context);
}

const colours = (page: Page) =>
  page.evaluate(() => ({
    page: getComputedStyle(document.documentElement).backgroundColor,
    navbar: getComputedStyle(document.querySelector('.navbar')!).backgroundColor,
    scheme: getComputedStyle(document.documentElement).colorScheme,
  }));

const themeCookie = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === 'theme');

describe('no flash: the server-rendered first paint is in the right theme, with no script', () => {
  test.each([
    { cookie: 'dark', system: 'light', shown: 'dark' },
    { cookie: 'light', system: 'dark', shown: 'light' },
    { cookie: null, system: 'dark', shown: 'dark' },
    { cookie: null, system: 'light', shown: 'light' },
    { cookie: 'purple', system: 'dark', shown: 'dark' },
  ] as const)('cookie $cookie, system $system: the page is $shown (JavaScript off)', async ({ cookie, system, shown }) => {
    await withContext({ javaScriptEnabled: false, colorScheme: system }, cookie, async (page) => {
      await page.goto('/en/blog');
      expect(await page.locator('html').getAttribute('class')).toBeNull(); // no script ran
      expect(await colours(page)).toEqual({ page: BACKGROUND[shown], navbar: TEAL, scheme: shown });
    });
  });

  test('with JavaScript on but the scripts not yet loaded, the page is already dark', async () => {
    await withContext({ colorScheme: 'light' }, 'dark', async (page) => {
      // The client's scripts never arrive: what shows is the server's markup and the stylesheet.
      await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
      await page.goto('/');
      expect(await colours(page)).toEqual({ page: BACKGROUND.dark, navbar: TEAL, scheme: 'dark' });
    });
  });
});

describe('the switch in the navbar', () => {
  test('with JavaScript it changes the theme at once, without a reload, and remembers it in the cookie', async () => {
    await withContext({ colorScheme: 'light' }, null, async (page, context) => {
      await page.goto('/en/blog');
      await waitForHydration(page);
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      const toDark = page.getByRole('button', { name: 'Switch to the dark theme' });
      const toLight = page.getByRole('button', { name: 'Switch to the light theme' });
      expect(await toLight.isVisible()).toBe(false);

      await toDark.click();
      expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
      expect((await colours(page)).page).toBe(BACKGROUND.dark);
      expect(await themeCookie(context)).toMatchObject({ value: 'dark', path: '/', sameSite: 'Lax', httpOnly: false });
      // The focus moved to the button now shown, the way back.
      expect(await toDark.isVisible()).toBe(false);
      expect(await toLight.evaluate((el) => el === document.activeElement)).toBe(true);

      // Back to the system's own theme: the choice is forgotten.
      await page.keyboard.press('Enter');
      expect(await page.locator('html').getAttribute('data-theme')).toBeNull();
      expect((await colours(page)).page).toBe(BACKGROUND.light);
      expect(await themeCookie(context)).toBeUndefined();
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/en/blog');
    });
  });

  test('with JavaScript, against a dark system, light is remembered and the next page is served light', async () => {
    await withContext({ colorScheme: 'dark' }, null, async (page, context) => {
      await page.goto('/Contact');
      await waitForHydration(page);
      await page.getByRole('button', { name: 'Cambiar al tema claro' }).click();
      // Written by the click's handler, or — a click that beat hydration on a loaded machine — by
      // the form's answer: either way it is there before the next page is asked for.
      await expect.poll(() => themeCookie(context)).toMatchObject({ value: 'light' });
      await page.reload();
      expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
      expect((await colours(page)).page).toBe(BACKGROUND.light);
    });
  });

  test('at 390 px it is in the burger menu, with its words, 44 px high', async () => {
    await withContext({ viewport: { width: 390, height: 844 }, colorScheme: 'light' }, null, async (page) => {
      await page.goto('/en');
      await waitForHydration(page);
      const toDark = page.getByRole('button', { name: 'Switch to the dark theme' });
      expect(await toDark.isVisible()).toBe(false);
      await page.locator('button.navbar-burger').click();
      expect(await toDark.isVisible()).toBe(true);
      expect(await toDark.innerText()).toBe('Switch to the dark theme');
      const box = (await toDark.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThanOrEqual(44);
    });
  });

  test('at 1366 px it is an icon button of at least 44 × 44 px named by its words', async () => {
    await withContext({ viewport: { width: 1366, height: 900 }, colorScheme: 'dark' }, null, async (page) => {
      await page.goto('/en');
      await waitForHydration(page);
      const toLight = page.getByRole('button', { name: 'Switch to the light theme' });
      expect(await toLight.isVisible()).toBe(true);
      // Its words are there for screen readers only (a 1 px clipped box).
      expect((await toLight.locator('.theme-switch-label').boundingBox())!.width).toBeLessThanOrEqual(1);
      const box = (await toLight.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThanOrEqual(44);
    });
  });
});

test('at 390 px every button, form control and link in a list is at least 44 px high (the cookie banner, the contact form, the footer)', async () => {
  const page = await site.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto('/en/Contact');
  await waitForHydration(page);
  await page.locator('.cookie-banner').waitFor();
  const heights = await page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLElement>(
        '.cookie-banner .button, main input:not([type="checkbox"]):not([type="hidden"]), main textarea, main .button, .footer-links a, .footer-link-button',
      ),
    ]
      .filter((el) => el.offsetParent !== null && !el.closest('.honeypot'))
      .map((el) => ({
        what: `${el.tagName.toLowerCase()}.${el.className} ${el.textContent?.trim() ?? ''}`,
        height: el.getBoundingClientRect().height,
      })),
  );
  expect(heights.length).toBeGreaterThan(10);
  expect(heights.filter(({ height }) => height < 44)).toEqual([]);
});

// The signed-in navbar: the avatar with the first and last name is the button of a menu holding
// My Profile and Log-Out; from 1024 px the navbar is one line — its height equals the signed-out
// one — at every width, in both languages, for every role and for a long name; the menu works
// with the keyboard alone; axe finds nothing in it open, in either theme. Without JavaScript (a
// native disclosure) it is test/ui/user-menu.test.ts's. This file starts its own server.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runAxe, setupSite, waitForHydration } from './fixture.ts';
import { ROLE_USERS } from './helpers.ts';

const LONG = { role: 'ORG' as const, userName: 'maxi', name: 'Maximiliana Guadalupe', lastName: 'Fernández-Villaverde de la Concepción' };
const USERS = [...ROLE_USERS, LONG];
const site = setupSite({ users: USERS });

const WIDTHS = [1024, 1280, 1366, 1536];
const LOCALES = [
  { locale: 'es', home: '/', profile: '/profile', nav: 'Principal', myProfile: 'Mi perfil', logout: 'Cerrar sesión' },
  { locale: 'en', home: '/en', profile: '/en/profile', nav: 'Main', myProfile: 'My Profile', logout: 'Log-Out' },
] as const;

const navbarHeight = (page: Page) => page.locator('header.navbar').evaluate((el) => Math.round(el.getBoundingClientRect().height));

/** The vertical centres of the navbar's entries (the brand and each item of the menu). */
const entryCentres = (page: Page) =>
  page
    .locator('.navbar-brand, .navbar-menu > li')
    .evaluateAll((items) => items.map((el) => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2)));

/** One line: every entry centred on the same line, give or take a pixel's rounding. */
const oneLine = (centres: number[]) => Math.max(...centres) - Math.min(...centres) <= 2;

describe('from 1024 px the signed-in navbar is one line, as high as the signed-out one', () => {
  it.each(LOCALES)('$locale: every role and a long name, at 1024, 1280, 1366 and 1536 px', async ({ home, profile }) => {
    // One load per user: the layout follows the viewport as it is resized (CSS alone sets it).
    const visitor = await site.newPage({ consent: true });
    await visitor.goto(home);
    const signedOut = new Map<number, number>();
    for (const width of WIDTHS) {
      await visitor.setViewportSize({ width, height: 800 });
      signedOut.set(width, await navbarHeight(visitor));
    }
    const failures: string[] = [];
    for (const user of USERS) {
      const page = await site.newPage({ as: user.userName });
      await page.goto(profile);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        const height = await navbarHeight(page);
        const centres = await entryCentres(page);
        if (height !== signedOut.get(width) || !oneLine(centres))
          failures.push(
            `${user.userName} at ${width} px: height ${height} (signed out ${signedOut.get(width)}), entries centred at ${centres.join(', ')}`,
          );
      }
      const name = page.locator('.navbar-user-name');
      expect(await name.textContent()).toBe(`${user.name} ${user.lastName}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('the user menu', () => {
  it.each(LOCALES)('$locale: opens and closes with the keyboard alone, Escape gives focus back to its button', async (l) => {
    const page = await site.newPage({ as: 'ada', viewport: { width: 1366, height: 768 } });
    await page.goto(l.profile);
    await waitForHydration(page);
    const navigation = page.getByRole('navigation', { name: l.nav });
    const myProfile = navigation.getByRole('link', { name: l.myProfile });
    const logout = navigation.getByRole('button', { name: l.logout });
    expect(await myProfile.isVisible()).toBe(false);

    await page.locator('.navbar-user-button').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => myProfile.isVisible()).toBe(true);
    expect(await page.locator('.navbar-user').getAttribute('open')).toBe('');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(l.myProfile);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(l.logout);
    expect(await logout.isVisible()).toBe(true);

    await page.keyboard.press('Escape');
    await expect.poll(() => myProfile.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('navbar-user-button');

    // Space opens it too; a click elsewhere closes it.
    await page.keyboard.press(' ');
    await expect.poll(() => myProfile.isVisible()).toBe(true);
    await page.locator('main h1').click();
    await expect.poll(() => myProfile.isVisible()).toBe(false);
  });

  it('My Profile leads to the profile and closes the menu', async () => {
    const page = await site.newPage({ as: 'carla', viewport: { width: 1280, height: 800 } });
    await page.goto('/en');
    await waitForHydration(page);
    await page.locator('.navbar-user-button').click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Profile' }).click();
    await page.waitForURL((url) => url.pathname === '/en/profile');
    await expect.poll(() => page.locator('.navbar-user').getAttribute('open')).toBe(null);
  });

  it('at a phone width it opens in place inside the burger menu', async () => {
    const page = await site.newPage({ as: 'ernesto', viewport: { width: 390, height: 844 } });
    await page.goto('/en/profile');
    await waitForHydration(page);
    const navigation = page.getByRole('navigation', { name: 'Main' });
    await navigation.getByRole('button', { name: 'Open menu' }).click();
    await page.locator('.navbar-user-button').click();
    const myProfile = navigation.getByRole('link', { name: 'My Profile' });
    expect(await myProfile.isVisible()).toBe(true);
    // Not a floating panel over the page: the menu's own flow, within the screen.
    const box = (await myProfile.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it.each(['light', 'dark'] as const)('axe-core finds no violation in the open menu (%s theme)', async (colorScheme) => {
    const page = await site.newPage({ as: 'ada', axe: true, colorScheme, viewport: { width: 1366, height: 768 } });
    await page.goto('/en/profile');
    await waitForHydration(page);
    await page.locator('.navbar-user-button').click();
    const results = await runAxe(page, 'header.navbar');
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

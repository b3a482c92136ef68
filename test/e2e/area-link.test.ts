// Every signed-in user can reach their own area from the interface: the navbar links ADMIN to
// /admin, CLI to /client, ORG to /organization and CONS to /expert, in the current locale form, on
// the wide navbar and inside the burger menu; the home page's "Go to your private area" takes a
// signed-in user to their area instead of to /login (which would only bounce them home). This file
// starts its own server with one user of each role.
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runAxe, setupSite, waitForHydration } from './fixture.ts';
import { ROLE_USERS, type RoleUser } from './helpers.ts';

/** Each role's area and the navbar link's name in each locale. */
const AREA: Record<RoleUser['role'], { base: string; es: string; en: string }> = {
  ADMIN: { base: 'admin', es: 'Administración', en: 'Admin console' },
  CLI: { base: 'client', es: 'Mi área', en: 'My area' },
  ORG: { base: 'organization', es: 'Mi área', en: 'My area' },
  CONS: { base: 'expert', es: 'Mi área', en: 'My area' },
};

/** The two navbars: the wide one at a laptop's width, the burger menu at a phone's. */
const VIEWPORTS = [
  { name: 'wide navbar at 1366 px', width: 1366, height: 768, burger: false, locale: 'es' as const, start: '/profile', nav: 'Principal' },
  { name: 'burger menu at 390 px', width: 390, height: 844, burger: true, locale: 'en' as const, start: '/en/profile', nav: 'Main' },
];

const site = setupSite({ users: ROLE_USERS });

function signedInPage(user: RoleUser, viewport: { width: number; height: number }, extra: BrowserContextOptions = {}): Promise<Page> {
  return site.newPage({ viewport, as: user.userName, ...extra });
}

/** The element's box, and whether it is non-empty and wholly inside the viewport. */
function boxInViewport(locator: Locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return {
      box: `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)} in ${innerWidth}×${innerHeight}`,
      inside: r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
    };
  });
}

describe('the navbar links every signed-in user to their area', () => {
  const cases = ROLE_USERS.flatMap((user) => VIEWPORTS.map((viewport) => ({ user, viewport, role: user.role, where: viewport.name })));

  it.each(cases)('$role: on the $where the area link is visible and leads to the area', async ({ user, viewport }) => {
    const page = await signedInPage(user, viewport);
    await page.goto(viewport.start);
    await waitForHydration(page);
    const area = AREA[user.role];
    const expectedPath = viewport.locale === 'es' ? `/${area.base}` : `/en/${area.base}`;
    const navigation = page.getByRole('navigation', { name: viewport.nav });
    if (viewport.burger) {
      // Folded until the burger opens the menu.
      await navigation.getByRole('button', { name: 'Open menu' }).click();
    }
    const link = navigation.getByRole('link', { name: area[viewport.locale], exact: true });
    expect(await link.count()).toBe(1);
    expect(await link.getAttribute('href')).toBe(expectedPath);
    const box = await boxInViewport(link);
    expect(box.inside, `the area link's box ${box.box}`).toBe(true);

    await link.click();
    await page.waitForURL((url) => url.pathname === expectedPath);
    await waitForHydration(page);
    expect(await page.locator('main h1').isVisible()).toBe(true);
  });
});

describe('the signed-in navbar is accessible', () => {
  it.each(VIEWPORTS)('axe-core finds no violation in the navbar on the $name', async (viewport) => {
    const admin = ROLE_USERS.find((user) => user.role === 'ADMIN')!;
    const page = await signedInPage(admin, viewport, { reducedMotion: 'reduce' });
    await page.goto(viewport.start);
    await waitForHydration(page);
    if (viewport.burger) await page.getByRole('navigation', { name: viewport.nav }).getByRole('button', { name: 'Open menu' }).click();
    const results = await runAxe(page, 'header.navbar');
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

describe('the home page’s "Go to your private area"', () => {
  // CLI, ORG and CONS never see the home page: it sends them to their area.
  const admin = ROLE_USERS.find((user) => user.role === 'ADMIN')!;

  it.each([
    { path: '/', name: 'Ir a tu área privada', expected: '/admin' },
    { path: '/en', name: 'Go to your private area', expected: '/en/admin' },
  ])('takes a signed-in admin from $path to $expected', async ({ path, name, expected }) => {
    const page = await signedInPage(admin, { width: 1366, height: 768 });
    await page.goto(path);
    await waitForHydration(page);
    const cta = page.locator('main').getByRole('link', { name, exact: true });
    expect(await cta.getAttribute('href')).toBe(expected);
    await cta.click();
    await page.waitForURL((url) => url.pathname === expected);
    expect(await page.locator('main h1').isVisible()).toBe(true);
  });

  it('still sends a signed-out visitor to the login page', async () => {
    const page = await site.newPage();
    await page.goto('/en');
    await waitForHydration(page);
    // Signed out, the call to action names the place, not "your" area.
    const cta = page.locator('main .cta-band').getByRole('link', { name: 'Private area', exact: true });
    expect(await cta.getAttribute('href')).toBe('/en/login');
    await cta.click();
    await page.waitForURL((url) => url.pathname === '/en/login');
  });
});

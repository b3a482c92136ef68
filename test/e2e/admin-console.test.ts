// The admin console as pages (docs/decisions/039) in a browser: following the sub-navigation's
// links moves the aria-current mark without a reload; at 390 px no page scrolls sideways; a
// users row's menu works with the keyboard alone (Enter and Space open it, Escape closes it, the
// focus back on its button); axe-core finds nothing on the home and the users page, in the light
// and the dark theme. Each page's own mark and the admin's own row are read from the server's
// HTML in test/ui/admin-console.test.ts. This file starts its own server with one user per role.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runAxe, setupSite, waitForHydration } from './fixture.ts';
import { ROLE_USERS } from './helpers.ts';

const site = setupSite({ users: ROLE_USERS });

/** The console's pages in the order of the sub-navigation, with their link's name in each locale. */
const PAGES = [
  { path: '/admin', en: 'Overview', es: 'Resumen' },
  { path: '/admin/projects', en: 'Projects', es: 'Proyectos' },
  { path: '/admin/users', en: 'Users', es: 'Usuarios' },
  { path: '/admin/inbox', en: 'Contact inbox', es: 'Buzón de contacto' },
  { path: '/admin/audit', en: 'Audit log', es: 'Registro de actividad' },
  { path: '/admin/deletions', en: 'Account deletion', es: 'Eliminación de cuentas' },
  { path: '/admin/branding', en: 'Branding', es: 'Imagen de marca' },
] as const;
const LOCALES = [
  { locale: 'es', prefix: '', nav: 'Secciones de la administración' },
  { locale: 'en', prefix: '/en', nav: 'Sections of the administration' },
] as const;

/** The sub-navigation's links: their names and the one marked as the current page. */
async function subNavigation(page: Page, name: string): Promise<{ links: string[]; current: { text: string; href: string | null }[] }> {
  const nav = page.getByRole('navigation', { name, exact: true });
  const links = (await nav.getByRole('link').allInnerTexts()).map((text) => text.trim());
  const current = await nav
    .locator('[aria-current="page"]')
    .evaluateAll((els) => els.map((el) => ({ text: (el.textContent ?? '').trim(), href: el.getAttribute('href') })));
  return { links, current };
}

describe('the sub-navigation', () => {
  it('following its links moves the mark (with JavaScript, no reload)', async () => {
    const page = await site.newPage({ as: 'ada', viewport: { width: 1366, height: 768 } });
    await page.goto('/en/admin');
    await waitForHydration(page);
    // A mark on the window: it is still there at the end only if no link reloaded the page.
    await page.evaluate(() => ((window as unknown as { stayed?: boolean }).stayed = true));
    const nav = page.getByRole('navigation', { name: 'Sections of the administration', exact: true });
    for (const entry of [...PAGES.slice(1), PAGES[0]]) {
      await nav.getByRole('link', { name: entry.en, exact: true }).click();
      await page.waitForURL((url) => url.pathname === `/en${entry.path}`);
      await expect
        .poll(async () => (await subNavigation(page, 'Sections of the administration')).current)
        .toEqual([{ text: entry.en, href: `/en${entry.path}` }]);
    }
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  });
});

describe('at 390 px', () => {
  it.each(LOCALES)('$locale: no console page scrolls sideways', async ({ prefix }) => {
    const page = await site.newPage({ as: 'ada', viewport: { width: 390, height: 844 } });
    const wide: string[] = [];
    for (const entry of PAGES) {
      const path = `${prefix}${entry.path}`;
      await page.goto(path);
      await waitForHydration(page);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      if (scrollWidth > 390) wide.push(`${path}: ${scrollWidth} px`);
    }
    expect(wide).toEqual([]);
  });
});

describe('a row of the users page', () => {
  const row = (page: Page, userName: string) =>
    page
      .getByRole('region', { name: 'Users', exact: true })
      .locator('tbody tr')
      .filter({ has: page.getByRole('rowheader', { name: userName, exact: true }) });

  it('opens its menu with Enter or Space and closes it with Escape, the focus back on its button', async () => {
    const page = await site.newPage({ as: 'ada', viewport: { width: 1366, height: 768 } });
    await page.goto('/en/admin/users');
    await waitForHydration(page);
    const menu = row(page, 'carla').locator('details.row-menu');
    const summary = menu.locator('summary');
    const disable = row(page, 'carla').getByRole('button', { name: 'Disable carla' });
    const isOpen = () => menu.evaluate((el) => (el as HTMLDetailsElement).open);
    const focusIsOnSummary = () => summary.evaluate((el) => el === document.activeElement);
    expect(await isOpen()).toBe(false);
    expect(await disable.isVisible()).toBe(false);

    await summary.focus();
    await page.keyboard.press('Enter');
    await expect.poll(isOpen).toBe(true);
    await expect.poll(() => disable.isVisible()).toBe(true);
    // Tab walks into the menu: its first control is the role's select.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SELECT');
    expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);

    // Escape, from inside the menu, closes it and gives the focus back to its button.
    await page.keyboard.press('Escape');
    await expect.poll(isOpen).toBe(false);
    expect(await disable.isVisible()).toBe(false);
    expect(await focusIsOnSummary()).toBe(true);

    // Space opens it too; Escape on the button itself closes it.
    await page.keyboard.press(' ');
    await expect.poll(isOpen).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(isOpen).toBe(false);
    expect(await focusIsOnSummary()).toBe(true);
  });
});

describe('axe-core', () => {
  const failures = (results: Awaited<ReturnType<typeof runAxe>>) =>
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

  it.each(['light', 'dark'] as const)('finds nothing on /en/admin (%s theme)', async (colorScheme) => {
    const page = await site.newPage({ as: 'ada', axe: true, colorScheme, viewport: { width: 1366, height: 768 } });
    await page.goto('/en/admin');
    await waitForHydration(page);
    expect(failures(await runAxe(page))).toEqual([]);
  });

  it.each(['light', 'dark'] as const)(
    'finds nothing on /en/admin/users, then with New user and a row menu open (%s theme)',
    async (colorScheme) => {
      const page = await site.newPage({ as: 'ada', axe: true, colorScheme, viewport: { width: 1366, height: 768 } });
      await page.goto('/en/admin/users');
      await waitForHydration(page);
      expect(failures(await runAxe(page))).toEqual([]);
      await page.locator('details.admin-new-user summary').click();
      await page.getByRole('region', { name: 'New user', exact: true }).waitFor();
      const menu = page.locator('details.row-menu').first();
      await menu.locator('summary').click();
      await menu.locator('.row-menu-items').waitFor();
      expect(failures(await runAxe(page))).toEqual([]);
    },
  );
});

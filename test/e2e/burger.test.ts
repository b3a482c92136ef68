// (d) The burger menu: under 1023 px the navbar links fold behind a keyboard-operable button.
import { describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';

const site = setupSite();

describe('burger menu', () => {
  it('under 1023 px the menu opens and closes from the keyboard', async () => {
    const page = await site.newPage({ viewport: { width: 800, height: 900 } });
    await page.goto('/en');
    await waitForHydration(page);
    const burger = page.locator('button.navbar-burger');
    const blog = page.locator('.navbar-menu').getByRole('link', { name: 'Blog', exact: true });
    const privateArea = page.locator('.navbar-menu').getByRole('link', { name: 'Private Area' });

    expect(await burger.isVisible()).toBe(true);
    expect(await blog.isVisible()).toBe(false);
    expect(await privateArea.isVisible()).toBe(false);
    expect(await burger.getAttribute('aria-expanded')).toBe('false');

    // Tab from the top of the page until the burger has the focus (skip link, logo, burger).
    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await burger.evaluate((el) => el === document.activeElement);
    }
    expect(reached, 'the burger button is reachable with Tab').toBe(true);

    await page.keyboard.press('Enter');
    await expect.poll(() => burger.getAttribute('aria-expanded')).toBe('true');
    expect(await blog.isVisible()).toBe(true);
    expect(await privateArea.isVisible()).toBe(true);
    expect(await burger.getAttribute('aria-controls')).toBe(await page.locator('.navbar-menu').getAttribute('id'));

    await page.keyboard.press('Escape');
    await expect.poll(() => burger.getAttribute('aria-expanded')).toBe('false');
    expect(await blog.isVisible()).toBe(false);
  });

  it('at 1200 px the burger is hidden and the links are shown', async () => {
    const page = await site.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto('/en');
    await waitForHydration(page);
    expect(await page.locator('button.navbar-burger').isVisible()).toBe(false);
    expect(await page.locator('.navbar-menu').getByRole('link', { name: 'Blog', exact: true }).isVisible()).toBe(true);
    expect(await page.locator('.navbar-menu').getByRole('link', { name: 'Private Area' }).isVisible()).toBe(true);
    expect(await page.locator('ul.locale-switcher a').isVisible()).toBe(true);
  });
});

// Navbar breakpoints: up to 1023 px the links fold behind the burger, from 1024 px they are
// inline, and from 1087 px the wide layout (more padding, a wider gap). burger.test.ts covers the
// keyboard at 800 px and the links at 1200 px; this file pins the exact breakpoints. The burger's
// names for screen readers and its toggle are checked in process: test/ui/navbar.test.ts and
// test/ui/navbar-burger.test.tsx.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';

const site = setupSite();

function layout(page: Page) {
  return page.evaluate(() => {
    const inner = getComputedStyle(document.querySelector('.navbar-inner')!);
    const menu = document.querySelector('.navbar-menu')!;
    return {
      burgerShown: getComputedStyle(document.querySelector('.navbar-burger')!).display !== 'none',
      menuShown: getComputedStyle(menu).display !== 'none',
      menuDirection: getComputedStyle(menu).flexDirection,
      menuGap: getComputedStyle(menu).columnGap,
      padding: `${inner.paddingTop} ${inner.paddingRight}`,
    };
  });
}

describe('navbar breakpoints', () => {
  it('up to 1023 px the links fold behind the burger; from 1024 px they are inline; from 1087 px the wide layout', async () => {
    const page = await site.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto('/en');
    await waitForHydration(page);
    // --space-2-5 --space-5 below 1087 px, --space-3 --space-8 from 1087 px (16 px root font size).
    const narrow = '10px 20px';
    const wide = '12px 32px';

    const expected: [number, Awaited<ReturnType<typeof layout>>][] = [
      [1000, { burgerShown: true, menuShown: false, menuDirection: 'column', menuGap: '12px', padding: narrow }],
      [1023, { burgerShown: true, menuShown: false, menuDirection: 'column', menuGap: '12px', padding: narrow }],
      [1024, { burgerShown: false, menuShown: true, menuDirection: 'row', menuGap: '20px', padding: narrow }],
      [1086, { burgerShown: false, menuShown: true, menuDirection: 'row', menuGap: '20px', padding: narrow }],
      [1087, { burgerShown: false, menuShown: true, menuDirection: 'row', menuGap: '32px', padding: wide }],
      [1100, { burgerShown: false, menuShown: true, menuDirection: 'row', menuGap: '32px', padding: wide }],
    ];
    for (const [width, want] of expected) {
      await page.setViewportSize({ width, height: 800 });
      expect(await layout(page), `at ${width} px`).toEqual(want);
    }
    // Back under the breakpoint the Blog link is hidden until the burger opens the menu.
    await page.setViewportSize({ width: 1000, height: 800 });
    const blog = page.locator('.navbar-menu').getByRole('link', { name: 'Blog', exact: true });
    expect(await blog.isVisible()).toBe(false);
    await page.locator('button.navbar-burger').click();
    expect(await blog.isVisible()).toBe(true);
  });
});

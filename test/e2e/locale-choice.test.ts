// A visitor who chose Spanish gets Spanish, whatever their browser prefers: the switcher's
// Spanish home is /es (the bare / sends an English browser to /en), on a full load and after a
// reload; with LOCALE_COOKIE on, the choice is recorded for 365 days and decides the bare root.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { LOCALE_COOKIE } from '../../shared/constants.ts';
import { setupServer, setupSite, waitForHydration, type Server } from './fixture.ts';

const site = setupSite();

/** A browser whose languages are English first (Accept-Language: en-US). */
function englishBrowser(server: Server, javaScriptEnabled = true): Promise<BrowserContext> {
  return site.newContext({ server, locale: 'en-US', javaScriptEnabled, consent: true });
}

async function documentLang(page: Page): Promise<string> {
  return page.evaluate(() => document.documentElement.lang);
}

async function chooseSpanish(page: Page, javaScript: boolean): Promise<void> {
  await page.locator('.locale-switcher a[data-locale="es"]').first().click();
  if (javaScript) await expect.poll(() => documentLang(page)).toBe('es');
  else await page.waitForLoadState('load');
}

// Without JavaScript (a plain link and a reload) it is test/ui/locale-choice.test.ts's.
describe.each([{ javaScript: true, label: 'with JavaScript' }])(
  'an English-preferring browser that chooses Spanish $label',
  ({ javaScript }) => {
    test('stays on the Spanish home, also after a reload', async () => {
      const context = await englishBrowser(site, javaScript);
      const page = await context.newPage();
      await page.goto('/');
      // The bare root sends this browser to its language first.
      expect(new URL(page.url()).pathname).toBe('/en');
      if (javaScript) await waitForHydration(page);
      await chooseSpanish(page, javaScript);
      expect(new URL(page.url()).pathname).toBe('/es');
      expect(await documentLang(page)).toBe('es');
      await page.reload();
      expect(new URL(page.url()).pathname).toBe('/es');
      expect(await documentLang(page)).toBe('es');
      expect(await page.locator('.locale-switcher a[data-locale="en"]').first().getAttribute('href')).toBe('/en');
    });
  },
);

describe('with LOCALE_COOKIE=true', () => {
  const server = setupServer({ env: { LOCALE_COOKIE: 'true' } });

  test('the switcher records the choice for 365 days and the bare root follows it', async () => {
    const context = await englishBrowser(server);
    const page = await context.newPage();
    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/en');
    await waitForHydration(page);
    await chooseSpanish(page, true);
    const cookie = (await context.cookies()).find((c) => c.name === LOCALE_COOKIE);
    expect(cookie?.value).toBe('es');
    const days = (cookie!.expires - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);
    expect(cookie?.sameSite).toBe('Lax');
    // The bare root now answers Spanish to this English browser.
    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await documentLang(page)).toBe('es');
    // Choosing English again is recorded too.
    await waitForHydration(page);
    await page.locator('.locale-switcher a[data-locale="en"]').first().click();
    await expect.poll(() => documentLang(page)).toBe('en');
    expect((await context.cookies()).find((c) => c.name === LOCALE_COOKIE)?.value).toBe('en');
    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/en');
  });

  test('without LOCALE_COOKIE the switcher writes no cookie', async () => {
    const context = await englishBrowser(site);
    const page = await context.newPage();
    await page.goto('/en');
    await waitForHydration(page);
    await chooseSpanish(page, true);
    expect((await context.cookies()).some((c) => c.name === LOCALE_COOKIE)).toBe(false);
  });
});

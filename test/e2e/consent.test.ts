// Cookie consent (analytics only when the site is configured for them and only after the visitor
// consents). On a site with no analytics the banner only informs: one "OK", remembered for a
// year. On a server with an analytics id it asks: the banner on a first visit in both locales,
// "only necessary" remembered for a year, the footer's "Cookie settings" reopening it, and
// nothing from the tag manager's host (neither a request nor a CSP entry) until the visitor
// accepts. The buttons without JavaScript (POST /consent, 303 back) are test/ui/consent.test.ts's.
import type { BrowserContext, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupServer, setupSite, waitForHydration } from './fixture.ts';
import { collectProblems } from './helpers.ts';

declare global {
  interface Window {
    __consentMarker?: number;
  }
}

const DAY_S = 24 * 60 * 60;
const GA_ID = 'G-TEST12345';
const GTM_HOST = 'https://www.googletagmanager.com';

const TEXTS = {
  es: {
    path: '/',
    title: 'Cookies en este sitio',
    ok: 'Entendido',
    acceptAll: 'Aceptar todas',
    reject: 'Solo las necesarias',
    settings: 'Configurar',
    save: 'Guardar selección',
    analytics: 'Analítica',
    cookieSettings: 'Configuración de cookies',
  },
  en: {
    path: '/en',
    title: 'Cookies on this site',
    ok: 'OK',
    acceptAll: 'Accept all',
    reject: 'Only necessary',
    settings: 'Settings',
    save: 'Save choice',
    analytics: 'Analytics',
    cookieSettings: 'Cookie settings',
  },
} as const;

const site = setupSite();
/** A server with an analytics id: the banner asks there. */
const server = setupServer({ env: { ANALYTICS_GA_ID: GA_ID } });

const banner = (page: Page) => page.locator('section.cookie-banner');

/** The consent cookie; its value is URL-encoded on the wire (v1%3Aanalytics%3D0), like every cookie Express sets. */
async function consentCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === 'cookie_consent');
}

describe('with no analytics configured the banner is a notice', () => {
  for (const locale of ['es', 'en'] as const) {
    const t = TEXTS[locale];

    it(`informs on the first visit (${locale}) with one "${t.ok}" and no question; "${t.ok}" is remembered for a year`, async () => {
      const context = await site.newContext();
      const page = await context.newPage();
      const problems = collectProblems(page);
      await page.goto(t.path);
      await waitForHydration(page);
      expect(await page.getByRole('region', { name: t.title }).count()).toBe(1);
      expect(await banner(page).getByRole('link').count()).toBe(1);
      expect(await banner(page).getByRole('button').allInnerTexts()).toEqual([t.ok]);
      expect(await banner(page).getByRole('checkbox').count()).toBe(0);

      await banner(page).getByRole('button', { name: t.ok, exact: true }).click();
      await banner(page).waitFor({ state: 'detached' });
      const cookie = await consentCookie(context);
      expect(decodeURIComponent(cookie?.value ?? '')).toBe('v1:notice');
      expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000 + 364 * DAY_S);
      await page.reload();
      await waitForHydration(page);
      expect(await banner(page).count()).toBe(0);
      // "Cookie settings" shows the notice again: still nothing to switch.
      await page.getByRole('contentinfo').getByRole('button', { name: t.cookieSettings }).click();
      await banner(page).waitFor({ state: 'visible' });
      expect(await banner(page).getByRole('button').allInnerTexts()).toEqual([t.ok]);
      expect(problems, problems.join('\n')).toEqual([]);
    });
  }
});

describe('cookie consent banner (a server with an analytics id asks)', () => {
  for (const locale of ['es', 'en'] as const) {
    const t = TEXTS[locale];

    it(`shows on the first visit (${locale}), and "${t.reject}" hides it and is remembered for a year`, async () => {
      const context = await site.newContext({ server });
      const page = await context.newPage();
      const problems = collectProblems(page);
      await page.goto(t.path);
      await waitForHydration(page);
      await page.evaluate(() => {
        window.__consentMarker = 1;
      });
      expect(await banner(page).isVisible()).toBe(true);
      expect(await banner(page).getByRole('heading', { level: 2 }).innerText()).toBe(t.title);
      // A labelled region with the three choices.
      expect(await page.getByRole('region', { name: t.title }).count()).toBe(1);
      for (const name of [t.acceptAll, t.reject, t.settings]) {
        expect(await banner(page).getByRole('button', { name, exact: true }).isVisible(), name).toBe(true);
      }
      expect(await consentCookie(context)).toBeUndefined();

      const posted = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/consent') && r.request().method() === 'POST');
      await banner(page).getByRole('button', { name: t.reject, exact: true }).click();
      expect((await posted).status()).toBe(200);
      await banner(page).waitFor({ state: 'detached' });
      // With JavaScript the choice is sent in the background: no reload.
      expect(await page.evaluate(() => window.__consentMarker)).toBe(1);

      const cookie = await consentCookie(context);
      expect(decodeURIComponent(cookie?.value ?? '')).toBe('v1:analytics=0');
      const now = Date.now() / 1000;
      expect(cookie!.expires).toBeGreaterThan(now + 364 * DAY_S);
      expect(cookie!.expires).toBeLessThan(now + 366 * DAY_S);
      expect(cookie!.path).toBe('/');
      expect(cookie!.sameSite).toBe('Lax');

      // The choice survives a reload.
      await page.reload();
      await waitForHydration(page);
      expect(await banner(page).count()).toBe(0);
      expect(problems, problems.join('\n')).toEqual([]);
    });
  }

  it('the footer "Cookie settings" button reopens the banner with the saved choice, which can be changed', async () => {
    const context = await site.newContext({ server, serviceWorkers: 'block', consent: true });
    await context.route(/^https:\/\/([a-z0-9-]+\.)*(googletagmanager|google-analytics)\.com\//, (route: Route) =>
      route.fulfill({ status: 200, contentType: 'application/javascript', body: '' }),
    );
    const page = await context.newPage();
    const t = TEXTS.en;
    await page.goto('/en/blog');
    await waitForHydration(page);
    expect(await banner(page).count()).toBe(0);

    await page.getByRole('contentinfo').getByRole('button', { name: t.cookieSettings }).click();
    await banner(page).waitFor({ state: 'visible' });
    // Reopened on the settings, showing the current choice.
    const analytics = banner(page).getByRole('checkbox', { name: t.analytics });
    expect(await analytics.isChecked()).toBe(false);
    await analytics.check();
    // Analytics accepted where they exist: the page loads again (only a new response carries the tags).
    const reloaded = page.waitForResponse((r) => r.request().isNavigationRequest() && r.request().frame() === page.mainFrame());
    await banner(page).getByRole('button', { name: t.save, exact: true }).click();
    await reloaded;
    await waitForHydration(page);
    expect(await banner(page).count()).toBe(0);
    await expect.poll(async () => decodeURIComponent((await consentCookie(context))?.value ?? '')).toBe('v1:analytics=1');

    // In Spanish the same button.
    await page.goto('/blog');
    await waitForHydration(page);
    await page.getByRole('contentinfo').getByRole('button', { name: TEXTS.es.cookieSettings }).click();
    await banner(page).waitFor({ state: 'visible' });
    expect(await banner(page).getByRole('checkbox', { name: TEXTS.es.analytics }).isChecked()).toBe(true);
  });
});

describe('analytics only after consent (a server with an analytics id)', () => {
  /** A context on that server whose requests to the tag manager are answered locally and recorded. */
  async function analyticsContext(): Promise<{ context: BrowserContext; page: Page; tagRequests: string[] }> {
    const context = await site.newContext({ server, serviceWorkers: 'block' });
    const tagRequests: string[] = [];
    await context.route(/^https:\/\/([a-z0-9-]+\.)*(googletagmanager|google-analytics)\.com\//, (route: Route) => {
      tagRequests.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'application/javascript', body: '' });
    });
    const page = await context.newPage();
    return { context, page, tagRequests };
  }

  it('before consent nothing is requested from the tag manager and the CSP does not allow it; "Accept all" reloads with the gtag script', async () => {
    const { context, page, tagRequests } = await analyticsContext();
    const first = await page.goto('/en');
    await waitForHydration(page);
    const csp = first?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('googletagmanager');
    expect(csp).not.toContain('google-analytics');
    expect(await page.locator('script[src*="googletagmanager"]').count()).toBe(0);
    expect(tagRequests).toEqual([]);
    // The banner says analytics are used if allowed.
    expect(await banner(page).innerText()).toContain('analytics cookies');

    const reloaded = page.waitForResponse((r) => r.request().isNavigationRequest() && r.request().frame() === page.mainFrame());
    await banner(page).getByRole('button', { name: TEXTS.en.acceptAll, exact: true }).click();
    const second = await reloaded;
    expect(new URL(second.url()).pathname).toBe('/en');
    const allowed = second.headers()['content-security-policy'] ?? '';
    expect(allowed).toMatch(new RegExp(`script-src [^;]*${GTM_HOST.replace(/\./g, '\\.')}`));
    await expect.poll(() => tagRequests).toContain(`${GTM_HOST}/gtag/js?id=${GA_ID}`);
    await waitForHydration(page);
    expect(await banner(page).count()).toBe(0);
    expect(decodeURIComponent((await consentCookie(context))?.value ?? '')).toBe('v1:analytics=1');
    // The inline configuration ran under the CSP (it carries the nonce).
    expect(await page.evaluate(() => Array.isArray((window as { dataLayer?: unknown[] }).dataLayer))).toBe(true);
  });

  it('"Only necessary" never loads analytics, even after reloads', async () => {
    const { context, page, tagRequests } = await analyticsContext();
    await page.goto('/');
    await waitForHydration(page);
    await banner(page).getByRole('button', { name: TEXTS.es.reject, exact: true }).click();
    await banner(page).waitFor({ state: 'detached' });
    await expect.poll(async () => decodeURIComponent((await consentCookie(context))?.value ?? '')).toBe('v1:analytics=0');
    const again = await page.reload();
    await waitForHydration(page);
    expect(again?.headers()['content-security-policy']).not.toContain('googletagmanager');
    expect(await page.locator('script[src*="googletagmanager"]').count()).toBe(0);
    expect(tagRequests).toEqual([]);
  });
});

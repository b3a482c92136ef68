// Lighthouse-style best-practice checks on the home page in both locales, in the same Chromium:
// no console errors, no issues in the DevTools Issues panel (CSP, deprecations, mixed content,
// cookies, heavy ads…), images with explicit dimensions, <html lang>, a viewport, a title and a
// description, a secure origin, a declared charset, no document.write, a name for every link,
// and tap targets of at least 24×24 px at a phone width.
import type { CDPSession } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { collectProblems } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

declare global {
  interface Window {
    __documentWrites?: number;
  }
}

/** The kinds of DevTools issues Lighthouse's "inspector-issues" audit fails on. */
const FAILING_ISSUES = [
  'ContentSecurityPolicyIssue',
  'DeprecationIssue',
  'MixedContentIssue',
  'CookieIssue',
  'HeavyAdIssue',
  'BlockedByResponseIssue',
  'CorsIssue',
  'SharedArrayBufferIssue',
  'QuirksModeIssue',
  'GenericIssue',
];

const MOBILE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };

type AXNode = { role?: { value?: string }; name?: { value?: string }; ignored?: boolean; backendDOMNodeId?: number };

const site = setupSite();

async function collectIssues(cdp: CDPSession): Promise<{ code: string; details: unknown }[]> {
  const issues: { code: string; details: unknown }[] = [];
  cdp.on('Audits.issueAdded', (event: { issue: { code: string; details: unknown } }) => issues.push(event.issue));
  await cdp.send('Audits.enable');
  return issues;
}

describe('best practices on the home page', () => {
  for (const { path, lang } of [
    { path: '/', lang: 'es' },
    { path: '/en', lang: 'en' },
  ]) {
    it(`${path} passes the best-practice checks`, async () => {
      const context = await site.newContext();
      const page = await context.newPage();
      const problems = collectProblems(page);
      // Any document.write / writeln from any script is counted.
      await page.addInitScript(() => {
        window.__documentWrites = 0;
        for (const name of ['write', 'writeln'] as const) {
          const original = Document.prototype[name];
          Document.prototype[name] = function (this: Document, ...args: string[]) {
            window.__documentWrites = (window.__documentWrites ?? 0) + 1;
            return original.apply(this, args);
          };
        }
      });
      const cdp = await context.newCDPSession(page);
      const issues = await collectIssues(cdp);

      const response = await page.goto(path);
      await waitForHydration(page);
      // A client navigation and back, so that the runtime's own code paths run too.
      await page
        .locator('.navbar-menu')
        .getByRole('link', { name: 'Blog', exact: true })
        .click({ timeout: scaled(5_000) });
      await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Blog', undefined, { timeout: scaled(10_000) });
      await page.goBack({ timeout: scaled(10_000) });
      await page.waitForFunction(
        (p) => location.pathname === p && document.querySelector('main')?.getAttribute('data-load-state') === 'done',
        path,
        { timeout: scaled(10_000) },
      );
      await page.waitForLoadState('networkidle');

      expect(problems, problems.join('\n')).toEqual([]);
      const failing = issues.filter((issue) => FAILING_ISSUES.includes(issue.code));
      expect(failing, JSON.stringify(failing, null, 2)).toEqual([]);

      // Charset: declared in the Content-Type header or a <meta charset> in the first 1024 bytes.
      const html = await (await context.request.get(path)).text();
      const contentType = response?.headers()['content-type'] ?? '';
      expect(/charset=utf-8/i.test(contentType) || /<meta charset="utf-8"/i.test(html.slice(0, 1024)), contentType).toBe(true);
      expect(html.trimStart().toLowerCase().startsWith('<!doctype html>')).toBe(true);

      const facts = await page.evaluate(() => ({
        lang: document.documentElement.getAttribute('lang'),
        viewport: document.querySelector('meta[name="viewport"]')?.getAttribute('content') ?? null,
        title: document.title,
        description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '',
        characterSet: document.characterSet,
        doctype: document.doctype?.name ?? null,
        secure: window.isSecureContext,
        protocol: location.protocol,
        hostname: location.hostname,
        writes: window.__documentWrites ?? -1,
        images: [...document.images].map((img) => ({
          src: img.getAttribute('src'),
          width: img.getAttribute('width'),
          height: img.getAttribute('height'),
          ratioOk:
            !img.naturalWidth ||
            Math.abs(img.naturalWidth / img.naturalHeight - img.getBoundingClientRect().width / img.getBoundingClientRect().height) < 0.05,
        })),
      }));
      expect(facts.lang).toBe(lang);
      expect(facts.viewport).toMatch(/width=device-width/);
      expect(facts.viewport).not.toMatch(/user-scalable=no|maximum-scale=1(\.0)?\b/);
      expect(facts.title.trim().length).toBeGreaterThan(0);
      expect(facts.description.trim().length).toBeGreaterThan(20);
      expect(facts.characterSet).toBe('UTF-8');
      expect(facts.doctype).toBe('html');
      expect(facts.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(facts.hostname), facts.protocol).toBe(true);
      expect(facts.secure).toBe(true);
      expect(facts.writes).toBe(0);
      expect(facts.images.length).toBeGreaterThan(0);
      for (const img of facts.images) {
        expect(img.width, `${img.src} width`).toMatch(/^\d+$/);
        expect(img.height, `${img.src} height`).toMatch(/^\d+$/);
        expect(img.ratioOk, `${img.src} is shown in its own aspect ratio`).toBe(true);
      }

      // Every link has an accessible name, as Chromium computes it.
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
      const links = nodes.filter((n) => !n.ignored && n.role?.value === 'link');
      expect(links.length).toBeGreaterThan(5);
      const unnamed = links.filter((n) => !n.name?.value?.trim());
      expect(unnamed, JSON.stringify(unnamed)).toEqual([]);
    });

    it(`${path} at 390 px: buttons and navbar links are tap targets of at least 24×24 px`, async () => {
      const page = await site.newPage(MOBILE);
      await page.goto(path);
      await waitForHydration(page);
      // The navbar's links are behind the burger at this width: open it to measure them.
      await page.locator('button.navbar-burger').click();
      await page.locator('.navbar-menu[data-open="true"]').waitFor();
      const targets = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('button, .navbar a')]
          .filter((el) => el.checkVisibility())
          .map((el) => {
            const r = el.getBoundingClientRect();
            const label = (el.textContent ?? '').trim() || el.getAttribute('aria-label') || el.className;
            return {
              target: `${el.tagName.toLowerCase()} "${label}"`,
              width: Math.round(r.width * 10) / 10,
              height: Math.round(r.height * 10) / 10,
            };
          }),
      );
      // The burger, the cookie banner's button (a notice: no analytics configured), "Cookie
      // settings", and the navbar's logo, Blog, language and Private Area links.
      expect(targets.length).toBeGreaterThanOrEqual(7);
      const small = targets.filter((t) => t.width < 24 || t.height < 24);
      expect(small, small.map((t) => `${t.target}: ${t.width}×${t.height}`).join('\n')).toEqual([]);
    });
  }
});

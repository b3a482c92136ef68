// Every page of the route table (test/helpers/sample-urls.ts), signed out or as the role that
// sees it, met once as a first visitor on a 390 px phone meets it (the cookie banner showing,
// the site's real CSP): it answers its status without a redirect, hydrates without a console
// error or warning or an uncaught error, has one h1 in the page's language, scrolls no wider
// than the screen, and axe-core finds no accessibility violation in it (the light theme; the
// dark one is a11y.test.ts's). One load carries all of these checks: a page costs a browser
// load once, not once per check (docs/decisions/047).
import type { AxeResults } from 'axe-core';
import { describe, expect, it } from 'vitest';
import { PHONE, runAxe, setupSite, waitForHydration } from './fixture.ts';
import { collectProblems, describeViolations, EVERY_PAGE, SAMPLE_SITE, userOf } from './helpers.ts';

const site = setupSite(SAMPLE_SITE);

describe('every page', () => {
  it.each(EVERY_PAGE)(
    '$path ($visitor) answers $status, hydrates with no console problems, fits a 390 px phone and has no axe violations',
    async ({ base, path, locale, role, status, h1 }) => {
      // The light theme (no theme cookie: the system's, light here); reduced motion: no element is
      // measured halfway through a fade (the banner's contrast would be off).
      const page = await site.newPage({ viewport: PHONE, colorScheme: 'light', reducedMotion: 'reduce', as: role && userOf(role) });
      const problems = collectProblems(page, { documentStatus: status });

      const response = await page.goto(path);
      expect(response?.status(), `status of ${path}`).toBe(status);
      expect(new URL(page.url()).pathname, 'no redirect').toBe(path);
      await waitForHydration(page);

      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      await expect.poll(() => page.locator('h1').count()).toBe(1);
      if (h1) expect(await page.locator('h1').innerText()).toMatch(h1);
      // The 404 page (the notFound route's, and any address no route matches) leads home; a link's
      // page opened without its link answers 404 too, but says why the link does not work.
      if (base === 'notFound' || base === undefined) {
        const home = page.getByRole('link', { name: locale === 'en' ? 'Back to the home page' : 'Volver a la página de inicio' });
        expect(await home.getAttribute('href')).toBe(locale === 'en' ? '/en' : '/');
      }

      // No horizontal scrolling on a phone, the cookie banner showing.
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth, 'no horizontal scrolling at 390 px').toBeLessThanOrEqual(innerWidth);

      const results: AxeResults = await runAxe(page);
      expect(results.violations, describeViolations(results)).toEqual([]);

      // React is attached: the burger button's handler runs.
      const burger = page.locator('button.navbar-burger');
      expect(await burger.getAttribute('aria-expanded')).toBe('false');
      await burger.click();
      await expect.poll(() => burger.getAttribute('aria-expanded')).toBe('true');

      expect(problems, problems.join('\n')).toEqual([]);
    },
  );
});

// (a) Every page of the route table (test/helpers/sample-urls.ts), signed out or as the role that
// sees it, renders on the server and hydrates in the browser without a console error or warning
// and without an uncaught error.
import { describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { collectProblems, EVERY_PAGE, SAMPLE_SITE, userOf } from './helpers.ts';

const site = setupSite(SAMPLE_SITE);

describe('every page', () => {
  it.each(EVERY_PAGE)(
    '$path ($visitor) renders with status $status and hydrates with no console errors, warnings or page errors',
    async ({ base, path, locale, role, status, h1 }) => {
      // 800 px wide: the burger menu is shown, which lets us check that React is attached.
      const page = await site.newPage({ viewport: { width: 800, height: 900 }, as: role && userOf(role) });
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

      // React is attached: the burger button's handler runs.
      const burger = page.locator('button.navbar-burger');
      expect(await burger.getAttribute('aria-expanded')).toBe('false');
      await burger.click();
      await expect.poll(() => burger.getAttribute('aria-expanded')).toBe('true');

      expect(problems, problems.join('\n')).toEqual([]);
    },
  );
});

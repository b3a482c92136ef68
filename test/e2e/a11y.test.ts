// (e) axe-core finds no accessibility violation on any page of the route table
// (test/helpers/sample-urls.ts), signed out or as the role that sees it, in the dark theme (the
// `theme` cookie: the server renders the page dark, docs/decisions/023). The light theme is checked
// on every page in every locale by pages.test.ts, in the same load as its other checks; colours do
// not depend on the words, so the dark theme is checked in the default locale (plus the unknown
// address's 404).
import { describe, expect, it } from 'vitest';
import { defaultLocale } from '../../shared/locales.ts';
import { THEMES } from '../../shared/theme.ts';
import { runAxe, setupSite, waitForHydration } from './fixture.ts';
import { describeViolations, EVERY_PAGE, SAMPLE_SITE, userOf } from './helpers.ts';

const site = setupSite(SAMPLE_SITE);

const DARK_THEMES = THEMES.filter((theme) => theme !== 'light');
const CASES = DARK_THEMES.flatMap((theme) =>
  EVERY_PAGE.filter((page) => page.locale === defaultLocale || page.base === undefined).map((page) => ({ ...page, theme })),
);

describe('accessibility', () => {
  it.each(CASES)('axe-core reports no violations on $path ($visitor) in the $theme theme', async ({ path, role, theme }) => {
    // axe: the site's CSP allows only scripts carrying the request's nonce, so the injected
    // axe-core script would be blocked. Only the axe tests relax it; the others run under the real
    // CSP. Reduced motion: no element is measured halfway through a fade (its contrast would be off).
    const context = await site.newContext({ axe: true, as: role && userOf(role) });
    await context.addCookies([{ name: 'theme', value: theme, url: site.baseURL }]);
    const page = await context.newPage();
    await page.goto(path);
    await waitForHydration(page);
    const results = await runAxe(page);
    expect(results.violations, describeViolations(results)).toEqual([]);
  });
});

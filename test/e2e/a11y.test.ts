// (e) axe-core finds no accessibility violation on any page of the route table
// (test/helpers/sample-urls.ts), signed out or as the role that sees it, in every locale and both
// themes (the `theme` cookie: the server renders the page light or dark, docs/decisions/023).
import type { AxeResults } from 'axe-core';
import { describe, expect, it } from 'vitest';
import { THEMES } from '../../shared/theme.ts';
import { runAxe, setupSite, waitForHydration } from './fixture.ts';
import { EVERY_PAGE, SAMPLE_SITE, userOf } from './helpers.ts';

function describeViolations(results: AxeResults): string {
  return results.violations
    .map(
      (v) =>
        `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(' ')}\n    ${(n.failureSummary ?? '').replace(/\n/g, '\n    ')}`).join('\n')}`,
    )
    .join('\n');
}

const site = setupSite(SAMPLE_SITE);

const CASES = THEMES.flatMap((theme) => EVERY_PAGE.map((page) => ({ ...page, theme })));

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

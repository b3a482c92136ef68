// (e) axe-core finds no accessibility violation on any public page, in both locales and both
// themes (the `theme` cookie: the server renders the page light or dark, docs/decisions/023).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEMES } from '../../shared/theme.ts';
import { baseURL, contextOptions, launchBrowser, PUBLIC_PAGES, waitForHydration } from './helpers.ts';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

declare global {
  interface Window {
    axe: { run: () => Promise<AxeResults> };
  }
}

function describeViolations(results: AxeResults): string {
  return results.violations
    .map(
      (v) =>
        `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(' ')}\n    ${(n.failureSummary ?? '').replace(/\n/g, '\n    ')}`).join('\n')}`,
    )
    .join('\n');
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const CASES = THEMES.flatMap((theme) => PUBLIC_PAGES.map((page) => ({ ...page, theme })));

describe('accessibility', () => {
  it.each(CASES)('axe-core reports no violations on $path in the $theme theme', async ({ path, theme }) => {
    // bypassCSP: the site's CSP allows only scripts carrying the request's nonce, so the injected
    // axe-core script would be blocked. Only this test relaxes it; the others run under the real CSP.
    // Reduced motion: no element is measured halfway through a fade (its contrast would be off).
    const context = await browser.newContext(contextOptions({ bypassCSP: true, reducedMotion: 'reduce' }));
    try {
      await context.addCookies([{ name: 'theme', value: theme, url: baseURL() }]);
      const page = await context.newPage();
      await page.goto(path);
      await waitForHydration(page);
      await page.addScriptTag({ content: AXE_SOURCE });
      const results = await page.evaluate(() => window.axe.run());
      expect(results.violations, describeViolations(results)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

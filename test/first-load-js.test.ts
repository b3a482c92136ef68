import { expect, test } from 'vitest';
import { FIRST_LOAD_JS_BUDGET_BYTES, firstLoadJs } from '../scripts/bench/first-load-js.ts';
import { PATHS } from '../server/base/paths.ts';

// First-load JavaScript of the home page ≤ 110,000 B gzip -9, React Router and i18next included
// (deterministic: the same build gives the same bytes).
test('the home page’s first-load JavaScript stays within 110,000 bytes gzip -9', () => {
  expect(FIRST_LOAD_JS_BUDGET_BYTES).toBe(110_000);
  const result = firstLoadJs(PATHS.manifest, 'home');
  expect(result.files.length).toBeGreaterThan(1);
  expect(result.gzipBytes).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET_BYTES);
});

// The console was one page of 127,938 B; each of its pages now loads its own section only (docs/decisions/039).
const CONSOLE_PAGES = ['admin', 'admin-projects', 'admin-users', 'admin-inbox', 'admin-audit', 'admin-deletions', 'admin-branding'];
test.each(CONSOLE_PAGES)('the admin console page %s’s first-load JavaScript stays within 120,000 bytes gzip -9', (page) => {
  expect(firstLoadJs(PATHS.manifest, page).gzipBytes).toBeLessThanOrEqual(120_000);
});

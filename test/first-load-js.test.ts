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

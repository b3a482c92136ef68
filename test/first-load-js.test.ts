import { expect, test } from 'vitest';
import { FIRST_LOAD_JS_BUDGET_BYTES, firstLoadJs } from '../scripts/bench/first-load-js.ts';
import { PATHS } from '../server/paths.ts';

// Issue 7: first-load JavaScript of the home page ≤ 94,000 B gzip -9 (deterministic: the same
// build gives the same bytes).
test('the home page’s first-load JavaScript stays within 94,000 bytes gzip -9', () => {
  const result = firstLoadJs(PATHS.manifest, 'home');
  expect(result.files.length).toBeGreaterThan(1);
  expect(result.gzipBytes).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET_BYTES);
});

// Every refusal the server names has words for people in every language: a form, a console screen
// or a page shows `formErrors.<code>` in the reader's language, never the API's English message.
// The codes are read from the source (`new ApiError(status, 'code', …)` and
// `TooManyAttemptsError(wait, 'code', …)`), so a new refusal without words fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PATHS } from '../server/base/paths.ts';
import { LOCALE_CODES } from '../shared/locales.ts';
import { MESSAGES } from './helpers/render-ui.tsx';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') || entry.name.endsWith('.tsx') ? [path] : [];
  });
}

const CODES = [
  ...new Set(
    sourceFiles(join(PATHS.root, 'server')).flatMap((file) => {
      const source = readFileSync(file, 'utf8');
      return [...source.matchAll(/(?:ApiError\(\d{3}|TooManyAttemptsError\(\w+), '([a-z_]+)'/g)].map((match) => match[1]!);
    }),
  ),
].sort();

test('the server’s refusals are found in the source (the scan works)', () => {
  expect(CODES.length).toBeGreaterThan(50);
  expect(CODES).toEqual(expect.arrayContaining(['user_not_found', 'too_many_invitations', 'self_lockout']));
});

test.each(LOCALE_CODES.flatMap((locale) => CODES.map((code) => ({ locale, code }))))(
  'the refusal $code has words for people in $locale (formErrors.$code)',
  ({ locale, code }) => {
    const words = (MESSAGES[locale].formErrors as Record<string, unknown>)[code];
    expect(typeof words === 'string' && words.length > 0, `formErrors.${code} in locales/${locale}/common.json`).toBe(true);
  },
);

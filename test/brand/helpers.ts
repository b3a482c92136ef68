// A brand/ folder of the test's own: the project's files with changes, in a temporary folder.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBrand, type Brand } from '../../server/brand/brand.ts';
import { PATHS } from '../../server/base/paths.ts';
import { LOCALE_CODES, type Locale } from '../../shared/locales.ts';

/** The project's brand.json, parsed (a fresh copy each time). */
export function brandJson(): Record<string, unknown> {
  return JSON.parse(readFileSync(join(PATHS.brand, 'brand.json'), 'utf8')) as Record<string, unknown>;
}

/** A copy of brand/ with `change` applied to brand.json and `files` written over the copy's. */
export function brandFolder(
  change: (json: Record<string, unknown>) => unknown = (json) => json,
  files: Record<string, string> = {},
): string {
  const dir = mkdtempSync(join(tmpdir(), 'brand-'));
  cpSync(PATHS.brand, dir, { recursive: true });
  const json = brandJson();
  writeFileSync(join(dir, 'brand.json'), typeof change === 'function' ? JSON.stringify(change(json) ?? json) : '');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/**
 * A text of brand.json in every locale of the table, as brand.json must have it: the words given,
 * and the English ones for a locale the test has no words of (a test checks only the words it gives).
 */
export function inEveryLocale(words: Partial<Record<Locale, string>> & { en: string }): Record<Locale, string> {
  return Object.fromEntries(LOCALE_CODES.map((locale) => [locale, words[locale] ?? words.en])) as Record<Locale, string>;
}

/** Another company: a dark navy primary colour, its own contact details and tagline. */
export function otherBrand(): Brand {
  return loadBrand(
    brandFolder((json) => ({
      ...json,
      tagline: inEveryLocale({ es: 'Ingeniería de datos con cabeza', en: 'Data engineering with a head on its shoulders' }),
      contact: {
        email: 'info@acme-consulting.example',
        phone: '+44 20 7946 0000',
        address: { street: '1 Example Street', postalCode: 'EC1A 1BB', city: 'London', country: 'GB' },
        openingHours: [{ days: ['Mo', 'Tu', 'We', 'Th'], opens: '08:30', closes: '17:00' }],
      },
      colors: { primary: '#1D2B4F', accent: '#1D2B4F' },
    })),
  );
}

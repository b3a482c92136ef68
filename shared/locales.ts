import { DEFAULT_LOCALE } from './constants.ts';

// The two locales: Español (es, es-ES); English (en, en-US).
export const LOCALES = [
  { code: 'es', iso: 'es-ES', name: 'Español' },
  { code: 'en', iso: 'en-US', name: 'English' },
] as const;

export type Locale = (typeof LOCALES)[number]['code'];

export const LOCALE_CODES: readonly Locale[] = LOCALES.map((l) => l.code);

/** The whitelist: nothing else may become a locale (and so never a file path). */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALE_CODES as readonly string[]).includes(value);
}

/** The BCP 47 tag every date and number of a locale is formatted with (es-ES, en-US). */
export function intlLocale(code: Locale): (typeof LOCALES)[number]['iso'] {
  return localeInfo(code).iso;
}

export function localeInfo(code: Locale) {
  const info = LOCALES.find((l) => l.code === code);
  if (!info) throw new Error(`Unknown locale ${code}`);
  return info;
}

export const defaultLocale: Locale = DEFAULT_LOCALE;

/**
 * The locale a path is in, by its first segment exactly: `/en` and `/en/x` are English, `/es/x`
 * Spanish, and anything else — `/entries`, `/EN/x`, `//en/x`, `/` — the default locale's.
 */
export function localeOf(path: string): Locale {
  const first = path.split('/')[1];
  return isLocale(first) ? first : defaultLocale;
}

/** `path` under a locale's prefix: `/x` → `/en/x`, and the home `/` → `/en` (no trailing slash). */
export function prefixedPath(path: string, locale: Locale): string {
  return path === '/' ? `/${locale}` : `/${locale}${path}`;
}

/**
 * A path in the form the site links in a locale: the default locale's unprefixed (`/x`, `/`),
 * the others' under their prefix (`/en/x`, `/en`). `path` is written unprefixed.
 */
export function localeHref(path: string, locale: Locale): string {
  return locale === defaultLocale ? path : prefixedPath(path, locale);
}

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

import { DEFAULT_LOCALE } from './constants.ts';

// seed-spec §3: Español (es, es-ES); English (en, en-US).
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
 * The first supported language of an Accept-Language header, by quality, or null.
 * Garbage yields null, never an exception.
 */
export function preferredLocale(acceptLanguage: string | undefined): Locale | null {
  if (!acceptLanguage || acceptLanguage.length > 1000) return null;
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { base: tag.trim().toLowerCase().split('-')[0] ?? '', quality, index };
    })
    .filter((x) => Number.isFinite(x.quality) && x.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { base } of ranked) if (isLocale(base)) return base;
  return null;
}

/**
 * DESIGN.md §3: the locale of the bare root `/`. The cookie (only when enabled, and only a
 * whitelisted value) wins, then the first supported browser language, else the default.
 */
export function resolveRootLocale(input: { cookie?: unknown; acceptLanguage?: string | undefined }): Locale {
  if (isLocale(input.cookie)) return input.cookie;
  return preferredLocale(input.acceptLanguage) ?? defaultLocale;
}

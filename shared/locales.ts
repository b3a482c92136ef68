// The locale table: every fact of a locale the code needs, in one place. A locale is an entry here,
// its messages in locales/<code>/ and its content files in content/; no other source file names
// one (test/locale-table.test.ts). What differs between locales is read from the entry or from the
// messages, or derived by Intl from the entry's `iso` (language names, dates, numbers).

/**
 * Each locale: its code (the URL prefix, the messages' folder, the content files' name), the
 * BCP 47 tag its dates and numbers are formatted with (also og:locale's and the manifest's), its
 * name in itself (the language switcher), and the last-resort page's words — kept here, out of
 * the message files, because that page shows when the messages themselves failed. Its
 * `searchLanguage` is the language PostgreSQL's full-text search stems it as (a name of its own
 * text search configurations; server/search/).
 */
export const LOCALES = [
  {
    code: 'es',
    iso: 'es-ES',
    name: 'Español',
    searchLanguage: 'spanish',
    lastResort: { title: 'Se ha producido un error al mostrar la página de error', home: 'Volver al inicio' },
  },
  {
    code: 'en',
    iso: 'en-US',
    name: 'English',
    searchLanguage: 'english',
    lastResort: { title: 'An error occurred while showing the error page', home: 'Go back to home' },
  },
] as const;

export type Locale = (typeof LOCALES)[number]['code'];

/** The locale of unprefixed paths, of a request that names none, and of a missing translation (docs/specification.md §21: the default locale). */
export const defaultLocale: Locale = 'es';

export const LOCALE_CODES: readonly Locale[] = LOCALES.map((l) => l.code);

/** The whitelist: nothing else may become a locale (and so never a file path). */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALE_CODES as readonly string[]).includes(value);
}

/** The BCP 47 tag every date and number of a locale is formatted with (es-ES, en-US). */
export function intlLocale(code: Locale): (typeof LOCALES)[number]['iso'] {
  return localeInfo(code).iso;
}

/** A language's name in a locale's words: `languageName('en', 'es')` → "inglés", from Intl (not the messages). */
export function languageName(language: Locale, inLocale: Locale): string {
  return new Intl.DisplayNames([intlLocale(inLocale)], { type: 'language' }).of(language) ?? language;
}

export function localeInfo(code: Locale) {
  const info = LOCALES.find((l) => l.code === code);
  if (!info) throw new Error(`Unknown locale ${code}`);
  return info;
}

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

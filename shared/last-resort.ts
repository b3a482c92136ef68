// What shows when even the error page fails. Its words are the locale table's (`lastResort`), kept
// out of the message files on purpose: they must show when the messages themselves failed.
import { localeHref, localeInfo, type Locale } from './locales.ts';

export type LastResortTexts = { title: string; home: string; href: string };

/** The last-resort page's title and link home, in `locale`. */
export function lastResortTexts(locale: Locale): LastResortTexts {
  return { ...localeInfo(locale).lastResort, href: localeHref('/', locale) };
}

import { intlLocale, isLocale, type Locale } from '../../shared/locales.ts';
import { useI18n } from '../runtime/i18n.tsx';

const formatters = new Map<Locale, Intl.DateTimeFormat>();

/**
 * A calendar date (YYYY-MM-DD) in words, in the locale's own style (es-ES "22 de noviembre de
 * 2026", en-US "November 22, 2026"). Read as a UTC day, so the server's and the browser's time
 * zones cannot disagree during hydration.
 */
export function formatDate(date: string, locale: string): string {
  const [y, m, d] = date.split('-').map(Number);
  if (!y || !m || !d || !isLocale(locale)) return date;
  let format = formatters.get(locale);
  if (!format) formatters.set(locale, (format = new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'long', timeZone: 'UTC' })));
  return format.format(Date.UTC(y, m - 1, d));
}

export function FormattedDate({ date }: { date: string }) {
  const { locale } = useI18n();
  return <time dateTime={date}>{formatDate(date, locale)}</time>;
}

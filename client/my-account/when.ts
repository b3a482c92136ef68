// A moment (ISO 8601) as the profile shows it: date and time in the reader's language, in the
// site's time zone (so the server's render and the browser's agree).
import { intlLocale, isLocale } from '../../shared/locales.ts';
import { COMPANY_TIME_ZONE } from '../../shared/time-zone.ts';

const formats = new Map<string, Intl.DateTimeFormat>();

export function formatMoment(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime()) || !isLocale(locale)) return iso;
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium', timeStyle: 'short', timeZone: COMPANY_TIME_ZONE });
    formats.set(locale, format);
  }
  return format.format(date);
}

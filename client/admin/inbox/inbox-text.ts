// How the inbox words a message: its subject, its language, when it arrived, and the page's
// address for a view, a page and an open message.
import type { ContactMessage, inboxQuery } from '../../../shared/contact.ts';
import { intlLocale, isLocale, languageName } from '../../../shared/locales.ts';
import { COMPANY_TIME_ZONE } from '../../../shared/time-zone.ts';
import type { Translate } from '../../../shared/translate.ts';

/** The inbox page's address for a view, a page and an open message (the screen makes it from its path). */
export type InboxHref = (to: Parameters<typeof inboxQuery>[0]) => string;

const formats = new Map<string, { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

/**
 * A timestamp as date and time in the company's time zone (Madrid), in the locale's own style
 * (es-ES 24 h, en-US 12 h): the server renders it, and the browser, whatever its own zone,
 * hydrates the very same text.
 */
export function formatTimestamp(t: Translate, iso: string, locale: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime()) || !isLocale(locale)) return iso;
  let format = formats.get(locale);
  if (!format) {
    const tag = intlLocale(locale);
    format = {
      date: new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: COMPANY_TIME_ZONE }),
      time: new Intl.DateTimeFormat(tag, { timeStyle: 'short', timeZone: COMPANY_TIME_ZONE }),
    };
    formats.set(locale, format);
  }
  return t('adminInbox.dateTime', { date: format.date.format(date), time: format.time.format(date) });
}

/** The language a message was written in, named in the console's language ("Inglés", "Spanish"); an unknown code as it is. */
export function messageLanguage(locale: string, uiLocale: string): string {
  if (!isLocale(locale) || !isLocale(uiLocale)) return locale;
  const name = languageName(locale, uiLocale);
  return name.charAt(0).toLocaleUpperCase(intlLocale(uiLocale)) + name.slice(1);
}

export function subjectOf(t: Translate, message: Pick<ContactMessage, 'subject'>): string {
  return message.subject.trim() || t('adminInbox.noSubject');
}

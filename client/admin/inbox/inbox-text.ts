// How the inbox words a message: its subject, its language, when it arrived.
import type { ContactMessage } from '../../../shared/contact.ts';
import { intlLocale, isLocale, languageName } from '../../../shared/locales.ts';
import type { Translate } from '../../../shared/translate.ts';

/** Where the inbox's own texts for API failures are (else the console's are used). */
export const INBOX_ERRORS = 'adminInbox.errors';

/**
 * A timestamp as date and time in the browser's time zone, in the locale's own style (es-ES
 * 24 h, en-US 12 h). Only ever rendered in the browser (the list is not server-rendered), so
 * the server's time zone never meets the browser's.
 */
export function formatTimestamp(t: Translate, iso: string, locale: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime()) || !isLocale(locale)) return iso;
  const tag = intlLocale(locale);
  return t('adminInbox.dateTime', {
    date: new Intl.DateTimeFormat(tag, { dateStyle: 'long' }).format(date),
    time: new Intl.DateTimeFormat(tag, { timeStyle: 'short' }).format(date),
  });
}

/** The language a message was written in, named in the console's language ("Inglés", "Spanish"); an unknown code as it is. */
export function messageLanguage(locale: string, uiLocale: string): string {
  if (!isLocale(locale) || !isLocale(uiLocale)) return locale;
  const name = languageName(locale, uiLocale);
  return name.charAt(0).toLocaleUpperCase(intlLocale(uiLocale)) + name.slice(1);
}

export function subjectOf(t: Translate, message: ContactMessage): string {
  return message.subject.trim() || t('adminInbox.noSubject');
}

// What shows when even the error page fails. Plain texts in both languages, kept
// out of the message files on purpose: they must show when the messages themselves failed.
import { localeHref, type Locale } from './locales.ts';

export type LastResortTexts = { title: string; home: string; href: string };

export const LAST_RESORT: Readonly<Record<Locale, LastResortTexts>> = {
  es: { title: 'Se ha producido un error al mostrar la página de error', home: 'Volver al inicio', href: localeHref('/', 'es') },
  en: { title: 'An error occurred while showing the error page', home: 'Go back to home', href: localeHref('/', 'en') },
};

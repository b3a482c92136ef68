import { useI18n } from '../i18n.tsx';

const MONTHS: Record<string, string[]> = {
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
};

/**
 * A calendar date (YYYY-MM-DD) in words. Formatted by hand rather than with Intl so that the
 * server's ICU and the browser's can never disagree during hydration.
 */
export function formatDate(date: string, locale: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const month = MONTHS[locale]?.[(m ?? 1) - 1];
  if (!y || !m || !d || !month) return date;
  return locale === 'es' ? `${d} de ${month} de ${y}` : `${month} ${d}, ${y}`;
}

export function FormattedDate({ date }: { date: string }) {
  const { locale } = useI18n();
  return <time dateTime={date}>{formatDate(date, locale)}</time>;
}

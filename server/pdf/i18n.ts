// The words and formats of the PDF documents, es/en. The words are locales/<lng>/pdf.json's (and
// the site's own names of roles, states and practices from common.json: one wording on screen
// and on paper), read through i18next with a fixed t per document; dates and numbers are
// formatted here, in Madrid time, with the site's ISO tags.
import type { i18n } from 'i18next';
import type esPdf from '../../locales/es/pdf.json';
import { intlLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import type { BudgetRange } from '../../shared/projects.ts';
import { COMPANY_TIME_ZONE } from '../../shared/time-zone.ts';
import { NAMESPACE, nameIn, namespaceT, projectI18n, type NamespaceT } from '../i18n/index.ts';

/** The documents are read in Spain: times are Madrid time whatever the server's zone (server/calendar/days.ts). */
export const PDF_TIME_ZONE = COMPANY_TIME_ZONE;

/** BCP 47 tags for Intl and the PDF /Lang entry: the site's own (es-ES, en-US), as on screen. */
export const INTL_LOCALE: Readonly<Record<Locale, string>> = Object.fromEntries(
  LOCALE_CODES.map((locale) => [locale, intlLocale(locale)]),
) as Record<Locale, string>;

/** The namespaces the documents read: their own and the site's names (roles, states, practices). */
export const PDF_NAMESPACES = ['pdf', NAMESPACE] as const;

let source: i18n | undefined;

/**
 * The instance the documents read their words from. The layout thread sets one made from the
 * resources the server handed it (worker.ts): it reads no file. Elsewhere (the server's own
 * thread, a script, a test laying a document out directly) it is the project's (projectI18n),
 * the server's one instance.
 */
export function setPdfI18n(instance: i18n): void {
  source = instance;
}

function pdfI18n(): i18n {
  return (source ??= projectI18n());
}

/** The documents' words in one language (locales/<lng>/pdf.json), by i18next's getFixedT. */
export type PdfT = NamespaceT<typeof esPdf>;

export function pdfT(locale: Locale): PdfT {
  return namespaceT<typeof esPdf>(pdfI18n(), locale, 'pdf');
}

// Intl objects are costly to build: one set per locale for the life of the process, made on
// first use (not at start: they cost tens of milliseconds of the server's cold start).
type Formatters = {
  date: Intl.DateTimeFormat;
  time: Intl.DateTimeFormat;
  shortDate: Intl.DateTimeFormat;
  shortDateTime: Intl.DateTimeFormat;
  day: Intl.DateTimeFormat;
  shortDay: Intl.DateTimeFormat;
  number: Intl.NumberFormat;
  /** Whole euros: "18.000 €" / "€18,000". */
  euros: Intl.NumberFormat;
};

function formattersFor(locale: Locale): Formatters {
  const tag = INTL_LOCALE[locale];
  return {
    date: new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: PDF_TIME_ZONE }),
    time: new Intl.DateTimeFormat(tag, { timeStyle: 'short', timeZone: PDF_TIME_ZONE }),
    shortDate: new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: PDF_TIME_ZONE }),
    shortDateTime: new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short', timeZone: PDF_TIME_ZONE }),
    // A day of a query (YYYY-MM-DD) is a calendar day, not an instant: read and shown in UTC.
    day: new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }),
    shortDay: new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: 'UTC' }),
    // CLDR leaves four-digit Spanish numbers ungrouped ("1234"); the issue asks for 1.234 / 1,234.
    number: new Intl.NumberFormat(tag, { useGrouping: 'always' }),
    euros: new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0, useGrouping: 'always' }),
  };
}

const made = new Map<Locale, Formatters>();
function formatters(locale: Locale): Formatters {
  let f = made.get(locale);
  if (!f) made.set(locale, (f = formattersFor(locale)));
  return f;
}

/** "22 de noviembre de 2026, 10:05" / "November 22, 2026, 10:05 AM": dateStyle+timeStyle would give "… at …" in English. */
export function formatDateTime(date: Date, locale: Locale): string {
  const f = formatters(locale);
  return `${f.date.format(date)}, ${f.time.format(date)}`;
}

/** A stored ISO timestamp as a table date ("22 nov 2026" / "22 Nov 2026"); unparseable input shown as is. */
export function formatStoredDate(value: string, locale: Locale): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatters(locale).shortDate.format(date);
}

/** A stored ISO timestamp with its time, short enough for a table column: "2 nov 2026, 10:00" / "Nov 2, 2026, 10:00 AM". */
export function formatStoredShortDateTime(value: string, locale: Locale): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatters(locale).shortDateTime.format(date);
}

/** A stored ISO timestamp with its time, for messages, where the hour matters. */
export function formatStoredDateTime(value: string, locale: Locale): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatDateTime(date, locale);
}

export function formatNumber(value: number, locale: Locale): string {
  return formatters(locale).number.format(value);
}

/** A YYYY-MM-DD day as in a sentence: "1 de enero de 2026" / "January 1, 2026". */
export function formatDay(day: string, locale: Locale): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : formatters(locale).day.format(date);
}

/** A report's part and range, for `formatCoverage`: items first–last of total, days as asked (YYYY-MM-DD). */
export type Coverage = { first: number; last: number; total: number; from?: string | undefined; to?: string | undefined };

/** The date range as a phrase that follows the part ("del … al …"), or '' without one. */
export function formatRange(range: { from?: string | undefined; to?: string | undefined }, locale: Locale): string {
  const t = pdfT(locale);
  const from = range.from ? formatDay(range.from, locale) : '';
  const to = range.to ? formatDay(range.to, locale) : '';
  if (from && to) return t('range.between', { from, to });
  if (from) return t('range.since', { from });
  if (to) return t('range.until', { to });
  return '';
}

/**
 * What a report covers, on its first page: "Mensajes 51–100 de 2.345 del 1 de enero de 2026 al
 * 31 de enero de 2026" / "Messages 51–100 of 2,345 from January 1, 2026 to January 31, 2026";
 * "0 mensajes …" when there is nothing to cover.
 */
export function formatCoverage(kind: 'users' | 'messages', coverage: Coverage, locale: Locale): string {
  const t = pdfT(locale);
  const part =
    coverage.total === 0
      ? t(kind === 'users' ? 'userCount' : 'messageCount', { count: 0 })
      : // The plural is the part's size: one item ("Mensaje 7 de 7") or a range.
        t(kind === 'users' ? 'usersPart' : 'messagesPart', {
          count: coverage.last - coverage.first + 1,
          first: coverage.first,
          last: coverage.last,
          total: coverage.total,
        });
  const range = formatRange(coverage, locale);
  return range ? `${part} ${range}` : part;
}

/** The localised role name; a role this site does not know (an external API's) is shown as its code. */
export function roleName(role: string, locale: Locale): string {
  return nameIn(pdfI18n(), locale, 'roles', role);
}

const ISO_DAY = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: PDF_TIME_ZONE });

/** YYYY-MM-DD of the date in Madrid, so the file name matches the date printed inside. */
export function isoDay(date: Date): string {
  const parts = ISO_DAY.formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Whole euros in the locale's style: "18.000 €" (with a no-break space) / "€18,000". */
export function formatEuros(amount: number, locale: Locale): string {
  return formatters(locale).euros.format(amount);
}

/** What each budget range of a brief means, in euros (open at one end for the first and the last). */
const BUDGET_BOUNDS: Readonly<Record<BudgetRange, [number | null, number | null]>> = {
  lt10k: [null, 10_000],
  '10to50k': [10_000, 50_000],
  '50to150k': [50_000, 150_000],
  gt150k: [150_000, null],
};

/** "10.000-50.000 €" / "€10,000 – €50,000", "Menos de 10.000 €" / "Under €10,000"; an unknown code as it is. */
export function formatBudget(range: string, locale: Locale): string {
  if (!Object.hasOwn(BUDGET_BOUNDS, range)) return range;
  const [min, max] = BUDGET_BOUNDS[range as BudgetRange];
  const t = pdfT(locale);
  if (min === null) return t('projects.budget.under', { amount: formatEuros(max!, locale) });
  if (max === null) return t('projects.budget.over', { amount: formatEuros(min, locale) });
  return formatters(locale).euros.formatRange(min, max);
}

/** A day of a project (YYYY-MM-DD: a due date, a deadline) as a table date: "31 ene 2027" / "Jan 31, 2027". */
export function formatShortDay(day: string, locale: Locale): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : formatters(locale).shortDay.format(date);
}

/** The localised name of a project state or practice; an unknown code is shown as it is. */
export function stateName(state: string, locale: Locale): string {
  return nameIn(pdfI18n(), locale, 'projects.states', state);
}

export function practiceName(practice: string, locale: Locale): string {
  return nameIn(pdfI18n(), locale, 'projects.practices', practice);
}

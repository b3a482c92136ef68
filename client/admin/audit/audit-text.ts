// How the console words the audit log: actions, who, the facts of an entry, its time, and the
// URL of a filtered page (the same filter the server reads for the first paint).
import { AUDIT_QUERY_PARAMS, AUDIT_TIME_ZONE, type AuditFilter, type AuditRecord } from '../../../shared/audit.ts';
import { intlLocale, isLocale } from '../../../shared/locales.ts';
import type { Translate } from '../../../shared/translate.ts';
import { isCompanyRole } from '../../../shared/company.ts';
import { roleLabel } from '../text.ts';

/** The actor the ops command line records (scripts/user.ts). */
const OPS_ACTOR = 'ops';

/** A message of the screen, or `fallback` when the locale has none (an action added later). */
function textOr(t: Translate, key: string, fallback: string): string {
  const text = t(key);
  return text === key ? fallback : text;
}

export function actionLabel(t: Translate, action: string): string {
  return textOr(t, `adminAudit.actions.${action}`, action);
}

/** Who did it: a user name, the command line, or a visitor who was not signed in. */
export function actorLabel(t: Translate, actor: string | null): string {
  if (actor === null) return t('adminAudit.visitor');
  return actor === OPS_ACTOR ? t('adminAudit.ops') : actor;
}

/** A role a fact names, in words: a user's (roles.*) or one in a company (company.role.*). */
function roleWords(t: Translate, role: string): string {
  return isCompanyRole(role) ? t(`company.role.${role}`) : roleLabel(t, role);
}

/** What a fact holds, in words: a word of its list, a role, a number in the locale's style, or the text as it is. */
function valueWords(t: Translate, locale: string, key: string, value: string | number): string {
  if (typeof value === 'number') return isLocale(locale) ? new Intl.NumberFormat(intlLocale(locale)).format(value) : String(value);
  if (key === 'role') return roleWords(t, value);
  return textOr(t, `adminAudit.values.${key}.${value}`, value);
}

/**
 * One fact as a sentence ("Desde el formulario de la web", "Se cerraron 2 sesiones"): every fact
 * the server writes has its words in both languages (server/audit/types.ts AUDIT_FACTS;
 * test/audit/words.test.ts); one written by a later version reads "key: value".
 */
export function factText(t: Translate, locale: string, key: string, value: string | number | boolean | null): string | null {
  if (value === null) return null;
  if (typeof value === 'boolean') return textOr(t, `adminAudit.facts.${key}.${String(value)}`, `${key}: ${String(value)}`);
  const words = valueWords(t, locale, key, value);
  const sentence = `adminAudit.facts.${key}`;
  const text = t(sentence, typeof value === 'number' ? { value: words, count: value } : { value: words });
  return text === sentence ? `${key}: ${words}` : text;
}

/** The entry's facts in words: "Cliente → Administrador/a", "Desde el formulario de la web · Se cerraron 2 sesiones". */
export function detailText(t: Translate, locale: string, record: AuditRecord): string {
  const { detail } = record;
  if (record.action === 'role_changed' && typeof detail.from === 'string' && typeof detail.to === 'string') {
    return `${roleWords(t, detail.from)} → ${roleWords(t, detail.to)}`;
  }
  // Scopes are keys (reports:read…), shown as they are; none is a dash.
  if (record.action === 'scope_changed' && typeof detail.from === 'string' && typeof detail.to === 'string') {
    return `${detail.from || '—'} → ${detail.to || '—'}`;
  }
  return Object.entries(detail)
    .map(([key, value]) => factText(t, locale, key, value))
    .filter((text) => text !== null)
    .join(' · ');
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Date and time in Madrid (the same on the server and in any browser: no hydration mismatch). */
export function formatAuditTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime()) || !isLocale(locale)) return iso;
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium', timeStyle: 'medium', timeZone: AUDIT_TIME_ZONE });
    formats.set(locale, format);
  }
  return format.format(date);
}

/** The admin page's URL for a filter and page (what works without JavaScript), at the screen's heading. */
export function auditHref(pathname: string, filter: AuditFilter, page: number, headingId: string): string {
  const query = new URLSearchParams();
  const params = AUDIT_QUERY_PARAMS;
  if (filter.action) query.set(params.action, filter.action);
  if (filter.user) query.set(params.user, filter.user);
  if (filter.from) query.set(params.from, filter.from);
  if (filter.to) query.set(params.to, filter.to);
  if (page > 1) query.set(params.page, String(page));
  const search = query.toString();
  return `${pathname}${search ? `?${search}` : ''}#${headingId}`;
}

/** The filter of the form's fields (empty ones left out). */
export function filterOfForm(data: FormData): AuditFilter {
  const filter: AuditFilter = {};
  const params = AUDIT_QUERY_PARAMS;
  for (const key of ['action', 'user', 'from', 'to'] as const) {
    const value = data.get(params[key]);
    if (typeof value === 'string' && value.trim()) filter[key] = value.trim();
  }
  return filter;
}

export function isFiltered(filter: AuditFilter): boolean {
  return Boolean(filter.action || filter.user || filter.actor || filter.target || filter.from || filter.to);
}

// How the console words the audit log: actions, who, the facts of an entry, its time, and the
// URL of a filtered page (the same filter the server reads for the first paint).
import { AUDIT_QUERY_PARAMS, AUDIT_TIME_ZONE, type AuditFilter, type AuditRecord } from '../../../shared/audit.ts';
import { intlLocale, isLocale } from '../../../shared/locales.ts';
import type { Translate } from '../../../shared/translate.ts';
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

function factValue(t: Translate, key: string, value: string | number | boolean | null): string {
  if (typeof value === 'boolean') return t(value ? 'adminAudit.yes' : 'adminAudit.no');
  if (value === null) return '—';
  if (typeof value === 'number') return String(value);
  if (key === 'role') return roleLabel(t, value);
  return textOr(t, `adminAudit.values.${value}`, value);
}

/** The entry's facts in words: "Cliente → Administrador/a", "Vía: formulario · Sesiones cerradas: 2". */
export function detailText(t: Translate, record: AuditRecord): string {
  const { detail } = record;
  const facts = Object.entries(detail);
  if (record.action === 'role_changed' && typeof detail.from === 'string' && typeof detail.to === 'string') {
    return `${roleLabel(t, detail.from)} → ${roleLabel(t, detail.to)}`;
  }
  // Scopes are keys (reports:read…), shown as they are; none is a dash.
  if (record.action === 'scope_changed' && typeof detail.from === 'string' && typeof detail.to === 'string') {
    return `${detail.from || '—'} → ${detail.to || '—'}`;
  }
  return facts.map(([key, value]) => `${textOr(t, `adminAudit.facts.${key}`, key)}: ${factValue(t, key, value)}`).join(' · ');
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

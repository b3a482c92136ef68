// Which entries of the audit log are asked for: by the API (`GET /api/admin/audit`, where a bad
// value is a 400 naming it) and by the admin page's URL (where a bad value is simply ignored, as
// the page's other filters are).
import { z } from 'zod';
import { AUDIT_QUERY_PARAMS, type AuditFilter } from '../../shared/audit.ts';
import { PAGE_NUMBER_MAX } from '../../shared/paging.ts';
import { EMAIL_MAX_LENGTH } from '../../shared/validation.ts';
import { numberedPageQuery } from '../http/paging.ts';
import { isIsoDay } from '../calendar/days.ts';
import { AUDIT_ACTIONS } from './types.ts';

/** A user name or an e-mail address: the longer's limit. */
const userName = z.string().trim().min(1, 'must not be empty').max(EMAIL_MAX_LENGTH);
const day = z.string().refine(isIsoDay, 'must be a day written YYYY-MM-DD');

export const auditQuery = z
  .object({
    action: z.enum(AUDIT_ACTIONS, { message: `must be one of ${AUDIT_ACTIONS.join(', ')}` }).optional(),
    user: userName.optional(),
    actor: userName.optional(),
    target: userName.optional(),
    from: day.optional(),
    to: day.optional(),
    ...numberedPageQuery('audit').shape,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'must not be before from', path: ['to'] });

export type AuditQuery = z.infer<typeof auditQuery>;

/** The filter part of a parsed query (only what was given). */
export function filterOf(query: Omit<AuditQuery, 'page' | 'pageSize'>): AuditFilter {
  const filter: AuditFilter = {};
  for (const key of ['action', 'user', 'actor', 'target', 'from', 'to'] as const) {
    const value = query[key];
    if (value) filter[key] = value;
  }
  return filter;
}

// Made once: building a zod schema costs more than parsing with it (the console reads its URL on every load).
const urlAction = z.enum(AUDIT_ACTIONS);
const urlPage = z.coerce.number().int().min(1).max(PAGE_NUMBER_MAX);

function pick<T>(schema: z.ZodType<T>, value: string | null): T | undefined {
  if (value === null || value === '') return undefined;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The console's filter and page from the admin page's URL; a bad value is left out. */
export function auditQueryOfUrl(query: URLSearchParams): { filter: AuditFilter; page: number } {
  const params = AUDIT_QUERY_PARAMS;
  const action = pick(urlAction, query.get(params.action));
  const user = pick(userName, query.get(params.user));
  const from = pick(day, query.get(params.from));
  let to = pick(day, query.get(params.to));
  if (from && to && to < from) to = undefined;
  const page = pick(urlPage, query.get(params.page)) ?? 1;
  return { filter: filterOf({ action, user, from, to }), page };
}

// The audit log as the admin console and the API show it (the store is server/audit/log.ts;
// which actions exist is server/audit/types.ts, handed to the console with the page's data).
import { PAGE_SIZES } from './paging.ts';
import { COMPANY_TIME_ZONE } from './time-zone.ts';

/** One entry: who did what to whom, when, from where, with a few facts of the action. */
export type AuditRecord = {
  id: number;
  /** ISO 8601. */
  at: string;
  action: string;
  /** A user name, 'ops' (the command line), or null (a visitor not signed in). */
  actor: string | null;
  /** Whom it was done to, or what was typed at a failed sign-in. */
  target: string | null;
  ip: string | null;
  detail: Record<string, string | number | boolean | null>;
};

/**
 * What the list is narrowed to. `user` finds a user name as actor or as target; `from` and `to`
 * are days (YYYY-MM-DD, Madrid time, both included).
 */
export type AuditFilter = { action?: string; user?: string; actor?: string; target?: string; from?: string; to?: string };

/** A page of entries, newest first. */
export type AuditPage = { items: AuditRecord[]; total: number; page: number; pageSize: number };

/** What the admin page carries: the first page for the URL's filter, and the actions to filter by. */
export type AuditView = { list: AuditPage; filter: AuditFilter; actions: readonly string[] };

/** Entries per page in the console. */
export const AUDIT_PAGE_SIZE = PAGE_SIZES.audit.default;

/** The audit's times are shown, and its days filtered, in the company's time zone (as in the PDF reports). */
export const AUDIT_TIME_ZONE = COMPANY_TIME_ZONE;

/** The console's filter in the admin page's URL (prefixed: the pipeline's filter uses `q` and `page`). */
export const AUDIT_QUERY_PARAMS = {
  action: 'auditAction',
  user: 'auditUser',
  from: 'auditFrom',
  to: 'auditTo',
  page: 'auditPage',
} as const;

// What the audit log records (docs/decisions/014): who did what to whom and when, for the actions that
// matter to security. Every part of the site records through `Audit`; the store is audit/log.ts.
import { COMPANY_ROLES } from '../../shared/company.ts';
import { ROLES } from '../../shared/user.ts';

export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'password_changed',
  'password_reset_requested',
  'password_reset',
  'email_change_requested',
  'email_changed',
  'two_factor_enabled',
  'two_factor_disabled',
  'two_factor_failed',
  'recovery_code_used',
  'user_created',
  'role_changed',
  'scope_changed',
  'status_changed',
  'invitation_sent',
  'invitation_accepted',
  'session_ended',
  'sessions_ended',
  'report_downloaded',
  'data_exported',
  'deletion_requested',
  'user_deleted',
  'password_set',
  'document_deleted',
  'proposal_accepted',
  'proposal_declined',
  'colleague_invited',
  'colleague_removed',
  'manager_handed_over',
  'company_renamed',
  'company_changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * What a fact of an entry holds: one word of a list (each has its words in the console), a role
 * (a user's or a company's: AUDIT_ROLES), a number, yes or no, or a text as it was (an
 * address, a name, a day).
 */
type FactKind = readonly string[] | 'role' | 'number' | 'boolean' | 'text';

/** The roles a `role` fact names: a user's (shared/user.ts) or one in a company (shared/company.ts). */
export const AUDIT_ROLES = [...ROLES, ...COMPANY_ROLES] as const;

/**
 * Every fact an entry may carry (its `detail`), with what it holds: one list, so that the console
 * words each one in both languages (locales/<lng>/common.json `adminAudit.facts` and
 * `adminAudit.values`; test/audit/words.test.ts holds them to this table).
 */
export const AUDIT_FACTS = {
  via: ['form', 'api'],
  secondFactor: ['totp', 'recovery'],
  with: ['totp', 'recovery'],
  kind: ['totp', 'recovery'],
  purpose: ['sign_in', 'disable', 'recovery_codes'],
  reason: ['wrong', 'replayed'],
  left: 'number',
  newEmail: 'text',
  role: 'role',
  passwordGenerated: 'boolean',
  from: 'text',
  to: 'text',
  status: ['disabled', 'enabled'],
  sessionsEnded: 'number',
  delivery: ['link', 'email'],
  resend: 'boolean',
  ip: 'text',
  count: 'number',
  keptCurrent: 'boolean',
  report: ['users', 'contact_messages', 'project'],
  page: 'number',
  project: 'number',
  request: ['made', 'withdrawn', 'refused'],
  generated: 'boolean',
  document: 'number',
  name: 'text',
  bytes: 'number',
  version: 'number',
  fee: 'number',
  company: 'number',
  outcome: ['created', 'resent', 'existing'],
  invitation: ['withdrawn'],
} as const satisfies Record<string, FactKind>;
export type AuditFact = keyof typeof AUDIT_FACTS;

/** The facts each action records (the type of an entry holds every caller to it). */
export const AUDIT_ACTION_FACTS = {
  sign_in: ['via', 'secondFactor'],
  sign_in_failed: ['via'],
  sign_out: [],
  password_changed: ['via'],
  password_reset_requested: [],
  password_reset: [],
  email_change_requested: ['newEmail'],
  email_changed: ['newEmail'],
  two_factor_enabled: [],
  two_factor_disabled: ['with'],
  two_factor_failed: ['purpose', 'reason', 'kind'],
  recovery_code_used: ['purpose', 'left'],
  user_created: ['role', 'passwordGenerated'],
  // A user's roles, before and after.
  role_changed: ['from', 'to'],
  // A user's scopes, before and after (comma-separated keys; '' for none).
  scope_changed: ['from', 'to'],
  status_changed: ['status', 'sessionsEnded'],
  invitation_sent: ['delivery', 'resend'],
  invitation_accepted: [],
  // The address of the session that was ended.
  session_ended: ['ip'],
  sessions_ended: ['count', 'keptCurrent'],
  // A report's page, the days it covers, or the project it is of.
  report_downloaded: ['report', 'page', 'from', 'to', 'project'],
  data_exported: [],
  deletion_requested: ['request'],
  user_deleted: ['role'],
  password_set: ['generated', 'sessionsEnded'],
  document_deleted: ['project', 'document', 'name', 'bytes'],
  proposal_accepted: ['project', 'version', 'fee'],
  proposal_declined: ['project', 'version', 'fee'],
  colleague_invited: ['company', 'outcome'],
  colleague_removed: ['company', 'invitation'],
  manager_handed_over: ['company'],
  company_renamed: ['company', 'name'],
  // The company the admin moved the user to, and their role in it.
  company_changed: ['company', 'role'],
} as const satisfies Record<AuditAction, readonly AuditFact[]>;

type FactValue<K extends AuditFact> = (typeof AUDIT_FACTS)[K] extends readonly (infer W)[]
  ? W
  : (typeof AUDIT_FACTS)[K] extends 'number'
    ? number
    : (typeof AUDIT_FACTS)[K] extends 'boolean'
      ? boolean
      : string;

/** The facts of an entry of `A`: only those AUDIT_ACTION_FACTS lists for it, each of its kind (or null: not known). */
export type AuditDetail<A extends AuditAction> = { [K in (typeof AUDIT_ACTION_FACTS)[A][number]]?: FactValue<K> | null };

type EntryOf<A extends AuditAction> = {
  action: A;
  /** Who did it (a user name), or null for a visitor who is not signed in. */
  actor: string | null;
  /** Whom it was done to (a user name), when not the actor. */
  target?: string | null;
  /** The client's address as the site sees it (trusted proxies applied). */
  ip?: string | null;
  /** Small facts of the action: the new role, the report's name… (never a password or a token). */
  detail?: AuditDetail<A>;
};

/** One entry, as every part of the site records it. */
export type AuditEntry = { [A in AuditAction]: EntryOf<A> }[AuditAction];

/** An entry as the store takes it: any small facts (the store's own rules apply; tests of the store use it). */
export type StoredAuditEntry = Omit<EntryOf<AuditAction>, 'detail'> & { detail?: Record<string, string | number | boolean | null> };

export type Audit = {
  /** Records one entry; never makes the action fail (a failure to record is logged). */
  record(entry: AuditEntry): Promise<void>;
};

/** An audit that records nothing (tests and tools that do not need one). */
export const noAudit: Audit = { record: async () => {} };

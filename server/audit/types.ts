// What the audit log records (docs/decisions/014): who did what to whom and when, for the actions that
// matter to security. Every part of the site records through `Audit`; the store is audit/log.ts.
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

export type AuditEntry = {
  action: AuditAction;
  /** Who did it (a user name), or null for a visitor who is not signed in. */
  actor: string | null;
  /** Whom it was done to (a user name), when not the actor. */
  target?: string | null;
  /** The client's address as the site sees it (trusted proxies applied). */
  ip?: string | null;
  /** Small facts of the action: the new role, the report's name… (never a password or a token). */
  detail?: Record<string, string | number | boolean | null>;
};

export type Audit = {
  /** Records one entry; never makes the action fail (a failure to record is logged). */
  record(entry: AuditEntry): Promise<void>;
};

/** An audit that records nothing (tests and tools that do not need one). */
export const noAudit: Audit = { record: async () => {} };

// The tables of the site's database, as Kysely sees them: one description for SQLite and
// PostgreSQL alike. Timestamps are ISO 8601 text written by the site (they sort as text on both
// engines); instants that are compared with Date.now() are integer seconds or milliseconds;
// booleans are 0/1 integers; user names and e-mails compare without regard to case (SQLite
// COLLATE NOCASE, PostgreSQL citext).
import type { Generated, Insertable, Selectable } from 'kysely';

export type UsersTable = {
  id: Generated<number>;
  user_name: string;
  email: string | null;
  name: string;
  last_name: string;
  role: string;
  avatar: string | null;
  /** JSON array of strings. */
  scopes: string;
  password_hash: string;
  disabled: number;
  /** Seconds since epoch of the last password change (0: never); older sessions end. */
  password_changed_at: number;
  created_at: string;
  updated_at: string;
};

export type RateLimitsTable = {
  key: string;
  count: number;
  /** Milliseconds since epoch when the window ends. */
  reset_at: number;
};

export type BrandingTable = {
  user_name: string;
  color: string | null;
  logo: string | null;
  updated_at: string;
};

export type ContactMessagesTable = {
  id: Generated<number>;
  name: string;
  email: string;
  subject: string;
  message: string;
  locale: string;
  consent_at: string;
  ip: string | null;
  read: number;
  notify_status: string;
  notify_attempts: number;
  notify_error: string | null;
  created_at: string;
};

export type UsedFormTokensTable = {
  digest: string;
  /** Milliseconds since epoch. */
  expires_at: number;
};

export type UploadsTable = {
  /** /api/<folder>/<random>.<ext> */
  url: string;
  owner: string;
  bytes: number;
  content_type: string;
  /** The file itself: every instance serves every file. */
  data: Buffer;
  created_at: string;
};

export type SessionsTable = {
  /** Random, 32 bytes base64url: what the sealed cookie carries. */
  id: string;
  user_name: string;
  created_at: string;
  last_seen_at: string;
  /** Seconds since epoch. */
  expires_at: number;
  user_agent: string | null;
  ip: string | null;
  /** The API's Bearer token of this session (built-in or external): kept here, never sent to the browser. */
  api_token: string;
  /** sha256 of api_token: how a Bearer client's token finds its session. */
  token_digest: string;
};

export type ChangesTable = {
  /** What changed: 'user:<name>', 'session:<id>', 'branding:<name>', … */
  topic: string;
  /** Increases with every change (the SQLite workers of one machine poll it). */
  version: number;
};

export type MailOutboxTable = {
  id: Generated<number>;
  /** The template: 'contact_message', 'brief_submitted', … */
  kind: string;
  recipient: string;
  reply_to: string | null;
  locale: string;
  subject: string;
  text: string;
  html: string;
  /** pending (to be sent, maybe again), sent, failed (gave up after the last attempt). */
  status: string;
  attempts: number;
  last_error: string | null;
  /** Milliseconds since epoch: not sent before. */
  next_attempt_at: number;
  /** Milliseconds since epoch when a sender took the row; null when none holds it. */
  claimed_at: number | null;
  /** What caused it: 'contact:<id>', 'project:<id>'. */
  ref: string | null;
  created_at: string;
  sent_at: string | null;
};

export type UserLocalesTable = {
  user_name: string;
  /** The locale of the last page the user asked for (or signed in on): their e-mails' language. */
  locale: string;
  updated_at: string;
};

export type Schema = {
  users: UsersTable;
  rate_limits: RateLimitsTable;
  branding: BrandingTable;
  contact_messages: ContactMessagesTable;
  used_form_tokens: UsedFormTokensTable;
  uploads: UploadsTable;
  sessions: SessionsTable;
  changes: ChangesTable;
  mail_outbox: MailOutboxTable;
  user_locales: UserLocalesTable;
};

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type ContactMessageRow = Selectable<ContactMessagesTable>;
export type SessionRow = Selectable<SessionsTable>;
export type MailOutboxRow = Selectable<MailOutboxTable>;

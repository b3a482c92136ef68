// The tables of the site's database, as Kysely sees them: one description for SQLite and
// PostgreSQL alike. Timestamps are ISO 8601 text written by the site (they sort as text on both
// engines); instants that are compared with Date.now() are integer seconds or milliseconds;
// booleans are 0/1 integers; user names and e-mails are stored in their canonical form
// (shared/identity.ts: NFKC, lower case) in columns that also compare without regard to case
// (SQLite COLLATE NOCASE, PostgreSQL citext).
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
  /** When an admin invited the user; null once they chose a password (or never invited). */
  invited_at: string | null;
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
  /** new, answered, archived (migration 25). */
  status: Generated<string>;
  company: string | null;
};

export type ContactRepliesTable = {
  id: Generated<number>;
  message_id: number;
  author: string;
  author_name: string;
  body: string;
  created_at: string;
};

/** A document of the public site as searched (server/search/): one per kind, locale and slug. */
export type SearchDocumentsTable = {
  id: Generated<number>;
  /** `<kind>:<locale>:<slug>`. */
  key: string;
  kind: string;
  locale: string;
  slug: string;
  path: string;
  title: string;
  summary: string;
  /** The tags' names, a space between each (searched). */
  tags: string;
  /** The tags' slugs between spaces, one at each end too (` a b `): a tag's results. */
  tag_slugs: string;
  /** Plain text, no markup. */
  body: string;
  /** SHA-256 of what is indexed: an unchanged document is not written again. */
  digest: string;
  /** What the source says changes with the document (a CMS's updatedAt), when it says so: the body is then not read again. */
  version: string | null;
  /** Ties in rank: newest first (a post's date), then by key. */
  sort_key: string;
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

export type ProjectsTable = {
  id: Generated<number>;
  title: string;
  description: string;
  practice: string;
  state: string;
  owner: string;
  owner_name: string;
  owner_role: string;
  organisation: string | null;
  budget: string | null;
  wished_start: string | null;
  deadline: string | null;
  procurement_ref: string | null;
  proposal_scope: string | null;
  proposal_fee: number | null;
  proposal_timeline: string | null;
  proposal_sent_at: string | null;
  proposal_sent_by: string | null;
  proposal_answered_at: string | null;
  created_at: string;
  updated_at: string;
  /** Rows of project_events and project_messages of the project, kept by triggers (migration 15). */
  event_count: Generated<number>;
  message_count: Generated<number>;
  /** The company (or organisation) the project belongs to (migration 17); null once nobody is left to own it. */
  company_id: number | null;
};

/** A client company or an organisation: the account its people share (migration 17). */
export type CompaniesTable = {
  id: Generated<number>;
  name: string;
  /** The role its members have: 'CLI' (a company) or 'ORG' (an organisation). */
  kind: string;
  created_at: string;
};

/** One notice of a project for one recipient (migration 19): the bell's count and its page. */
export type NotificationsTable = {
  id: Generated<number>;
  user_name: string;
  /** A ProjectNoticeKind (server/projects/notices.ts). */
  kind: string;
  /** The project it is about (its notifications go with it). */
  project_id: number | null;
  project_title: string;
  /** Who did it, as they were named then ('' once their account is deleted). */
  actor: string;
  /** Their user name (DELETED_USER once deleted). */
  actor_user: string;
  /** JSON of the notice's facts: from, to, milestone, excerpt. */
  detail: string | null;
  /** A held notice's ref (a milestone's toggles): withdrawn with its e-mail. */
  ref: string | null;
  created_at: string;
  read_at: string | null;
};

/** A user's private calendar address (migration 21): its id, generation and moment sign the URL. */
/** A user's e-mail preferences (migration 22): a MailMode per topic (shared/mail-preferences.ts). */
export type MailPreferencesTable = {
  user_name: string;
  messages: string;
  states: string;
  milestones: string;
  documents: string;
  reminders: string;
  reminder_days: number;
  /** The last notification id a digest told them of. */
  digest_after: number;
  /** JSON {topic: notification id}: a topic counts in a digest after the notification that was last when it was set to digest. */
  digest_starts: string;
  updated_at: string;
};

/** A reminder sent (migration 22): one per milestone, person, kind and due day. */
export type MilestoneRemindersTable = {
  milestone_id: number;
  user_name: string;
  /** milestone_due or milestone_overdue. */
  kind: string;
  due_date: string;
  sent_at: string;
};

/** A notice queued to be told to its audience a batch at a time (migration 24, server/fan-out/). */
export type NoticeFanOutsTable = {
  id: Generated<number>;
  project_id: number;
  /** JSON of what it says (NoticeContent); null: only the project's open pages are told. */
  notice: string | null;
  /** JSON of its Audience. */
  audience: string;
  ref: string | null;
  /** Where its telling stands: the audience's group, and the last user name told in it. */
  audience_group: number;
  audience_after: string;
  /** pending, failed (gave up). */
  status: string;
  /** Milliseconds since epoch: not run before. */
  run_at: number;
  attempts: number;
  claimed_at: number | null;
  last_error: string | null;
  created_at: string;
};

/** A job's run (migration 22, server/jobs/). */
export type JobsTable = {
  id: Generated<number>;
  /** What it is and when: 'digest:2026-11-27'. */
  key: string;
  kind: string;
  /** pending, done, failed (gave up). */
  status: string;
  /** Milliseconds since epoch: not run before. */
  run_at: number;
  attempts: number;
  claimed_at: number | null;
  last_error: string | null;
  created_at: string;
  done_at: string | null;
};

export type CalendarFeedsTable = {
  id: Generated<number>;
  user_name: string;
  generation: number;
  created_at: string;
};

/** A company's navbar branding in embedded mode (migration 18): every person of it sees it. */
export type CompanyBrandingTable = {
  company_id: number;
  color: string | null;
  logo: string | null;
  updated_at: string;
};

/** Who belongs to which company: every CLI/ORG user to exactly one, as its manager or a member. */
export type CompanyMembersTable = {
  user_name: string;
  company_id: number;
  role: 'manager' | 'member';
  joined_at: string;
};

/** Every proposal sent to a project, v1, v2 …: only the newest may be open (migration 16). */
export type ProjectProposalsTable = {
  id: Generated<number>;
  project_id: number;
  version: number;
  scope: string;
  fee: number;
  timeline: string;
  sent_at: string;
  sent_by: string;
  status: 'open' | 'accepted' | 'declined' | 'superseded' | 'withdrawn';
  answered_at: string | null;
  answered_by: string | null;
  answered_ip: string | null;
};

export type ProjectExpertsTable = { project_id: number; user_name: string; name: string; added_at: string; added_by: string };

export type ProjectMilestonesTable = {
  id: Generated<number>;
  project_id: number;
  title: string;
  due_date: string | null;
  done_at: string | null;
  done_by: string | null;
  done_by_name: string | null;
  created_at: string;
};

export type ProjectMessagesTable = {
  id: Generated<number>;
  project_id: number;
  author: string;
  author_name: string;
  author_role: string;
  body: string;
  created_at: string;
};

/** The newest message each participant has seen: the rest are unread. */
export type ProjectReadsTable = { project_id: number; user_name: string; last_read_id: number };

export type ProjectDocumentsTable = {
  id: Generated<number>;
  project_id: number;
  name: string;
  content_type: string;
  bytes: number;
  uploaded_by: string;
  uploaded_at: string;
};

/** A document's bytes in order, DOCUMENT_CHUNK_BYTES each (the last one shorter). */
export type ProjectDocumentChunksTable = {
  document_id: number;
  /** 0, 1, 2… */
  seq: number;
  data: Buffer;
};

export type ProjectEventsTable = {
  id: Generated<number>;
  project_id: number;
  at: string;
  actor: string;
  actor_name: string;
  kind: string;
  from_state: string | null;
  to_state: string | null;
  detail: string | null;
  /** The milestone a milestone_done / milestone_reopened event is about (null for the others and before it was kept). */
  milestone_id: number | null;
};

export type ExpertiseTable = {
  user_name: string;
  name: string;
  /** JSON array of practices. */
  practices: string;
  bio: string;
  day_rate: number | null;
  availability: string;
  busy_until: string | null;
  updated_at: string;
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
  /** What caused it: 'contact:<id>', 'project:<id>', 'milestone:<id>'. */
  ref: string | null;
  created_at: string;
  sent_at: string | null;
  /** 0: a security e-mail (links, account warnings), 1: a notice; the lowest is sent first. */
  priority: number;
  /** Extra headers, as JSON (a notice's List-Unsubscribe); null: none. */
  headers: string | null;
};

export type UserLocalesTable = {
  user_name: string;
  /** The locale of the last page the user asked for (or signed in on): their e-mails' language. */
  locale: string;
  updated_at: string;
};

export type AuditLogTable = {
  id: Generated<number>;
  /** ISO 8601, when it happened. */
  at: string;
  /** One of AUDIT_ACTIONS (server/audit/types.ts). */
  action: string;
  /** Who did it: a user name, 'ops' for the command line, null for a visitor. */
  actor: string | null;
  /** Whom it was done to (a user name), or what was typed at a failed sign-in. */
  target: string | null;
  ip: string | null;
  /** JSON object of small facts (the new role, the report…), never a secret. */
  detail: string | null;
};

/** A user's request to have their account deleted (an admin confirms or refuses it). */
export type DeletionRequestsTable = {
  user_name: string;
  /** pending (waiting for an admin), refused (an admin said no; the user may ask again). */
  status: string;
  requested_at: string;
  decided_at: string | null;
  decided_by: string | null;
};

export type TwoFactorTable = {
  user_name: string;
  /** The TOTP secret, encrypted (AES-256-GCM, key derived from SESSION_SECRET): never in clear. */
  secret: string;
  /** When 2FA was turned on; null while it is being set up (the secret shown, no code yet). */
  enabled_at: string | null;
  /** The last 30-second time step a code was accepted for (a code counts once). */
  last_step: number | null;
  created_at: string;
};

export type TwoFactorRecoveryCodesTable = {
  user_name: string;
  /** HMAC-SHA256 of the normalised code. */
  digest: string;
  used_at: string | null;
  created_at: string;
};

export type TwoFactorChallengesTable = {
  /** sha256 of the random id the browser's sealed cookie carries. */
  id: string;
  user_name: string;
  /** The API token of the sign-in, made a session only once the code is right. */
  api_token: string;
  /** Milliseconds since epoch. */
  expires_at: number;
  created_at: string;
};

export type AccountLinksTable = {
  id: Generated<number>;
  /** invitation, password_reset, email_change */
  kind: string;
  user_name: string;
  /** sha256 (base64url) of the link's token: the token itself is never stored. */
  token_digest: string;
  /** The address an email_change link confirms. */
  new_email: string | null;
  /** Milliseconds since epoch. */
  expires_at: number;
  /** Milliseconds since epoch when the link was used; null while unused. */
  used_at: number | null;
  created_at: string;
};

export type Schema = {
  users: UsersTable;
  rate_limits: RateLimitsTable;
  branding: BrandingTable;
  contact_messages: ContactMessagesTable;
  contact_replies: ContactRepliesTable;
  search_documents: SearchDocumentsTable;
  used_form_tokens: UsedFormTokensTable;
  uploads: UploadsTable;
  sessions: SessionsTable;
  changes: ChangesTable;
  projects: ProjectsTable;
  companies: CompaniesTable;
  company_members: CompanyMembersTable;
  company_branding: CompanyBrandingTable;
  notifications: NotificationsTable;
  calendar_feeds: CalendarFeedsTable;
  mail_preferences: MailPreferencesTable;
  milestone_reminders: MilestoneRemindersTable;
  jobs: JobsTable;
  notice_fanouts: NoticeFanOutsTable;
  project_experts: ProjectExpertsTable;
  project_milestones: ProjectMilestonesTable;
  project_messages: ProjectMessagesTable;
  project_reads: ProjectReadsTable;
  project_proposals: ProjectProposalsTable;
  project_documents: ProjectDocumentsTable;
  project_document_chunks: ProjectDocumentChunksTable;
  project_events: ProjectEventsTable;
  expertise: ExpertiseTable;
  mail_outbox: MailOutboxTable;
  user_locales: UserLocalesTable;
  audit_log: AuditLogTable;
  deletion_requests: DeletionRequestsTable;
  two_factor: TwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  account_links: AccountLinksTable;
};

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type ContactMessageRow = Selectable<ContactMessagesTable>;
export type ContactReplyRow = Selectable<ContactRepliesTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type MailOutboxRow = Selectable<MailOutboxTable>;
export type NotificationRow = Selectable<NotificationsTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type AccountLinkRow = Selectable<AccountLinksTable>;

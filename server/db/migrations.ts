// The schema's history, written once for both engines with Kysely's schema builder; the few
// differences (auto-increment ids, case-insensitive text, binary data) come from `types`.
// Applied at start (and by `npm run db:migrate`), in one transaction, by one instance at a time:
// PostgreSQL holds an advisory lock, SQLite a write lock (BEGIN IMMEDIATE). Never edit a
// migration that has shipped: add the next one.
import { sql, type ColumnDefinitionBuilder, type Kysely, type RawBuilder } from 'kysely';
import { canonicalIdentity } from '../../shared/identity.ts';

export type Engine = 'sqlite' | 'postgres';

// A migration sees the database without the app's types: the schema it builds is the point.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export type Migration = { version: number; name: string; up: (db: AnyDb, engine: Engine) => Promise<void> };

function types(engine: Engine) {
  const pg = engine === 'postgres';
  return {
    /** An id the database numbers. */
    serial: pg ? sql`serial` : sql`integer`,
    /** Text compared without regard to case (user names, e-mails). */
    nocase: (pg ? sql`citext` : sql`text collate nocase`) as RawBuilder<unknown>,
    blob: pg ? sql`bytea` : sql`blob`,
    bigint: sql`bigint`,
  };
}

const baseline: Migration = {
  version: 1,
  name: 'baseline: users, rate limits, branding, contact messages, form tokens, uploads',
  async up(db, engine) {
    const t = types(engine);
    if (engine === 'postgres') await sql`CREATE EXTENSION IF NOT EXISTS citext`.execute(db);
    await db.schema
      .createTable('users')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('user_name', t.nocase, (c) => c.notNull().unique())
      .addColumn('email', t.nocase, (c) => c.unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role IN ('ADMIN', 'CLI', 'ORG', 'CONS')`))
      .addColumn('avatar', 'text')
      .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('disabled', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`disabled IN (0, 1)`),
      )
      .addColumn('password_changed_at', t.bigint, (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('reset_at', t.bigint, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('branding')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey().references('users.user_name').onUpdate('cascade').onDelete('cascade'))
      .addColumn('color', 'text')
      .addColumn('logo', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('contact_messages')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('locale', 'text', (c) => c.notNull().check(sql`locale IN ('es', 'en')`))
      .addColumn('consent_at', 'text', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('read', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`read IN (0, 1)`),
      )
      .addColumn('notify_status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('none')
          .check(sql`notify_status IN ('none', 'pending', 'sent', 'failed')`),
      )
      .addColumn('notify_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('notify_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('contact_messages_created').on('contact_messages').columns(['created_at desc', 'id desc']).execute();
    await db.schema.createIndex('contact_messages_notify').on('contact_messages').column('notify_status').execute();
    await db.schema
      .createTable('used_form_tokens')
      .addColumn('digest', 'text', (c) => c.primaryKey())
      .addColumn('expires_at', t.bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('used_form_tokens_expiry').on('used_form_tokens').column('expires_at').execute();
    await db.schema
      .createTable('uploads')
      .addColumn('url', 'text', (c) => c.primaryKey())
      .addColumn('owner', t.nocase, (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('uploads_owner').on('uploads').column('owner').execute();
  },
};

const sessions: Migration = {
  version: 2,
  name: 'server-side sessions (instead of revoked tokens)',
  async up(db, engine) {
    const t = types(engine);
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // No foreign key: with an external API (API_URL) the users are the API's, not ours.
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', t.bigint, (c) => c.notNull())
      .addColumn('user_agent', 'text')
      .addColumn('ip', 'text')
      .addColumn('api_token', 'text', (c) => c.notNull())
      .addColumn('token_digest', 'text', (c) => c.notNull())
      .execute();
    // Not unique: an external API may answer two sign-ins with the same token.
    await db.schema.createIndex('sessions_token').on('sessions').column('token_digest').execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_name').execute();
    await db.schema.createIndex('sessions_expiry').on('sessions').column('expires_at').execute();
    await db.schema.dropTable('revoked_tokens').ifExists().execute();
  },
};

const filesAndChanges: Migration = {
  version: 3,
  name: 'uploaded files in the database; the change counter of shared caches',
  async up(db, engine) {
    const t = types(engine);
    // Rows of files that were on disk are filled in by moveUploadsIntoDatabase (db/files.ts).
    await db.schema
      .alterTable('uploads')
      .addColumn('content_type', 'text', (c) => c.notNull().defaultTo('application/octet-stream'))
      .execute();
    await db.schema.alterTable('uploads').addColumn('data', t.blob).execute();
    await db.schema
      .createTable('changes')
      .addColumn('topic', 'text', (c) => c.primaryKey())
      .addColumn('version', t.bigint, (c) => c.notNull())
      .execute();
  },
};

const projects: Migration = {
  version: 4,
  name: 'projects of the private area: briefs, proposals, experts, milestones, messages, documents, history; expert profiles',
  async up(db, engine) {
    const t = types(engine);
    // People are named by user name (no foreign key: with an external API the users are the
    // API's) with the display name as it was when they acted, like the header of a letter.
    await db.schema
      .createTable('projects')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('practice', 'text', (c) => c.notNull().check(sql`practice IN ('digital', 'data', 'sustainability', 'compliance')`))
      .addColumn('state', 'text', (c) =>
        c.notNull().check(sql`state IN ('brief', 'proposal', 'active', 'delivered', 'closed', 'declined', 'cancelled')`),
      )
      .addColumn('owner', t.nocase, (c) => c.notNull())
      .addColumn('owner_name', 'text', (c) => c.notNull())
      .addColumn('owner_role', 'text', (c) => c.notNull())
      .addColumn('organisation', 'text')
      .addColumn('budget', 'text')
      .addColumn('wished_start', 'text')
      .addColumn('deadline', 'text')
      .addColumn('procurement_ref', 'text')
      .addColumn('proposal_scope', 'text')
      .addColumn('proposal_fee', t.bigint)
      .addColumn('proposal_timeline', 'text')
      .addColumn('proposal_sent_at', 'text')
      .addColumn('proposal_sent_by', 'text')
      .addColumn('proposal_answered_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('projects_created').on('projects').columns(['created_at desc', 'id desc']).execute();
    await db.schema.createIndex('projects_owner').on('projects').column('owner').execute();
    await db.schema.createIndex('projects_state').on('projects').column('state').execute();
    await db.schema
      .createTable('project_experts')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('added_at', 'text', (c) => c.notNull())
      .addColumn('added_by', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('project_experts_pk', ['project_id', 'user_name'])
      .execute();
    await db.schema.createIndex('project_experts_user').on('project_experts').column('user_name').execute();
    await db.schema
      .createTable('project_milestones')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('due_date', 'text')
      .addColumn('done_at', 'text')
      .addColumn('done_by', 'text')
      .addColumn('done_by_name', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('project_milestones_project').on('project_milestones').column('project_id').execute();
    await db.schema
      .createTable('project_messages')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('author', t.nocase, (c) => c.notNull())
      .addColumn('author_name', 'text', (c) => c.notNull())
      .addColumn('author_role', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('project_messages_project').on('project_messages').columns(['project_id', 'id']).execute();
    await db.schema
      .createTable('project_reads')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('last_read_id', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('project_reads_pk', ['project_id', 'user_name'])
      .execute();
    await db.schema
      .createTable('project_documents')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('data', t.blob, (c) => c.notNull())
      .addColumn('uploaded_by', t.nocase, (c) => c.notNull())
      .addColumn('uploaded_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('project_documents_project').on('project_documents').column('project_id').execute();
    await db.schema
      .createTable('project_events')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor', t.nocase, (c) => c.notNull())
      .addColumn('actor_name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('from_state', 'text')
      .addColumn('to_state', 'text')
      .addColumn('detail', 'text')
      .execute();
    await db.schema.createIndex('project_events_project').on('project_events').columns(['project_id', 'id']).execute();
    await db.schema
      .createTable('expertise')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('practices', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('day_rate', 'integer')
      .addColumn('availability', 'text', (c) =>
        c
          .notNull()
          .defaultTo('available')
          .check(sql`availability IN ('available', 'busy')`),
      )
      .addColumn('busy_until', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};

const mailOutbox: Migration = {
  version: 5,
  name: 'mail outbox; the locale each user last used',
  async up(db, engine) {
    const t = types(engine);
    // Every e-mail the site sends, rendered when it is queued: the senders of all instances
    // take due rows from here (claimed_at: one sender at a time), so none is lost in a restart.
    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('reply_to', 'text')
      .addColumn('locale', 'text', (c) => c.notNull().check(sql`locale IN ('es', 'en')`))
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('html', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('pending')
          .check(sql`status IN ('pending', 'sent', 'failed')`),
      )
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('next_attempt_at', t.bigint, (c) => c.notNull())
      .addColumn('claimed_at', t.bigint)
      .addColumn('ref', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .execute();
    await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('mail_outbox_ref').on('mail_outbox').column('ref').execute();
    // No foreign key: with an external API (API_URL) the users are the API's, not ours.
    await db.schema
      .createTable('user_locales')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey())
      .addColumn('locale', 'text', (c) => c.notNull().check(sql`locale IN ('es', 'en')`))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};

const auditLog: Migration = {
  version: 7,
  name: 'audit log',
  async up(db, engine) {
    const t = types(engine);
    // Who did what to whom and when (server/audit/log.ts). No foreign keys: an entry outlives
    // the user it names, and with an external API the users are the API's.
    await db.schema
      .createTable('audit_log')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('actor', t.nocase)
      .addColumn('target', t.nocase)
      .addColumn('ip', 'text')
      .addColumn('detail', 'text')
      .execute();
    // Newest first, whole or by action, actor or target; `at` also bounds the date filter and the pruning.
    await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at desc', 'id desc']).execute();
    await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'at desc']).execute();
    await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor', 'at desc']).execute();
    await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target', 'at desc']).execute();
  },
};

const accountDeletionRequests: Migration = {
  version: 9,
  name: 'account deletion requests',
  async up(db, engine) {
    const t = types(engine);
    // One row per user who asked for their account to be deleted: pending until an admin
    // confirms (the user and the row go) or refuses (kept, so that the user sees the answer).
    await db.schema
      .createTable('deletion_requests')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey().references('users.user_name').onUpdate('cascade').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('pending', 'refused')`))
      .addColumn('requested_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .addColumn('decided_by', t.nocase)
      .execute();
    // A user's own messages, page by page (their data export; their deletion re-attributes them).
    await db.schema.createIndex('project_messages_author').on('project_messages').columns(['author', 'id']).execute();
  },
};

const twoFactor: Migration = {
  version: 8,
  name: 'two-factor authentication',
  async up(db, engine) {
    const t = types(engine);
    // No foreign keys: with an external API (API_URL) the users are the API's, not ours.
    // One row per user who has 2FA or is setting it up (enabled_at null). The secret is
    // encrypted (server/two-factor/secrets.ts); last_step is the last time step a code was
    // accepted for, so that no code counts twice.
    await db.schema
      .createTable('two_factor')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('enabled_at', 'text')
      .addColumn('last_step', t.bigint)
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // Keyed digests of the one-time recovery codes; used_at is set once, atomically.
    await db.schema
      .createTable('two_factor_recovery_codes')
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('digest', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('two_factor_recovery_codes_pk', ['user_name', 'digest'])
      .execute();
    // A password that was right, waiting for its second factor: no session exists until the
    // code is. The browser's cookie holds a random id; the row holds its digest.
    await db.schema
      .createTable('two_factor_challenges')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('api_token', 'text', (c) => c.notNull())
      .addColumn('expires_at', t.bigint, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};

const accountLinks: Migration = {
  version: 6,
  name: 'account links: invitations, password resets, e-mail changes',
  async up(db, engine) {
    const t = types(engine);
    // Single-use links sent by e-mail (server/account-links/links.ts): only the sha256 digest of a
    // link's token is kept, never the token. Used and expired rows stay a few days, so that a
    // link opened again is told "already used" or "expired" rather than "unknown".
    await db.schema
      .createTable('account_links')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('invitation', 'password_reset', 'email_change')`))
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('token_digest', 'text', (c) => c.notNull().unique())
      .addColumn('new_email', t.nocase)
      .addColumn('expires_at', t.bigint, (c) => c.notNull())
      .addColumn('used_at', t.bigint)
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('account_links_user').on('account_links').columns(['user_name', 'kind']).execute();
    await db.schema.createIndex('account_links_expiry').on('account_links').column('expires_at').execute();
    // Set while an invited user has not chosen a password yet (the console shows who).
    await db.schema.alterTable('users').addColumn('invited_at', 'text').execute();
  },
};

const documentChunks: Migration = {
  version: 10,
  name: 'project documents stored in chunks of 256 KiB',
  async up(db, engine) {
    const t = types(engine);
    // A download reads one chunk at a time (server/projects/document-chunks.ts): a 10 MB
    // document no longer costs 10 MB of memory per download, on either engine.
    await db.schema
      .createTable('project_document_chunks')
      .addColumn('document_id', 'integer', (c) => c.notNull().references('project_documents.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('data', t.blob, (c) => c.notNull())
      .addPrimaryKeyConstraint('project_document_chunks_pk', ['document_id', 'seq'])
      .execute();
    // The documents kept whole are cut in the database itself (substr counts bytes of a blob on
    // both engines): no document passes through the process's memory.
    await sql`
      WITH RECURSIVE parts (document_id, seq) AS (
        SELECT id, 0 FROM project_documents
        UNION ALL
        SELECT parts.document_id, parts.seq + 1 FROM parts JOIN project_documents d ON d.id = parts.document_id
        WHERE (parts.seq + 1) * 262144 < length(d.data)
      )
      INSERT INTO project_document_chunks (document_id, seq, data)
      SELECT parts.document_id, parts.seq, substr(d.data, parts.seq * 262144 + 1, 262144)
      FROM parts JOIN project_documents d ON d.id = parts.document_id`.execute(db);
    await db.schema.alterTable('project_documents').dropColumn('data').execute();
  },
};

const mailPriority: Migration = {
  version: 11,
  name: 'mail priority: security e-mails before notices',
  async up(db) {
    // 0: a security e-mail (a link to choose a password, confirm an address; a warning to the
    // account's address); 1: a notice. The senders take the lowest first (server/mail/outbox.ts).
    await db.schema
      .alterTable('mail_outbox')
      .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db
      .updateTable('mail_outbox')
      .set({ priority: 0 })
      .where('kind', 'in', ['invitation', 'password_reset', 'email_change_confirm', 'email_change_requested', 'email_changed'])
      .execute();
    await db.schema.dropIndex('mail_outbox_due').execute();
    await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'priority', 'next_attempt_at']).execute();
  },
};

const milestoneEvents: Migration = {
  version: 12,
  name: 'history events name their milestone (repeated toggles collapse)',
  async up(db) {
    // Which milestone a milestone_done / milestone_reopened event is about (server/projects/service.ts).
    await db.schema.alterTable('project_events').addColumn('milestone_id', 'integer').execute();
  },
};

/**
 * The columns that name a user (or hold an address) besides users' own: put in canonical form
 * with them, so that every comparison of stored names is a comparison of canonical forms.
 */
const IDENTITY_COLUMNS: readonly (readonly [table: string, column: string])[] = [
  ['branding', 'user_name'],
  ['uploads', 'owner'],
  ['sessions', 'user_name'],
  ['projects', 'owner'],
  ['projects', 'proposal_sent_by'],
  ['project_experts', 'user_name'],
  ['project_experts', 'added_by'],
  ['project_milestones', 'done_by'],
  ['project_messages', 'author'],
  ['project_reads', 'user_name'],
  ['project_documents', 'uploaded_by'],
  ['project_events', 'actor'],
  ['expertise', 'user_name'],
  ['user_locales', 'user_name'],
  ['audit_log', 'actor'],
  ['audit_log', 'target'],
  ['deletion_requests', 'user_name'],
  ['deletion_requests', 'decided_by'],
  ['two_factor', 'user_name'],
  ['two_factor_recovery_codes', 'user_name'],
  ['two_factor_challenges', 'user_name'],
  ['account_links', 'user_name'],
  ['account_links', 'new_email'],
];

/** Rewrites every value of the column that is not in its canonical form; names the value it cannot rewrite. */
async function canonicalColumn(db: AnyDb, engine: Engine, table: string, column: string): Promise<void> {
  // Compared byte for byte: the column's own collation (NOCASE, citext) would take "Ana" for "ana".
  const exact = engine === 'postgres' ? sql`${sql.ref(column)}::text` : sql`${sql.ref(column)} COLLATE BINARY`;
  const { rows } = await sql<{
    value: string;
  }>`SELECT DISTINCT ${exact} AS value FROM ${sql.table(table)} WHERE ${sql.ref(column)} IS NOT NULL`.execute(db);
  for (const { value } of rows) {
    const canonical = canonicalIdentity(value);
    if (canonical === value) continue;
    try {
      await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${canonical} WHERE ${exact} = ${value}`.execute(db);
    } catch (error) {
      throw new Error(
        `${table}.${column}: ${JSON.stringify(value)} cannot become ${JSON.stringify(canonical)} (another row holds it already): ` +
          'remove one of the two rows, then start again',
        { cause: error },
      );
    }
  }
}

const canonicalIdentities: Migration = {
  version: 13,
  name: 'user names and e-mail addresses in their canonical form (NFKC, lower case)',
  async up(db, engine) {
    // Two users whose names (or addresses) are one name written two ways cannot both stay: the
    // migration stops, naming them, and an operator decides which one keeps it.
    const users = await db.selectFrom('users').select(['id', 'user_name', 'email']).orderBy('id').execute();
    const clashes: string[] = [];
    for (const column of ['user_name', 'email'] as const) {
      const seen = new Map<string, { id: number; value: string }>();
      for (const row of users as { id: number; user_name: string; email: string | null }[]) {
        const value = row[column];
        if (value === null) continue;
        const canonical = canonicalIdentity(value);
        const first = seen.get(canonical);
        if (first) {
          clashes.push(
            `users ${first.id} (${column} ${JSON.stringify(first.value)}) and ${row.id} (${column} ${JSON.stringify(value)}) are both ${JSON.stringify(canonical)}`,
          );
        } else seen.set(canonical, { id: row.id, value });
      }
    }
    if (clashes.length > 0) {
      throw new Error(
        `User names and e-mail addresses must be unique once normalised (NFKC, lower case), and these are not: ${clashes.join('; ')}. ` +
          'Rename or remove one user of each pair (UPDATE users SET user_name = … / email = … WHERE id = …), then start again.',
      );
    }
    for (const [table, column] of [['users', 'user_name'], ['users', 'email'], ...IDENTITY_COLUMNS] as const) {
      await canonicalColumn(db, engine, table, column);
    }
  },
};

const documentQuotas: Migration = {
  version: 14,
  name: "project documents by uploader: the per-user byte quota's sum",
  async up(db) {
    // The per-user quota sums the bytes of one uploader's documents over every project
    // (server/projects/document-quotas.ts): with the bytes in the index, from the index alone.
    await db.schema.createIndex('project_documents_uploader').on('project_documents').columns(['uploaded_by', 'bytes']).execute();
  },
};

/** The tables whose rows a project counts (trigger names are built from them). */
const COUNTED = [
  ['project_events', 'event_count'],
  ['project_messages', 'message_count'],
] as const;

const projectCounts: Migration = {
  version: 15,
  name: 'a project counts its history and its conversation (kept by triggers)',
  async up(db, engine) {
    // A page of a project's history or conversation says how long it is: counting 50,000 rows of
    // the index on every page cost more than reading the page (scripts/bench/scale.ts). The
    // database keeps the counts with the project, whoever writes the rows.
    for (const [table, column] of COUNTED) {
      await db.schema
        .alterTable('projects')
        .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`UPDATE projects SET ${sql.ref(column)} = (SELECT count(*) FROM ${sql.table(table)} t WHERE t.project_id = projects.id)`.execute(
        db,
      );
      const name = (event: string) => sql.raw(`${table}_${event}_counted`);
      if (engine === 'sqlite') {
        await sql`CREATE TRIGGER ${name('insert')} AFTER INSERT ON ${sql.table(table)} BEGIN
          UPDATE projects SET ${sql.ref(column)} = ${sql.ref(column)} + 1 WHERE id = NEW.project_id; END`.execute(db);
        await sql`CREATE TRIGGER ${name('delete')} AFTER DELETE ON ${sql.table(table)} BEGIN
          UPDATE projects SET ${sql.ref(column)} = ${sql.ref(column)} - 1 WHERE id = OLD.project_id; END`.execute(db);
        continue;
      }
      // PostgreSQL: once per statement, over its rows (a bulk insert updates each project once).
      for (const [event, rows, sign] of [
        ['insert', 'NEW', '+'],
        ['delete', 'OLD', '-'],
      ] as const) {
        await sql`CREATE FUNCTION ${name(event)}() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            UPDATE projects SET ${sql.ref(column)} = ${sql.ref(column)} ${sql.raw(sign)} changed.n
              FROM (SELECT project_id, count(*) AS n FROM changed_rows GROUP BY project_id) changed
              WHERE projects.id = changed.project_id;
            RETURN NULL;
          END $$`.execute(db);
        await sql`CREATE TRIGGER ${name(event)} AFTER ${sql.raw(event.toUpperCase())} ON ${sql.table(table)}
          REFERENCING ${sql.raw(rows)} TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name(event)}()`.execute(db);
      }
    }
  },
};

const proposalVersions: Migration = {
  version: 16,
  name: 'every proposal sent is kept as a version, with who answered it, when and from where',
  async up(db, engine) {
    const t = types(engine);
    await db.schema
      .createTable('project_proposals')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('fee', t.bigint, (c) => c.notNull())
      .addColumn('timeline', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text', (c) => c.notNull())
      .addColumn('sent_by', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('open', 'accepted', 'declined', 'superseded', 'withdrawn')`))
      .addColumn('answered_at', 'text')
      .addColumn('answered_by', 'text')
      .addColumn('answered_ip', 'text')
      .addUniqueConstraint('project_proposals_version', ['project_id', 'version'])
      .execute();
    // The proposal each project holds today is its first version; its state says how it was answered.
    await sql`INSERT INTO project_proposals (project_id, version, scope, fee, timeline, sent_at, sent_by, status, answered_at, answered_by)
      SELECT id, 1, proposal_scope, COALESCE(proposal_fee, 0), COALESCE(proposal_timeline, ''), proposal_sent_at, COALESCE(proposal_sent_by, ''),
        CASE WHEN state = 'proposal' THEN 'open'
             WHEN state = 'declined' THEN 'declined'
             WHEN state IN ('active', 'delivered', 'closed') THEN 'accepted'
             ELSE 'withdrawn' END,
        proposal_answered_at,
        CASE WHEN proposal_answered_at IS NOT NULL AND state IN ('declined', 'active', 'delivered', 'closed') THEN owner END
      FROM projects WHERE proposal_sent_at IS NOT NULL AND proposal_scope IS NOT NULL`.execute(db);
  },
};

const companies: Migration = {
  version: 17,
  name: 'client companies and organisations: members, managers, and the projects they own together',
  async up(db, engine) {
    const t = types(engine);
    await db.schema
      .createTable('companies')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('CLI', 'ORG')`))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // One company per user (the primary key): a user belongs to exactly one.
    await db.schema
      .createTable('company_members')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey())
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role IN ('manager', 'member')`))
      .addColumn('joined_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('company_members_company').on('company_members').columns(['company_id', 'role']).execute();
    await db.schema
      .alterTable('projects')
      .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex('projects_company').on('projects').columns(['company_id', 'created_at']).execute();

    // Every client and organisation user, and every owner of a project the site still has
    // (an external API's users are not in the users table), becomes the manager of a company of
    // their own, named by the organisation of their latest project that has one, else by them.
    const people = await sql<{ user_name: string; role: string; name: string }>`
      SELECT user_name, role, trim(name || ' ' || last_name) AS name FROM users WHERE role IN ('CLI', 'ORG')
      UNION
      SELECT owner, MAX(owner_role), MAX(owner_name) FROM projects
        WHERE owner <> '~deleted' AND owner_role IN ('CLI', 'ORG') AND owner NOT IN (SELECT user_name FROM users) GROUP BY owner`.execute(
      db,
    );
    const organisations = await sql<{ owner: string; organisation: string }>`
      SELECT p.owner, p.organisation FROM projects p
      WHERE p.organisation IS NOT NULL AND trim(p.organisation) <> ''
        AND p.id = (SELECT MAX(q.id) FROM projects q WHERE q.owner = p.owner AND q.organisation IS NOT NULL AND trim(q.organisation) <> '')`.execute(
      db,
    );
    const organisationOf = new Map(organisations.rows.map((r) => [canonicalIdentity(r.owner), r.organisation.trim()]));
    const at = new Date().toISOString();
    for (const person of people.rows) {
      const name = organisationOf.get(canonicalIdentity(person.user_name)) ?? (person.name.trim() || person.user_name);
      const company = await db
        .insertInto('companies')
        .values({ name, kind: person.role, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('company_members')
        .values({ user_name: person.user_name, company_id: company.id, role: 'manager', joined_at: at })
        .execute();
    }
    await sql`UPDATE projects SET company_id = (SELECT m.company_id FROM company_members m WHERE m.user_name = projects.owner)`.execute(db);
  },
};

const companyBranding: Migration = {
  version: 18,
  name: "a client's navbar branding belongs to their company: every person of it sees it",
  async up(db) {
    await db.schema
      .createTable('company_branding')
      .addColumn('company_id', 'integer', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
      .addColumn('color', 'text')
      .addColumn('logo', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // Each client and organisation manages a company of their own since migration 17: their
    // branding becomes that company's, and their own row goes (it would never be read again).
    await sql`INSERT INTO company_branding (company_id, color, logo, updated_at)
      SELECT m.company_id, b.color, b.logo, b.updated_at FROM branding b JOIN company_members m ON m.user_name = b.user_name`.execute(db);
    await sql`DELETE FROM branding WHERE user_name IN (SELECT user_name FROM company_members)`.execute(db);
  },
};

const notifications: Migration = {
  version: 19,
  name: 'notifications: every notice of a project, per recipient, read or not (the bell and its page)',
  async up(db, engine) {
    const t = types(engine);
    // One row per recipient of a notice (server/notifications/). The project's title and the
    // actor's name are kept as they were said: a notification reads the same later.
    await db.schema
      .createTable('notifications')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
      .addColumn('project_title', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('detail', 'text')
      .addColumn('ref', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('read_at', 'text')
      .execute();
    // A user's page, newest first; their unread ones (the bell's count); a held notice's rows.
    await db.schema.createIndex('notifications_user').on('notifications').columns(['user_name', 'id desc']).execute();
    await db.schema
      .createIndex('notifications_unread')
      .on('notifications')
      .columns(['user_name', 'project_id'])
      .where(sql.ref('read_at'), 'is', null)
      .execute();
    await db.schema.createIndex('notifications_ref').on('notifications').column('ref').execute();
    await db.schema.createIndex('notifications_created').on('notifications').column('created_at').execute();
  },
};

const notificationActors: Migration = {
  version: 20,
  name: "notifications name their actor's account: an account deleted stops being named in them",
  async up(db, engine) {
    const t = types(engine);
    // Rows written before: nobody to find (their actor's name stays as it was said).
    await db.schema
      .alterTable('notifications')
      .addColumn('actor_user', t.nocase, (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('notifications_actor').on('notifications').column('actor_user').execute();
  },
};

const calendarFeeds: Migration = {
  version: 21,
  name: "calendar feeds: a user's private iCalendar address, renewed or stopped from their profile",
  async up(db, engine) {
    const t = types(engine);
    // The address is the row's id and a MAC of (id, user, generation) under a key of the site's:
    // nothing secret is stored, a new generation kills the old address (server/calendar-feed/feeds.ts).
    await db.schema
      .createTable('calendar_feeds')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('user_name', t.nocase, (c) => c.notNull().unique())
      .addColumn('generation', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};

const mailPreferences: Migration = {
  version: 22,
  name: 'e-mail preferences, one-click unsubscribe headers, milestone reminders and the job table',
  async up(db, engine) {
    const t = types(engine);
    // A user's choice per topic (shared/mail-preferences.ts); no row: every notice at once.
    // digest_after: the last notification a digest of theirs told (server/jobs/digest.ts).
    const mode = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('immediate');
    await db.schema
      .createTable('mail_preferences')
      .addColumn('user_name', t.nocase, (c) => c.primaryKey())
      .addColumn('messages', 'text', mode)
      .addColumn('states', 'text', mode)
      .addColumn('milestones', 'text', mode)
      .addColumn('documents', 'text', mode)
      .addColumn('reminders', 'text', mode)
      .addColumn('reminder_days', 'integer', (c) => c.notNull().defaultTo(3))
      .addColumn('digest_after', t.bigint, (c) => c.notNull().defaultTo(0))
      // Per topic, the notification after which it counts in a digest (JSON): a topic moved into
      // the digest tells what comes next, never what was e-mailed (or not wanted) before.
      .addColumn('digest_starts', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // Headers of a notice (List-Unsubscribe, List-Unsubscribe-Post: RFC 8058), as JSON.
    await db.schema.alterTable('mail_outbox').addColumn('headers', 'text').execute();
    // One reminder per milestone, person, kind and due day: a job run twice reminds once, a
    // milestone moved to another day is reminded of again.
    await db.schema
      .createTable('milestone_reminders')
      .addColumn('milestone_id', 'integer', (c) => c.notNull().references('project_milestones.id').onDelete('cascade'))
      .addColumn('user_name', t.nocase, (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('due_date', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('milestone_reminders_pk', ['milestone_id', 'user_name', 'kind', 'due_date'])
      .execute();
    await db.schema.createIndex('milestone_reminders_user').on('milestone_reminders').column('user_name').execute();
    // The reminders' daily look: milestones not done, by due day.
    await db.schema
      .createIndex('project_milestones_due')
      .on('project_milestones')
      .column('due_date')
      .where(sql.ref('done_at'), 'is', null)
      .execute();
    // The jobs (server/jobs/): one row per run, named by its key ('digest:2026-11-27'), claimed
    // by one instance at a time, retried with growing pauses.
    await db.schema
      .createTable('jobs')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('key', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('run_at', t.bigint, (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('claimed_at', t.bigint)
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('done_at', 'text')
      .execute();
    await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();
  },
};

export const MIGRATIONS: readonly Migration[] = [
  baseline,
  sessions,
  filesAndChanges,
  projects,
  mailOutbox,
  accountLinks,
  auditLog,
  twoFactor,
  accountDeletionRequests,
  documentChunks,
  mailPriority,
  milestoneEvents,
  canonicalIdentities,
  documentQuotas,
  projectCounts,
  proposalVersions,
  companies,
  companyBranding,
  notifications,
  notificationActors,
  calendarFeeds,
  mailPreferences,
];

// Everything the site holds about one user, as one JSON document written piece by piece: every
// list is read in pages of EXPORT_PAGE_ROWS (keyset, by id) and written out as it is read, in
// chunks of about EXPORT_CHUNK_CHARS, so that a user with tens of thousands of messages costs
// one page of rows and one chunk of memory, never the whole document. No secrets: no password
// hash, no session token, no file's bytes (documents are listed by name, size and date).
import { sql } from 'kysely';
import type { SessionUser } from '../../shared/user.ts';
import { deviceOf } from '../../shared/user-agent.ts';
import type { Db } from '../db/index.ts';
import type { ProjectRow } from '../db/schema.ts';
import { findUser, type User } from '../users/users.ts';

/** Rows read per query. */
export const EXPORT_PAGE_ROWS = 100;
/** Characters gathered before they are handed to the sink. */
export const EXPORT_CHUNK_CHARS = 64 * 1024;
/** The shape of the document: raised when a field changes meaning. */
export const EXPORT_FORMAT = 1;

/** Where the document goes: resolves when the chunk may be followed by the next (backpressure). */
export type ExportSink = (chunk: string) => Promise<void>;

export type ExportDeps = {
  db: Db;
  /** With the built-in API the users are the site's own (profile, deletion request). */
  builtIn: boolean;
  siteName: string;
  now?: () => Date;
};

/** Gathers text and hands it to the sink in chunks. */
function chunked(sink: ExportSink) {
  let buffer = '';
  return {
    async write(text: string) {
      buffer += text;
      if (buffer.length >= EXPORT_CHUNK_CHARS) {
        const chunk = buffer;
        buffer = '';
        await sink(chunk);
      }
    },
    async end() {
      if (buffer) await sink(buffer);
      buffer = '';
    },
  };
}

type Writer = ReturnType<typeof chunked>;

/** Reads a table page by page after the last key seen (the rows must come ordered by that key). */
async function* pages<R, K>(read: (after: K | null) => Promise<R[]>, keyOf: (row: R) => K): AsyncGenerator<R[]> {
  let after: K | null = null;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_PAGE_ROWS) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}

/** Writes `"name":[…]` from the pages, each row by `writeItem`. */
async function writeArray<R, K>(
  out: Writer,
  name: string,
  read: (after: K | null) => Promise<R[]>,
  keyOf: (row: R) => K,
  writeItem: (row: R) => Promise<void>,
): Promise<void> {
  await out.write(`${JSON.stringify(name)}:[`);
  let first = true;
  for await (const rows of pages(read, keyOf)) {
    for (const row of rows) {
      await out.write(first ? '\n' : ',\n');
      first = false;
      await writeItem(row);
    }
  }
  await out.write(']');
}

/** A row written as the object `map` makes of it. */
function asJson<R>(out: Writer, map: (row: R) => unknown): (row: R) => Promise<void> {
  return (row) => out.write(JSON.stringify(map(row)));
}

function json(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A notification's facts, without the quote of another person's message. */
function withoutExcerpt(detail: unknown): unknown {
  if (typeof detail !== 'object' || detail === null) return detail;
  const { excerpt: _excerpt, ...rest } = detail as Record<string, unknown>;
  return rest;
}

/** What every section reads from: the user, their record (built-in API only) and the writer. */
type ExportContext = {
  deps: ExportDeps;
  k: Db['k'];
  out: Writer;
  user: SessionUser;
  userName: string;
  record: User | null;
  email: string | null;
  currentSessionId: string | null;
};

/**
 * One member of the document: a `value` (an object or null, serialised by the walker) or a
 * `list`, which writes `"name":[…]` itself as it reads it.
 */
type Section =
  { name: string; value: (ctx: ExportContext) => unknown } | { name: string; list: (ctx: ExportContext, name: string) => Promise<void> };

function profile({ record, user, userName }: ExportContext): unknown {
  if (!record) return { userName, name: user.name, lastName: user.lastName, role: user.role, avatar: user.avatar, scope: user.scope };
  return {
    userName: record.userName,
    name: record.name,
    lastName: record.lastName,
    email: record.email,
    role: record.role,
    avatar: record.avatar,
    scope: record.scope,
    disabled: record.disabled,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    passwordChangedAt: record.passwordChangedAt > 0 ? new Date(record.passwordChangedAt * 1000).toISOString() : null,
  };
}

async function lastUsedLocale({ k, userName }: ExportContext): Promise<unknown> {
  const locale = await k.selectFrom('user_locales').select(['locale', 'updated_at']).where('user_name', '=', userName).executeTakeFirst();
  return locale ? { locale: locale.locale, updatedAt: locale.updated_at } : null;
}

/** The navbar branding the user sees: their company's (docs/decisions/041). */
async function branding({ k, userName }: ExportContext): Promise<unknown> {
  const row = await k
    .selectFrom('company_members as m')
    .innerJoin('company_branding as b', 'b.company_id', 'm.company_id')
    .select(['b.color', 'b.logo', 'b.updated_at'])
    .where('m.user_name', '=', userName)
    .executeTakeFirst();
  return row ? { color: row.color, logo: row.logo, updatedAt: row.updated_at } : null;
}

async function expertProfile({ k, userName }: ExportContext): Promise<unknown> {
  const expertise = await k.selectFrom('expertise').selectAll().where('user_name', '=', userName).executeTakeFirst();
  if (!expertise) return null;
  return {
    name: expertise.name,
    practices: json(expertise.practices),
    bio: expertise.bio,
    dayRate: expertise.day_rate,
    availability: expertise.availability,
    busyUntil: expertise.busy_until,
    updatedAt: expertise.updated_at,
  };
}

async function deletionRequest({ deps, k, userName }: ExportContext): Promise<unknown> {
  const deletion = deps.builtIn
    ? await k.selectFrom('deletion_requests').selectAll().where('user_name', '=', userName).executeTakeFirst()
    : undefined;
  return deletion ? { status: deletion.status, requestedAt: deletion.requested_at, decidedAt: deletion.decided_at } : null;
}

/** What they are e-mailed about (null: never chose, everything at once). */
async function mailPreferences({ k, userName }: ExportContext): Promise<unknown> {
  const preferences = await k.selectFrom('mail_preferences').selectAll().where('user_name', '=', userName).executeTakeFirst();
  if (!preferences) return null;
  return {
    messages: preferences.messages,
    states: preferences.states,
    milestones: preferences.milestones,
    documents: preferences.documents,
    reminders: preferences.reminders,
    reminderDays: Number(preferences.reminder_days),
    updatedAt: preferences.updated_at,
  };
}

/** Whether they have a calendar address (not the address: it is a key). */
async function calendarFeed({ k, userName }: ExportContext): Promise<unknown> {
  const calendar = await k.selectFrom('calendar_feeds').select('created_at').where('user_name', '=', userName).executeTakeFirst();
  return calendar ? { createdAt: calendar.created_at } : null;
}

/** Sessions, without their tokens or ids. */
function sessions({ k, out, userName, currentSessionId }: ExportContext, name: string): Promise<void> {
  return writeArray(
    out,
    name,
    (after: string | null) => {
      let q = k
        .selectFrom('sessions')
        .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'user_agent', 'ip'])
        .where('user_name', '=', userName);
      if (after !== null) q = q.where('id', '>', after);
      return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (row) => row.id,
    asJson(out, (row) => ({
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      expiresAt: new Date(Number(row.expires_at) * 1000).toISOString(),
      userAgent: row.user_agent,
      device: deviceOf(row.user_agent),
      ip: row.ip,
      thisSession: row.id === currentSessionId,
    })),
  );
}

/** Images they uploaded (their avatar, their branding's logo): where and what, not the bytes. */
function images({ k, out, userName }: ExportContext, name: string): Promise<void> {
  return writeArray(
    out,
    name,
    (after: string | null) => {
      let q = k.selectFrom('uploads').select(['url', 'content_type', 'bytes', 'created_at']).where('owner', '=', userName);
      if (after !== null) q = q.where('url', '>', after);
      return q.orderBy('url').limit(EXPORT_PAGE_ROWS).execute();
    },
    (row) => row.url,
    asJson(out, (row) => ({ url: row.url, contentType: row.content_type, bytes: Number(row.bytes), createdAt: row.created_at })),
  );
}

/** The projects they own or work on, each with its milestones and its whole history. */
function projects(ctx: ExportContext, name: string): Promise<void> {
  const { k, out, userName } = ctx;
  const experts = k.selectFrom('project_experts').select('project_id').where('user_name', '=', userName);
  return writeArray(
    out,
    name,
    (after: number | null) => {
      let q = k
        .selectFrom('projects as p')
        .selectAll('p')
        .select((eb) => eb.case().when('p.owner', '=', userName).then(sql.lit('owner')).else(sql.lit('expert')).end().as('relation'))
        .where((eb) => eb.or([eb('p.owner', '=', userName), eb('p.id', 'in', experts)]));
      if (after !== null) q = q.where('p.id', '>', after);
      return q.orderBy('p.id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (row) => row.id,
    async (p) => {
      // The object without its closing brace, then its two lists.
      await out.write(`${JSON.stringify(projectHead(p)).slice(0, -1)},`);
      await projectMilestones(ctx, p.id);
      await out.write(',');
      await projectEvents(ctx, p.id);
      await out.write('}');
    },
  );
}

function projectHead(p: ProjectRow & { relation: string }): unknown {
  return {
    id: p.id,
    relation: p.relation,
    title: p.title,
    description: p.description,
    practice: p.practice,
    state: p.state,
    owner: p.owner,
    ownerName: p.owner_name,
    organisation: p.organisation,
    budget: p.budget,
    wishedStart: p.wished_start,
    deadline: p.deadline,
    procurementRef: p.procurement_ref,
    proposal: p.proposal_sent_at
      ? {
          scope: p.proposal_scope,
          fee: p.proposal_fee === null ? null : Number(p.proposal_fee),
          timeline: p.proposal_timeline,
          sentAt: p.proposal_sent_at,
          answeredAt: p.proposal_answered_at,
        }
      : null,
    createdAt: p.created_at,
    updatedAt: p.updated_at,
  };
}

function projectMilestones({ k, out }: ExportContext, projectId: number): Promise<void> {
  return writeArray(
    out,
    'milestones',
    (after: number | null) => {
      let q = k.selectFrom('project_milestones').selectAll().where('project_id', '=', projectId);
      if (after !== null) q = q.where('id', '>', after);
      return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (m) => m.id,
    asJson(out, (m) => ({ id: m.id, title: m.title, dueDate: m.due_date, doneAt: m.done_at, doneBy: m.done_by, createdAt: m.created_at })),
  );
}

function projectEvents({ k, out }: ExportContext, projectId: number): Promise<void> {
  return writeArray(
    out,
    'events',
    (after: number | null) => {
      let q = k.selectFrom('project_events').selectAll().where('project_id', '=', projectId);
      if (after !== null) q = q.where('id', '>', after);
      return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (e) => e.id,
    asJson(out, (e) => ({
      id: e.id,
      at: e.at,
      actor: e.actor,
      actorName: e.actor_name,
      kind: e.kind,
      from: e.from_state,
      to: e.to_state,
      detail: e.detail,
    })),
  );
}

/** What they wrote in the projects' conversations. */
function messages({ k, out, userName }: ExportContext, name: string): Promise<void> {
  return writeArray(
    out,
    name,
    (after: number | null) => {
      let q = k
        .selectFrom('project_messages')
        .select(['id', 'project_id', 'author_name', 'author_role', 'body', 'created_at'])
        .where('author', '=', userName);
      if (after !== null) q = q.where('id', '>', after);
      return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (m) => m.id,
    asJson(out, (m) => ({
      id: m.id,
      projectId: m.project_id,
      authorName: m.author_name,
      role: m.author_role,
      body: m.body,
      createdAt: m.created_at,
    })),
  );
}

/** The documents they uploaded to projects: the list, not the files. */
function documents({ k, out, userName }: ExportContext, name: string): Promise<void> {
  return writeArray(
    out,
    name,
    (after: number | null) => {
      let q = k
        .selectFrom('project_documents')
        .select(['id', 'project_id', 'name', 'content_type', 'bytes', 'uploaded_at'])
        .where('uploaded_by', '=', userName);
      if (after !== null) q = q.where('id', '>', after);
      return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (d) => d.id,
    asJson(out, (d) => ({
      id: d.id,
      projectId: d.project_id,
      name: d.name,
      contentType: d.content_type,
      bytes: Number(d.bytes),
      uploadedAt: d.uploaded_at,
    })),
  );
}

/**
 * Their notifications (the bell's; each reminder they were sent is one) — without the start of
 * someone else's message that a notification quotes: their words are not this user's data.
 */
function notifications({ k, out, userName }: ExportContext, name: string): Promise<void> {
  return writeArray(
    out,
    name,
    (after: number | null) => {
      let q = k.selectFrom('notifications').selectAll().where('user_name', '=', userName);
      if (after !== null) q = q.where('id', '>', after);
      return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (n) => Number(n.id),
    asJson(out, (n) => ({
      id: Number(n.id),
      kind: n.kind,
      projectId: n.project_id === null ? null : Number(n.project_id),
      projectTitle: n.project_title,
      actor: n.actor,
      detail: withoutExcerpt(json(n.detail)),
      createdAt: n.created_at,
      readAt: n.read_at,
    })),
  );
}

/** Messages sent through the contact form from their e-mail address. */
function contactMessages({ k, out, email }: ExportContext, name: string): Promise<void> {
  return writeArray(
    out,
    name,
    async (after: number | null) => {
      if (!email) return [];
      let q = k
        .selectFrom('contact_messages')
        .select(['id', 'name', 'email', 'company', 'subject', 'message', 'locale', 'consent_at', 'ip', 'created_at'])
        .where(sql`lower(email)`, '=', email.toLowerCase());
      if (after !== null) q = q.where('id', '>', after);
      return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (c) => c.id,
    asJson(out, (c) => ({
      id: c.id,
      name: c.name,
      email: c.email,
      company: c.company,
      subject: c.subject,
      message: c.message,
      locale: c.locale,
      consentAt: c.consent_at,
      ip: c.ip,
      createdAt: c.created_at,
    })),
  );
}

/** The document's members, in the order they are written. */
const SECTIONS: readonly Section[] = [
  { name: 'format', value: () => EXPORT_FORMAT },
  { name: 'exportedAt', value: ({ deps }) => (deps.now?.() ?? new Date()).toISOString() },
  { name: 'site', value: ({ deps }) => deps.siteName },
  { name: 'profile', value: profile },
  { name: 'lastUsedLocale', value: lastUsedLocale },
  { name: 'branding', value: branding },
  { name: 'expertProfile', value: expertProfile },
  { name: 'deletionRequest', value: deletionRequest },
  { name: 'mailPreferences', value: mailPreferences },
  { name: 'calendarFeed', value: calendarFeed },
  { name: 'sessions', list: sessions },
  { name: 'images', list: images },
  { name: 'projects', list: projects },
  { name: 'messages', list: messages },
  { name: 'documents', list: documents },
  { name: 'notifications', list: notifications },
  { name: 'contactMessages', list: contactMessages },
];

/**
 * Writes the document of `user` (signed in on session `currentSessionId`) to the sink, section
 * by section. It reads the site's own tables: with an external API the profile is what the
 * session knows of the user.
 */
export async function writeAccountData(
  deps: ExportDeps,
  user: SessionUser,
  currentSessionId: string | null,
  sink: ExportSink,
): Promise<void> {
  const out = chunked(sink);
  const record = deps.builtIn ? await findUser(deps.db, user.userName) : null;
  const ctx: ExportContext = {
    deps,
    k: deps.db.k,
    out,
    user,
    userName: user.userName,
    record,
    email: record?.email ?? null,
    currentSessionId,
  };
  await out.write('{\n');
  for (const [i, section] of SECTIONS.entries()) {
    const separator = i < SECTIONS.length - 1 ? ',\n' : '';
    if ('value' in section) {
      await out.write(`${JSON.stringify(section.name)}:${JSON.stringify(await section.value(ctx))}${separator}`);
    } else {
      await section.list(ctx, section.name);
      if (separator) await out.write(separator);
    }
  }
  await out.write('\n}\n');
  await out.end();
}

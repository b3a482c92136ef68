// Everything the site holds about one user, as one JSON document written piece by piece: every
// list is read in pages of EXPORT_PAGE_ROWS (keyset, by id) and written out as it is read, in
// chunks of about EXPORT_CHUNK_CHARS, so that a user with tens of thousands of messages costs
// one page of rows and one chunk of memory, never the whole document. No secrets: no password
// hash, no session token, no file's bytes (documents are listed by name, size and date).
import { sql } from 'kysely';
import type { SessionUser } from '../../shared/user.ts';
import { deviceOf } from '../../shared/user-agent.ts';
import type { Db } from '../db/index.ts';
import { findUser } from '../users/users.ts';

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

function json(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Writes the document of `user` (signed in on session `currentSessionId`) to the sink. It reads
 * the site's own tables: with an external API the profile is what the session knows of the user.
 */
/** A notification's facts, without the quote of another person's message. */
function withoutExcerpt(detail: unknown): unknown {
  if (typeof detail !== 'object' || detail === null) return detail;
  const { excerpt: _excerpt, ...rest } = detail as Record<string, unknown>;
  return rest;
}

export async function writeAccountData(
  deps: ExportDeps,
  user: SessionUser,
  currentSessionId: string | null,
  sink: ExportSink,
): Promise<void> {
  const { db } = deps;
  const { k } = db;
  const out = chunked(sink);
  const userName = user.userName;
  const record = deps.builtIn ? await findUser(db, userName) : null;
  const email = record?.email ?? null;

  const field = async (name: string, value: unknown, last = false) => {
    await out.write(`${JSON.stringify(name)}:${JSON.stringify(value)}${last ? '' : ',\n'}`);
  };

  /** A row written as the object `map` makes of it. */
  const asJson =
    <R>(map: (row: R) => unknown) =>
    (row: R) =>
      out.write(JSON.stringify(map(row)));

  await out.write('{\n');
  await field('format', EXPORT_FORMAT);
  await field('exportedAt', (deps.now?.() ?? new Date()).toISOString());
  await field('site', deps.siteName);
  await field(
    'profile',
    record
      ? {
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
        }
      : { userName, name: user.name, lastName: user.lastName, role: user.role, avatar: user.avatar, scope: user.scope },
  );

  const locale = await k.selectFrom('user_locales').select(['locale', 'updated_at']).where('user_name', '=', userName).executeTakeFirst();
  await field('lastUsedLocale', locale ? { locale: locale.locale, updatedAt: locale.updated_at } : null);

  // The navbar branding the user sees: their company's (docs/decisions/041).
  const branding = await k
    .selectFrom('company_members as m')
    .innerJoin('company_branding as b', 'b.company_id', 'm.company_id')
    .select(['b.color', 'b.logo', 'b.updated_at'])
    .where('m.user_name', '=', userName)
    .executeTakeFirst();
  await field('branding', branding ? { color: branding.color, logo: branding.logo, updatedAt: branding.updated_at } : null);

  const expertise = await k.selectFrom('expertise').selectAll().where('user_name', '=', userName).executeTakeFirst();
  await field(
    'expertProfile',
    expertise
      ? {
          name: expertise.name,
          practices: json(expertise.practices),
          bio: expertise.bio,
          dayRate: expertise.day_rate,
          availability: expertise.availability,
          busyUntil: expertise.busy_until,
          updatedAt: expertise.updated_at,
        }
      : null,
  );

  const deletion = deps.builtIn
    ? await k.selectFrom('deletion_requests').selectAll().where('user_name', '=', userName).executeTakeFirst()
    : undefined;
  await field(
    'deletionRequest',
    deletion ? { status: deletion.status, requestedAt: deletion.requested_at, decidedAt: deletion.decided_at } : null,
  );

  // What they are e-mailed about (null: never chose, everything at once), and whether they have a
  // calendar address (not the address: it is a key).
  const preferences = await k.selectFrom('mail_preferences').selectAll().where('user_name', '=', userName).executeTakeFirst();
  await field(
    'mailPreferences',
    preferences
      ? {
          messages: preferences.messages,
          states: preferences.states,
          milestones: preferences.milestones,
          documents: preferences.documents,
          reminders: preferences.reminders,
          reminderDays: Number(preferences.reminder_days),
          updatedAt: preferences.updated_at,
        }
      : null,
  );
  const calendar = await k.selectFrom('calendar_feeds').select('created_at').where('user_name', '=', userName).executeTakeFirst();
  await field('calendarFeed', calendar ? { createdAt: calendar.created_at } : null);

  // Sessions, without their tokens or ids.
  await writeArray(
    out,
    'sessions',
    (after: string | null) => {
      let q = k
        .selectFrom('sessions')
        .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'user_agent', 'ip'])
        .where('user_name', '=', userName);
      if (after !== null) q = q.where('id', '>', after);
      return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (row) => row.id,
    asJson((row) => ({
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      expiresAt: new Date(Number(row.expires_at) * 1000).toISOString(),
      userAgent: row.user_agent,
      device: deviceOf(row.user_agent),
      ip: row.ip,
      thisSession: row.id === currentSessionId,
    })),
  );
  await out.write(',\n');

  // Images they uploaded (their avatar, their branding's logo): where and what, not the bytes.
  await writeArray(
    out,
    'images',
    (after: string | null) => {
      let q = k.selectFrom('uploads').select(['url', 'content_type', 'bytes', 'created_at']).where('owner', '=', userName);
      if (after !== null) q = q.where('url', '>', after);
      return q.orderBy('url').limit(EXPORT_PAGE_ROWS).execute();
    },
    (row) => row.url,
    asJson((row) => ({ url: row.url, contentType: row.content_type, bytes: Number(row.bytes), createdAt: row.created_at })),
  );
  await out.write(',\n');

  // The projects they own or work on, each with its milestones and its whole history.
  const experts = k.selectFrom('project_experts').select('project_id').where('user_name', '=', userName);
  await writeArray(
    out,
    'projects',
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
      const head = {
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
      // The object without its closing brace, then its two lists.
      await out.write(`${JSON.stringify(head).slice(0, -1)},`);
      await writeArray(
        out,
        'milestones',
        (after: number | null) => {
          let q = k.selectFrom('project_milestones').selectAll().where('project_id', '=', p.id);
          if (after !== null) q = q.where('id', '>', after);
          return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
        },
        (m) => m.id,
        asJson((m) => ({ id: m.id, title: m.title, dueDate: m.due_date, doneAt: m.done_at, doneBy: m.done_by, createdAt: m.created_at })),
      );
      await out.write(',');
      await writeArray(
        out,
        'events',
        (after: number | null) => {
          let q = k.selectFrom('project_events').selectAll().where('project_id', '=', p.id);
          if (after !== null) q = q.where('id', '>', after);
          return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
        },
        (e) => e.id,
        asJson((e) => ({
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
      await out.write('}');
    },
  );
  await out.write(',\n');

  // What they wrote in the projects' conversations.
  await writeArray(
    out,
    'messages',
    (after: number | null) => {
      let q = k
        .selectFrom('project_messages')
        .select(['id', 'project_id', 'author_name', 'author_role', 'body', 'created_at'])
        .where('author', '=', userName);
      if (after !== null) q = q.where('id', '>', after);
      return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (m) => m.id,
    asJson((m) => ({
      id: m.id,
      projectId: m.project_id,
      authorName: m.author_name,
      role: m.author_role,
      body: m.body,
      createdAt: m.created_at,
    })),
  );
  await out.write(',\n');

  // The documents they uploaded to projects: the list, not the files.
  await writeArray(
    out,
    'documents',
    (after: number | null) => {
      let q = k
        .selectFrom('project_documents')
        .select(['id', 'project_id', 'name', 'content_type', 'bytes', 'uploaded_at'])
        .where('uploaded_by', '=', userName);
      if (after !== null) q = q.where('id', '>', after);
      return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (d) => d.id,
    asJson((d) => ({
      id: d.id,
      projectId: d.project_id,
      name: d.name,
      contentType: d.content_type,
      bytes: Number(d.bytes),
      uploadedAt: d.uploaded_at,
    })),
  );
  await out.write(',\n');

  // Their notifications (the bell's; each reminder they were sent is one) — without the start of
  // someone else's message that a notification quotes: their words are not this user's data.
  await writeArray(
    out,
    'notifications',
    (after: number | null) => {
      let q = k.selectFrom('notifications').selectAll().where('user_name', '=', userName);
      if (after !== null) q = q.where('id', '>', after);
      return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (n) => Number(n.id),
    asJson((n) => ({
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
  await out.write(',\n');
  // Messages sent through the contact form from their e-mail address.
  await writeArray(
    out,
    'contactMessages',
    async (after: number | null) => {
      if (!email) return [];
      let q = k
        .selectFrom('contact_messages')
        .select(['id', 'name', 'email', 'subject', 'message', 'locale', 'consent_at', 'ip', 'created_at'])
        .where(sql`lower(email)`, '=', email.toLowerCase());
      if (after !== null) q = q.where('id', '>', after);
      return q.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
    },
    (c) => c.id,
    asJson((c) => ({
      id: c.id,
      name: c.name,
      email: c.email,
      subject: c.subject,
      message: c.message,
      locale: c.locale,
      consentAt: c.consent_at,
      ip: c.ip,
      createdAt: c.created_at,
    })),
  );
  await out.write('\n}\n');
  await out.end();
}

// Contact messages in the database: the inbox of the admin console, with where each one's
// e-mail notification stands, its status and the replies sent from the console (written by
// replies.ts, with their e-mail).
import {
  CONTACT_STATUSES,
  type ContactMessage,
  type ContactReply,
  type ContactStatus,
  type InboxView,
  type NotifyStatus,
  type StatusCounts,
} from '../../shared/contact.ts';
import type { Locale } from '../../shared/locales.ts';
import { sql } from 'kysely';
import { PAGE_NUMBER_MAX, PAGE_SIZES, pageSizeOf } from '../../shared/paging.ts';
import type { Db } from '../db/index.ts';
import type { ContactMessageRow } from '../db/schema.ts';
import { FORM_TOKEN_MAX_AGE_MS, formTokenDigest } from './form-token.ts';
import { createReadCache } from '../db/read-cache.ts';

export type { ContactMessage } from '../../shared/contact.ts';

function toMessage(row: ContactMessageRow): ContactMessage {
  return {
    id: Number(row.id),
    name: row.name,
    email: row.email,
    company: row.company,
    subject: row.subject,
    message: row.message,
    locale: row.locale as ContactMessage['locale'],
    read: Number(row.read) === 1,
    status: row.status as ContactStatus,
    notifyStatus: row.notify_status as ContactMessage['notifyStatus'],
    createdAt: row.created_at,
  };
}

/** Messages received at `since` or later and before `before` (ISO timestamps, as stored); either may be left open. */
export type CreatedRange = { since?: string | undefined; before?: string | undefined };

/** One page of messages, newest first, for the report (see `page`). */
export type MessagePage = { offset: number; limit: number; bodyChars: number } & CreatedRange;

/** A message with its text cut to a page's bodyChars and the stored text's length in characters. */
export type MessageExcerpt = ContactMessage & { length: number };

export type NewMessage = {
  name: string;
  email: string;
  /** The company the sender named; none: null (or left out). */
  company?: string | null | undefined;
  subject: string;
  message: string;
  locale: Locale;
  ip: string | null;
};

/** How many new leads the navbar's badge counts at most (it shows "99+"): the count reads no further. */
export const NEW_LEADS_COUNTED = 100;

async function insertMessage(trx: Db['k'], message: NewMessage, notify: boolean): Promise<ContactMessage> {
  const at = new Date().toISOString();
  const row = await trx
    .insertInto('contact_messages')
    .values({
      name: message.name,
      email: message.email,
      company: message.company || null,
      subject: message.subject,
      message: message.message,
      locale: message.locale,
      ip: message.ip,
      consent_at: at,
      read: 0,
      notify_status: notify ? 'pending' : 'none',
      notify_attempts: 0,
      notify_error: null,
      created_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toMessage(row);
}

function createdIn(k: Db['k'], range: CreatedRange) {
  let query = k.selectFrom('contact_messages');
  if (range.since) query = query.where('created_at', '>=', range.since);
  if (range.before) query = query.where('created_at', '<', range.before);
  return query;
}

async function findMessage(k: Db['k'], id: number): Promise<ContactMessage | null> {
  const row = await k.selectFrom('contact_messages').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toMessage(row) : null;
}

/** A page of the range (see `page` below): each text cut by the database, with its full length. */
async function excerptPage(k: Db['k'], query: MessagePage): Promise<MessageExcerpt[]> {
  const rows = await createdIn(k, query)
    .select([
      'id',
      'name',
      'email',
      'company',
      'subject',
      sql<string>`substr(message, 1, ${query.bodyChars})`.as('message'),
      sql<number>`length(message)`.as('length'),
      'locale',
      'read',
      'status',
      'notify_status',
      'created_at',
    ])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return rows.map((row) => ({
    ...toMessage({ ...row, consent_at: '', ip: null, notify_attempts: 0, notify_error: null }),
    length: Number(row.length),
  }));
}

/** The messages of a view of the list (shared/contact.ts INBOX_VIEWS). */
function inView(k: Db['k'], view: InboxView) {
  const query = k.selectFrom('contact_messages');
  if (view === 'all') return query;
  if (view === 'active') return query.where('status', '!=', 'archived');
  return query.where('status', '=', view);
}

async function statusCounts(k: Db['k']): Promise<StatusCounts> {
  const rows = await k
    .selectFrom('contact_messages')
    .select((eb) => ['status', eb.fn.countAll<number>().as('count')])
    .groupBy('status')
    .execute();
  const counts = Object.fromEntries(CONTACT_STATUSES.map((status) => [status, 0])) as StatusCounts;
  for (const row of rows) if (row.status in counts) counts[row.status as ContactStatus] = Number(row.count);
  return counts;
}

export function contactMessages(db: Db) {
  const { k } = db;
  const counts = createReadCache<{ total: number; unread: number }>(db, { tables: ['contact_messages'] });
  // Asked by the navbar of every admin page: kept a moment (db/read-cache.ts).
  const leads = createReadCache<number>(db, { tables: ['contact_messages'] });

  function get(id: number): Promise<ContactMessage | null> {
    return findMessage(k, id);
  }

  return {
    /** Committed (SQLite: WAL, synchronous=FULL; PostgreSQL: commit) when it resolves. */
    add(message: NewMessage, notify: boolean): Promise<ContactMessage> {
      return insertMessage(k, message, notify);
    },
    /**
     * Stores the message sent with a form token, once: null when that token already sent one.
     * The token and the message are committed together.
     */
    addOnce(formToken: string, message: NewMessage, notify: boolean): Promise<ContactMessage | null> {
      return k.transaction().execute(async (trx) => {
        const now = Date.now();
        await trx.deleteFrom('used_form_tokens').where('expires_at', '<', now).execute();
        const used = await trx
          .insertInto('used_form_tokens')
          .values({ digest: formTokenDigest(formToken), expires_at: now + FORM_TOKEN_MAX_AGE_MS })
          .onConflict((oc) => oc.column('digest').doNothing())
          .returning('digest')
          .executeTakeFirst();
        return used ? insertMessage(trx, message, notify) : null;
      });
    },
    get,
    /** A page of the view (every message unless asked), newest first, with the inbox's counts. */
    async list(options: { page?: number; pageSize?: number; unread?: boolean; view?: InboxView } = {}) {
      const page = Math.min(PAGE_NUMBER_MAX, Math.max(1, options.page ?? 1));
      const pageSize = pageSizeOf('inbox', options.pageSize);
      let base = inView(k, options.view ?? 'all');
      if (options.unread) base = base.where('read', '=', 0);
      const [{ total }, { unread }, byStatus, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
        k
          .selectFrom('contact_messages')
          .select((eb) => eb.fn.countAll<number>().as('unread'))
          .where('read', '=', 0)
          .executeTakeFirstOrThrow(),
        statusCounts(k),
        base
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute(),
      ]);
      return { items: rows.map(toMessage), total: Number(total), unread: Number(unread), counts: byStatus, page, pageSize };
    },
    /** The new leads, counted up to NEW_LEADS_COUNTED: one indexed read that stops there. */
    newLeads(): Promise<number> {
      return leads.get('new', async () => {
        const row = await k
          .selectFrom((eb) =>
            eb.selectFrom('contact_messages').select('id').where('status', '=', 'new').limit(NEW_LEADS_COUNTED).as('leads'),
          )
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow();
        return Number(row.count);
      });
    },
    /** How many messages the range holds, and how many of them are unread: one indexed pass, no rows read. */
    async count(range: CreatedRange = {}): Promise<{ total: number; unread: number }> {
      // The admin console's home asks it on every load: kept a moment (db/read-cache.ts).
      return counts.get(JSON.stringify([range.since ?? null, range.before ?? null]), async () => {
        const row = await createdIn(k, range)
          .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.coalesce(eb.fn.sum<number>('read'), eb.lit(0)).as('read')])
          .executeTakeFirstOrThrow();
        const total = Number(row.total);
        return { total, unread: total - Number(row.read) };
      });
    },
    /**
     * One page of the range, newest first: only `limit` rows are read, each text cut to
     * `bodyChars` characters by the database (with its full length), so that a page costs the
     * same memory however large the inbox and its messages are.
     */
    page(query: MessagePage): Promise<MessageExcerpt[]> {
      return excerptPage(k, query);
    },
    /** Every message at once: for small inboxes and tests only (the report reads `page`s). */
    async all(): Promise<ContactMessage[]> {
      const rows = await k.selectFrom('contact_messages').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      return rows.map(toMessage);
    },
    async setRead(id: number, read: boolean): Promise<ContactMessage | null> {
      await k
        .updateTable('contact_messages')
        .set({ read: read ? 1 : 0 })
        .where('id', '=', id)
        .execute();
      return get(id);
    },
    /** Archived, or back from the archive: answered when a reply was sent, else new again. */
    async setArchived(id: number, archived: boolean): Promise<ContactMessage | null> {
      const status = archived
        ? sql<string>`'archived'`
        : sql<string>`CASE WHEN EXISTS (SELECT 1 FROM contact_replies WHERE message_id = ${id}) THEN 'answered' ELSE 'new' END`;
      await k.updateTable('contact_messages').set({ status }).where('id', '=', id).execute();
      return get(id);
    },
    /** The replies sent to a message (the newest PAGE_SIZES.replies.max), oldest first, with where each one's e-mail stands. */
    replies(id: number): Promise<ContactReply[]> {
      return repliesOf(k, id);
    },
    async remove(id: number): Promise<boolean> {
      const result = await k.deleteFrom('contact_messages').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    /** Where the e-mail notification of the message stands (kept in step with its outbox rows by server/mail/). */
    async setNotifyState(id: number, state: { status: NotifyStatus; attempts: number; error: string | null }): Promise<void> {
      await k
        .updateTable('contact_messages')
        .set({ notify_status: state.status, notify_attempts: state.attempts, notify_error: state.error?.slice(0, 500) ?? null })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type ContactStore = ReturnType<typeof contactMessages>;

/** The outbox's ref of a reply's e-mail. */
export const replyRef = (replyId: number) => `contact-reply:${replyId}`;

function deliveryOf(statuses: readonly string[]): ContactReply['delivery'] {
  if (statuses.includes('failed')) return 'failed';
  if (statuses.length === 0 || statuses.includes('pending')) return 'pending';
  return 'sent';
}

async function repliesOf(k: Db['k'], messageId: number): Promise<ContactReply[]> {
  const rows = await k
    .selectFrom('contact_replies')
    .selectAll()
    .where('message_id', '=', messageId)
    .orderBy('id', 'desc')
    .limit(PAGE_SIZES.replies.max)
    .execute();
  if (rows.length === 0) return [];
  rows.reverse();
  const mails = await k
    .selectFrom('mail_outbox')
    .select(['ref', 'status'])
    .where(
      'ref',
      'in',
      rows.map((row) => replyRef(Number(row.id))),
    )
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    author: { userName: row.author, name: row.author_name },
    text: row.body,
    createdAt: row.created_at,
    delivery: deliveryOf(mails.filter((mail) => mail.ref === replyRef(Number(row.id))).map((mail) => mail.status)),
  }));
}

// Contact messages in the database: the inbox of the admin console, with where each one's
// e-mail notification stands.
import type { ContactMessage, NotifyStatus } from '../../shared/contact.ts';
import type { Locale } from '../../shared/locales.ts';
import { sql } from 'kysely';
import { PAGE_NUMBER_MAX, pageSizeOf } from '../../shared/paging.ts';
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
    subject: row.subject,
    message: row.message,
    locale: row.locale as ContactMessage['locale'],
    read: Number(row.read) === 1,
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

export type NewMessage = { name: string; email: string; subject: string; message: string; locale: Locale; ip: string | null };

async function insertMessage(trx: Db['k'], message: NewMessage, notify: boolean): Promise<ContactMessage> {
  const at = new Date().toISOString();
  const row = await trx
    .insertInto('contact_messages')
    .values({
      name: message.name,
      email: message.email,
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
      'subject',
      sql<string>`substr(message, 1, ${query.bodyChars})`.as('message'),
      sql<number>`length(message)`.as('length'),
      'locale',
      'read',
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

export function contactMessages(db: Db) {
  const { k } = db;
  const counts = createReadCache<{ total: number; unread: number }>(db, { tables: ['contact_messages'] });

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
    async list(options: { page?: number; pageSize?: number; unread?: boolean } = {}) {
      const page = Math.min(PAGE_NUMBER_MAX, Math.max(1, options.page ?? 1));
      const pageSize = pageSizeOf('inbox', options.pageSize);
      let base = k.selectFrom('contact_messages');
      if (options.unread) base = base.where('read', '=', 0);
      const [{ total }, { unread }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
        k
          .selectFrom('contact_messages')
          .select((eb) => eb.fn.countAll<number>().as('unread'))
          .where('read', '=', 0)
          .executeTakeFirstOrThrow(),
        base
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute(),
      ]);
      return { items: rows.map(toMessage), total: Number(total), unread: Number(unread), page, pageSize };
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

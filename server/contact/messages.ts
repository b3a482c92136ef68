// Contact messages in the database: the inbox of the admin console and the notification queue.
import type { Db } from '../db/index.ts';
import { FORM_TOKEN_MAX_AGE_MS, formTokenDigest } from './form-token.ts';

export type ContactMessage = {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  locale: 'es' | 'en';
  read: boolean;
  notifyStatus: 'none' | 'pending' | 'sent' | 'failed';
  createdAt: string;
};

type Row = {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  locale: 'es' | 'en';
  read: 0 | 1;
  notify_status: ContactMessage['notifyStatus'];
  created_at: string;
};

function toMessage(row: Row): ContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    locale: row.locale,
    read: row.read === 1,
    notifyStatus: row.notify_status,
    createdAt: row.created_at,
  };
}

/** Messages received at `since` or later and before `before` (ISO timestamps, as stored); either may be left open. */
export type CreatedRange = { since?: string | undefined; before?: string | undefined };

/** One page of messages, newest first, for the report (see `page`). */
export type MessagePage = { offset: number; limit: number; bodyChars: number } & CreatedRange;

/** A message with its text cut to a page's bodyChars and the stored text's length in characters. */
export type MessageExcerpt = ContactMessage & { length: number };

function rangeWhere(range: CreatedRange): { where: string; params: { since?: string; before?: string } } {
  const clauses: string[] = [];
  const params: { since?: string; before?: string } = {};
  if (range.since) {
    clauses.push('created_at >= @since');
    params.since = range.since;
  }
  if (range.before) {
    clauses.push('created_at < @before');
    params.before = range.before;
  }
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export type NewMessage = { name: string; email: string; subject: string; message: string; locale: 'es' | 'en'; ip: string | null };

export function contactMessages(db: Db) {
  const insert = db.prepare(
    `INSERT INTO contact_messages (name, email, subject, message, locale, consent_at, ip, notify_status)
     VALUES (@name, @email, @subject, @message, @locale, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), @ip, @notifyStatus)`,
  );
  const byId = db.prepare<[number], Row>('SELECT * FROM contact_messages WHERE id = ?');
  const useToken = db.prepare<[string, number]>('INSERT OR IGNORE INTO used_form_tokens (digest, expires_at) VALUES (?, ?)');
  const purgeTokens = db.prepare<[number]>('DELETE FROM used_form_tokens WHERE expires_at < ?');
  const addOnce = db.transaction((formToken: string, message: NewMessage, notify: boolean): ContactMessage | null => {
    const now = Date.now();
    purgeTokens.run(now);
    if (useToken.run(formTokenDigest(formToken), now + FORM_TOKEN_MAX_AGE_MS).changes === 0) return null;
    const { lastInsertRowid } = insert.run({ ...message, notifyStatus: notify ? 'pending' : 'none' });
    return toMessage(byId.get(Number(lastInsertRowid))!);
  });
  return {
    /**
     * Stores the message sent with a form token, once: null when that token already sent one.
     * The token and the message are committed together (WAL, synchronous=FULL) when it returns.
     */
    addOnce(formToken: string, message: NewMessage, notify: boolean): ContactMessage | null {
      return addOnce(formToken, message, notify);
    },
    /** Synchronous and committed (WAL, synchronous=FULL) when it returns. */
    add(message: NewMessage, notify: boolean): ContactMessage {
      const { lastInsertRowid } = insert.run({ ...message, notifyStatus: notify ? 'pending' : 'none' });
      return toMessage(byId.get(Number(lastInsertRowid))!);
    },
    get(id: number): ContactMessage | null {
      const row = byId.get(id);
      return row ? toMessage(row) : null;
    },
    list(options: { page?: number; pageSize?: number; unread?: boolean } = {}) {
      const page = Math.max(1, options.page ?? 1);
      const pageSize = Math.min(100, Math.max(1, options.pageSize ?? 20));
      const where = options.unread ? 'WHERE read = 0' : '';
      const total = (db.prepare(`SELECT COUNT(*) AS n FROM contact_messages ${where}`).get() as { n: number }).n;
      const unreadCount = (db.prepare('SELECT COUNT(*) AS n FROM contact_messages WHERE read = 0').get() as { n: number }).n;
      const rows = db
        .prepare(`SELECT * FROM contact_messages ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
        .all(pageSize, (page - 1) * pageSize) as Row[];
      return { items: rows.map(toMessage), total, unread: unreadCount, page, pageSize };
    },
    /** How many messages the range holds, and how many of them are unread: one indexed pass, no rows read. */
    count(range: CreatedRange = {}): { total: number; unread: number } {
      const { where, params } = rangeWhere(range);
      const row = db
        .prepare(`SELECT COUNT(*) AS total, COUNT(*) - COALESCE(SUM(read), 0) AS unread FROM contact_messages ${where}`)
        .get(params) as {
        total: number;
        unread: number;
      };
      return { total: row.total, unread: row.unread };
    },
    /**
     * One page of the range, newest first: only `limit` rows are read, each text cut to
     * `bodyChars` characters by SQLite (with its full length), so that a page costs the same
     * memory however large the inbox and its messages are.
     */
    page(query: MessagePage): MessageExcerpt[] {
      const { where, params } = rangeWhere(query);
      const rows = db
        .prepare(
          `SELECT id, name, email, subject, substr(message, 1, @bodyChars) AS message, length(message) AS length, locale, read,
                  notify_status, created_at
           FROM contact_messages ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
        )
        .all({ ...params, bodyChars: query.bodyChars, limit: query.limit, offset: query.offset }) as (Row & { length: number })[];
      return rows.map((row) => ({ ...toMessage(row), length: row.length }));
    },
    /** Every message at once: for small inboxes and tests only (the report reads `page`s). */
    all(): ContactMessage[] {
      return (db.prepare('SELECT * FROM contact_messages ORDER BY created_at DESC, id DESC').all() as Row[]).map(toMessage);
    },
    setRead(id: number, read: boolean): ContactMessage | null {
      db.prepare('UPDATE contact_messages SET read = ? WHERE id = ?').run(read ? 1 : 0, id);
      return this.get(id);
    },
    remove(id: number): boolean {
      return db.prepare('DELETE FROM contact_messages WHERE id = ?').run(id).changes > 0;
    },
    pendingNotifications(limit: number): (ContactMessage & { attempts: number })[] {
      return (
        db.prepare("SELECT * FROM contact_messages WHERE notify_status = 'pending' ORDER BY id LIMIT ?").all(limit) as (Row & {
          notify_attempts: number;
        })[]
      ).map((row) => ({ ...toMessage(row), attempts: row.notify_attempts }));
    },
    markNotified(id: number): void {
      db.prepare(
        "UPDATE contact_messages SET notify_status = 'sent', notify_attempts = notify_attempts + 1, notify_error = NULL WHERE id = ?",
      ).run(id);
    },
    markNotifyFailure(id: number, error: string, giveUp: boolean): void {
      db.prepare('UPDATE contact_messages SET notify_status = ?, notify_attempts = notify_attempts + 1, notify_error = ? WHERE id = ?').run(
        giveUp ? 'failed' : 'pending',
        error.slice(0, 500),
        id,
      );
    },
  };
}

export type ContactStore = ReturnType<typeof contactMessages>;

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

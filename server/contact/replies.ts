// Replies from the console: what an admin writes back to a contact message is kept with it and
// e-mailed to the address the sender gave, through the outbox. The reply, the message's new
// status (answered) and the e-mail are committed together: nothing is kept half-way.
import { REPLY_MAX_LENGTH, type ContactMessage, type ContactReply } from '../../shared/contact.ts';
import type { Kysely } from 'kysely';
import type { Db } from '../db/index.ts';
import type { Schema } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import type { ContactStore } from './messages.ts';

/** A reply to a contact message, for the e-mail to render for its sender. */
export type ReplyMailInput = {
  message: Pick<ContactMessage, 'name' | 'email' | 'subject' | 'locale' | 'createdAt'>;
  replyId: number;
  /** The name of the admin who answers. */
  author: string;
  text: string;
};

/**
 * What a reply needs of the e-mail (server/mail/: its `Mail`, named here by shape, as mail/
 * reads this folder's store): whether it can be sent, the rendered e-mail, a queue in the
 * reply's transaction and the sender woken after the commit.
 */
export type ReplyMail<Queued = unknown> = {
  canSend: boolean;
  contactReplyMail(reply: ReplyMailInput): Queued;
  queueIn(trx: Kysely<Schema>, mails: readonly Queued[]): Promise<void>;
  kick(): void;
};

/** Who answers: their user name and the name the sender reads. */
export type ReplyAuthor = { userName: string; name: string };

/** The problem of a reply's text, as a message key, or null. */
export function replyProblem(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return 'validation.required';
  if (trimmed.length > REPLY_MAX_LENGTH) return 'validation.tooLong';
  return null;
}

export function messageNotFound(id: unknown): ApiError {
  return new ApiError(404, 'message_not_found', `No message ${JSON.stringify(String(id))}`);
}

export function createReplies<Queued>(deps: { db: Db; store: ContactStore; mail: ReplyMail<Queued>; now?: () => Date }) {
  const { db, store, mail } = deps;
  const now = deps.now ?? (() => new Date());

  /** Sends `text` to the message's sender as `author`; the message is answered (and read). */
  async function reply(messageId: number, author: ReplyAuthor, text: string): Promise<{ message: ContactMessage; reply: ContactReply }> {
    const problem = replyProblem(text);
    if (problem) {
      const why = problem === 'validation.required' ? 'is empty' : `is longer than ${REPLY_MAX_LENGTH} characters`;
      throw new ApiError(400, 'invalid_request', `Invalid request: text ${why}`, { text: problem });
    }
    if (!mail.canSend) {
      throw new ApiError(503, 'mail_unavailable', 'The site sends no e-mail (no mail server): answer from your own mail program');
    }
    const message = await store.get(messageId);
    if (!message) throw messageNotFound(messageId);
    const body = text.trim();
    const at = now().toISOString();
    const replyId = await db.k.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('contact_replies')
        .values({ message_id: message.id, author: author.userName, author_name: author.name, body, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      const answered = await trx
        .updateTable('contact_messages')
        .set({ status: 'answered', read: 1 })
        .where('id', '=', message.id)
        .executeTakeFirst();
      // Deleted meanwhile: nothing is kept, nothing is sent.
      if (Number(answered.numUpdatedRows) === 0) throw messageNotFound(messageId);
      await mail.queueIn(trx, [mail.contactReplyMail({ message, replyId: id, author: author.name, text: body })]);
      return id;
    });
    mail.kick();
    const updated = (await store.get(message.id)) ?? { ...message, status: 'answered' as const, read: true };
    return {
      message: updated,
      reply: { id: replyId, author: { userName: author.userName, name: author.name }, text: body, createdAt: at, delivery: 'pending' },
    };
  }

  return {
    reply,
    /** Whether a reply can go at all (the site sends e-mail). */
    canReply: mail.canSend,
  };
}

export type Replies = ReturnType<typeof createReplies<unknown>>;

// The outbox: every e-mail the site sends is a row, written already rendered, and sent by
// whichever instance's sender claims it first. A claim is a conditional update (it changes the
// row only while nobody holds it), so two senders never send one row; a claim left by a sender
// that died is taken over once it is older than the claim timeout. Security e-mails (a link to
// choose a password or confirm an address, a warning to an account's address) are claimed
// before every notice that is due, however many notices wait (docs/decisions/029).
import type { Db } from '../db/index.ts';
import { inChunks } from '../db/lists.ts';
import { createReadCache } from '../db/read-cache.ts';
import type { Kysely } from 'kysely';
import type { MailOutboxRow, Schema } from '../db/schema.ts';
import type { Locale } from '../../shared/locales.ts';

export type MailStatus = 'pending' | 'sent' | 'failed';

/** The order in which due e-mails are sent: the lowest first. */
export const MAIL_PRIORITY = { security: 0, notice: 1 } as const;
export type MailPriority = keyof typeof MAIL_PRIORITY;

export type QueuedMail = {
  kind: string;
  recipient: string;
  replyTo: string | null;
  locale: Locale;
  subject: string;
  text: string;
  html: string;
  /** What caused it ('contact:12', 'project:7', 'milestone:3'). */
  ref: string | null;
  /** Security e-mails go before notices (default: a notice). */
  priority?: MailPriority | undefined;
  /** Held until then (milliseconds since epoch), so that it can still be withdrawn; default: due at once. */
  notBefore?: number | undefined;
  /** Extra headers (a notice's List-Unsubscribe). */
  headers?: Record<string, string> | undefined;
};

/** Where the e-mails of one cause stand: none queued, any still pending, any given up, or all sent. */
export type RefState = { status: 'none' | MailStatus; attempts: number; error: string | null };

const MAX_ERROR_CHARS = 500;

/**
 * An e-mail still waiting this long after it was queued is stuck (the admin console's home says
 * so): past the first four retries (1 + 2 + 4 + 8 minutes), so it is no passing refusal. A notice
 * held to be withdrawable (PROJECT_MILESTONE_COLLAPSE_MINUTES) that is not yet due never counts
 * (docs/decisions/050).
 */
export const MAIL_STUCK_AFTER_MS = 15 * 60_000;

/** The e-mails stuck in the outbox: how many, and how long the oldest has waited. */
export type StuckMail = { count: number; oldestMs: number };
/** What a forgotten body reads. */
export const BODY_FORGOTTEN = '(removed once sent: it held a single-use link)';

/** Queues the mails (an insert per SQL_LIST_MAX of them), in a transaction of the caller's or not. */
export async function insertMails(k: Kysely<Schema>, mails: readonly QueuedMail[], now: number): Promise<void> {
  const createdAt = new Date(now).toISOString();
  for (const chunk of inChunks(mails)) {
    await k
      .insertInto('mail_outbox')
      .values(
        chunk.map((mail) => ({
          kind: mail.kind,
          recipient: mail.recipient,
          reply_to: mail.replyTo,
          locale: mail.locale,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          status: 'pending',
          attempts: 0,
          last_error: null,
          next_attempt_at: Math.max(now, mail.notBefore ?? now),
          priority: MAIL_PRIORITY[mail.priority ?? 'notice'],
          claimed_at: null,
          ref: mail.ref,
          created_at: createdAt,
          sent_at: null,
          headers: mail.headers ? JSON.stringify(mail.headers) : null,
        })),
      )
      .execute();
  }
}

export function mailOutbox(db: Db) {
  const { k } = db;
  const stuckReads = createReadCache<{ count: number; oldest: string | null }>(db, { tables: ['mail_outbox'] });
  /** Pending, due, and held by nobody (or by a sender that has not finished within the timeout). */
  const claimable = (now: number, claimTimeoutMs: number) =>
    k
      .selectFrom('mail_outbox')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', now - claimTimeoutMs)]));

  return {
    /** Queues the mails (one insert); due at once. */
    add: (mails: readonly QueuedMail[], now: number) => insertMails(k, mails, now),

    /** The ids of rows a sender may claim now: security e-mails first, then the oldest due. */
    async due(now: number, claimTimeoutMs: number, limit: number): Promise<number[]> {
      const rows = await claimable(now, claimTimeoutMs)
        .select('id')
        .orderBy('priority')
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => Number(row.id));
    },

    /**
     * Removes the e-mails of `ref` that nobody has started to send (pending, unclaimed, never
     * tried): a notice withdrawn before it went out. Answers how many went.
     */
    async withdraw(ref: string): Promise<number> {
      const result = await k
        .deleteFrom('mail_outbox')
        .where('ref', '=', ref)
        .where('status', '=', 'pending')
        .where('attempts', '=', 0)
        .where('claimed_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Takes the row for this sender (its claim is `now`); null when another sender has it or it is no longer due. */
    async claim(id: number, now: number, claimTimeoutMs: number): Promise<MailOutboxRow | null> {
      const taken = await k
        .updateTable('mail_outbox')
        .set({ claimed_at: now })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', now - claimTimeoutMs)]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) return null;
      return (await k.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
    },

    /** Sent: false when the claim was no longer this sender's (it timed out and another took it). */
    async sent(row: MailOutboxRow, at: number): Promise<boolean> {
      const result = await k
        .updateTable('mail_outbox')
        .set({
          status: 'sent',
          attempts: Number(row.attempts) + 1,
          last_error: null,
          claimed_at: null,
          sent_at: new Date(at).toISOString(),
        })
        .where('id', '=', row.id)
        .where('claimed_at', '=', row.claimed_at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** A failed attempt: tried again at `retryAt`, or given up (failed) when that is null. */
    async attemptFailed(row: MailOutboxRow, error: string, retryAt: number | null): Promise<boolean> {
      const result = await k
        .updateTable('mail_outbox')
        .set({
          status: retryAt === null ? 'failed' : 'pending',
          attempts: Number(row.attempts) + 1,
          last_error: error.slice(0, MAX_ERROR_CHARS),
          next_attempt_at: retryAt ?? row.next_attempt_at,
          claimed_at: null,
        })
        .where('id', '=', row.id)
        .where('claimed_at', '=', row.claimed_at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async stateOf(ref: string): Promise<RefState> {
      const rows = await k
        .selectFrom('mail_outbox')
        .select(['status', 'attempts', 'last_error'])
        .where('ref', '=', ref)
        .orderBy('id')
        .execute();
      if (rows.length === 0) return { status: 'none', attempts: 0, error: null };
      const has = (status: MailStatus) => rows.some((row) => row.status === status);
      return {
        status: has('failed') ? 'failed' : has('pending') ? 'pending' : 'sent',
        attempts: Math.max(...rows.map((row) => Number(row.attempts))),
        error: rows.findLast((row) => row.last_error !== null)?.last_error ?? null,
      };
    },

    /** Empties a sent or failed row's body (its link was a key to an account); the rest stays as a record. */
    async forgetBody(id: number): Promise<void> {
      await k.updateTable('mail_outbox').set({ text: BODY_FORGOTTEN, html: BODY_FORGOTTEN }).where('id', '=', id).execute();
    },

    /** The e-mails pending for longer than MAIL_STUCK_AFTER_MS (due, or tried already); null when none. */
    async stuck(now: number): Promise<StuckMail | null> {
      // The admin console's home and /metrics ask on every load: the count kept a moment (db/read-cache.ts),
      // per second of the clock asked with (a clock moved on is another question).
      const row = await stuckReads.get(String(Math.floor(now / 1000)), async () => {
        const found = await k
          .selectFrom('mail_outbox')
          .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
          .where('status', '=', 'pending')
          .where('created_at', '<', new Date(now - MAIL_STUCK_AFTER_MS).toISOString())
          .where((eb) => eb.or([eb('next_attempt_at', '<=', now), eb('attempts', '>', 0)]))
          .executeTakeFirst();
        return { count: Number(found?.count ?? 0), oldest: found?.oldest ? String(found.oldest) : null };
      });
      if (row.count === 0 || !row.oldest) return null;
      return { count: row.count, oldestMs: now - Date.parse(row.oldest) };
    },

    /** The rows of one cause, oldest first (tests, and whoever investigates). */
    byRef(ref: string): Promise<MailOutboxRow[]> {
      return k.selectFrom('mail_outbox').selectAll().where('ref', '=', ref).orderBy('id').execute();
    },
  };
}

export type MailOutbox = ReturnType<typeof mailOutbox>;

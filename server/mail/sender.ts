// The sender of the outbox: claims what is due, hands it to the transport, retries a failure with
// growing pauses and gives up after the last attempt; one pass at a time, in the background (a
// poll, and at once after something is queued) unless the caller sends with flush() alone.
import type { Logger } from '../base/logger.ts';
import type { ContactStore } from '../contact/messages.ts';
import type { MailOutboxRow } from '../db/schema.ts';
import type { MailOutbox, QueuedMail } from './outbox.ts';
import type { MailTransport } from './transport.ts';

const POLL_MS = 30_000;
/** Longer than nodemailer's timeouts together (transport.ts): a live sender finishes before. */
export const CLAIM_TIMEOUT_MS = 10 * 60_000;
/** The first look at the outbox after start (what a restart left pending), after the start itself. */
const FIRST_POLL_MS = 2_000;
const BATCH = 20;

const CONTACT_REF = /^contact:(\d+)$/;
/**
 * E-mails whose link is a key to an account: once sent (or given up) their body is removed
 * from the outbox, so that the database never keeps a usable token (links.ts keeps digests).
 */
const LINK_MAIL_KINDS: ReadonlySet<string> = new Set(['invitation', 'password_reset', 'email_change_confirm']);

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type SenderDeps = {
  /** null: the site sends nothing (and never polls). */
  transport: MailTransport | null;
  outbox: MailOutbox;
  contacts: Pick<ContactStore, 'setNotifyState'>;
  from: { name: string; address: string };
  logger: Logger;
  now: () => number;
  retryDelayMs: (failedAttempts: number) => number;
  maxAttempts: number;
  claimTimeoutMs: number;
  pollMs: number | undefined;
  background: boolean | undefined;
  poll: boolean | undefined;
  /** Told of every e-mail the mail server took, and of every one it refused (transport-check.ts). */
  onSent?: (() => void) | undefined;
  onRefused?: (() => void) | undefined;
};

export type Sender = ReturnType<typeof createSender>;

export function createSender(deps: SenderDeps) {
  const { transport, outbox, contacts, from, logger, now, retryDelayMs, maxAttempts, claimTimeoutMs } = deps;
  const canSend = transport !== null;

  /** The contact message's notification status follows its rows (the admin inbox shows it). */
  async function settled(row: Pick<MailOutboxRow, 'ref'>): Promise<void> {
    const contactId = CONTACT_REF.exec(row.ref ?? '')?.[1];
    if (contactId === undefined) return;
    await contacts.setNotifyState(Number(contactId), await outbox.stateOf(row.ref!));
  }

  async function deliver(id: number): Promise<boolean> {
    const row = await outbox.claim(id, now(), claimTimeoutMs);
    if (!row) return false; // another sender has it
    const about = { mailId: row.id, kind: row.kind, ref: row.ref };
    try {
      await transport!.send({
        from,
        to: row.recipient,
        replyTo: row.reply_to ?? undefined,
        subject: row.subject,
        text: row.text,
        html: row.html,
        headers: headersOf(row),
      });
    } catch (error) {
      deps.onRefused?.();
      const attempts = Number(row.attempts) + 1;
      const giveUp = attempts >= maxAttempts;
      if (giveUp) logger.error({ err: error, ...about, attempts }, `e-mail failed ${attempts} times: given up (marked failed)`);
      else logger.warn({ err: error, ...about, attempts, retryInMs: retryDelayMs(attempts) }, 'e-mail failed: it is tried again later');
      await outbox.attemptFailed(row, errorText(error), giveUp ? null : now() + retryDelayMs(attempts));
      if (giveUp && LINK_MAIL_KINDS.has(row.kind)) await outbox.forgetBody(row.id);
      await settled(row);
      return true;
    }
    deps.onSent?.();
    if (!(await outbox.sent(row, now()))) {
      logger.warn(about, 'e-mail sent after its claim had expired: another sender may have sent it too');
    }
    if (LINK_MAIL_KINDS.has(row.kind)) await outbox.forgetBody(row.id);
    await settled(row);
    return true;
  }

  /** One pass over the due rows, a batch at a time while this sender gets rows to send. */
  async function sendDue(): Promise<void> {
    if (!canSend) return;
    try {
      for (;;) {
        const ids = await outbox.due(now(), claimTimeoutMs, BATCH);
        let handled = 0;
        for (const id of ids) if (await deliver(id)) handled++;
        if (ids.length < BATCH || handled === 0) return;
      }
    } catch (error) {
      logger.warn({ err: error }, 'the outbox could not be worked through: tried again at the next poll');
    }
  }

  // One pass at a time; a flush asked for during a pass gets one more pass after it (rows
  // queued meanwhile are seen), and any number of such asks share that pass.
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  function flush(): Promise<void> {
    if (next) return next;
    if (running) {
      next = running.then(() => {
        next = null;
        return flush();
      });
      return next;
    }
    running = sendDue().finally(() => {
      running = null;
    });
    return running;
  }

  let stopped = !canSend || deps.background === false;
  let timer: NodeJS.Timeout | undefined;
  function schedule(afterMs: number) {
    if (stopped) return;
    timer = setTimeout(() => void flush().finally(() => schedule(deps.pollMs ?? POLL_MS)), afterMs);
    timer.unref();
  }
  if (deps.poll !== false) schedule(FIRST_POLL_MS);

  return {
    settled,
    flush,
    /** Queues the mails, and sends them at once when this sender works in the background. */
    async enqueue(mails: QueuedMail[]): Promise<void> {
      await outbox.add(mails, now());
      if (!stopped && mails.length > 0) void flush();
    },
    kick() {
      if (!stopped) void flush();
    },
    poll: () => (stopped ? Promise.resolve() : flush()),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await (next ?? running);
    },
  };
}

/** The headers a row was queued with (JSON), or none. */
function headersOf(row: Pick<MailOutboxRow, 'headers'>): Record<string, string> | undefined {
  if (!row.headers) return undefined;
  try {
    return JSON.parse(row.headers) as Record<string, string>;
  } catch {
    return undefined;
  }
}

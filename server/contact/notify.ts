// Optional e-mail notification of new contact messages (SMTP_URL + CONTACT_NOTIFY_TO). The
// message is already committed; a failed e-mail is retried in the background and, after
// MAX_ATTEMPTS, flagged as failed in the inbox. It never loses the message.
import type { Logger } from '../logger.ts';
import type { ContactMessage, ContactStore } from './messages.ts';

const MAX_ATTEMPTS = 5;
const RETRY_EVERY_MS = 60_000;

export type Mailer = { send(message: ContactMessage): Promise<void> };

export function smtpMailer(smtpUrl: string, to: string, from: string): Mailer {
  // nodemailer is loaded when the first e-mail goes out, not at start.
  let transport: Promise<{ sendMail(options: object): Promise<unknown> }> | undefined;
  return {
    async send(message) {
      transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
      await (
        await transport
      ).sendMail({
        from,
        to,
        replyTo: { name: message.name, address: message.email },
        subject: `[contact] ${message.subject}`.slice(0, 200),
        text: `${message.name} <${message.email}> wrote (${message.locale}, ${message.createdAt}):\n\n${message.message}`,
      });
    },
  };
}

export function createNotifier(store: ContactStore, mailer: Mailer, logger: Logger) {
  let running = false;
  async function deliver(message: ContactMessage & { attempts?: number }) {
    try {
      await mailer.send(message);
    } catch (error) {
      const giveUp = (message.attempts ?? 0) + 1 >= MAX_ATTEMPTS;
      logger.warn({ err: error, messageId: message.id, giveUp }, 'contact notification failed');
      await store.markNotifyFailure(message.id, (error as Error).message ?? String(error), giveUp).catch((dbError: unknown) => {
        logger.error({ err: dbError, messageId: message.id }, 'could not record a failed contact notification');
      });
      return;
    }
    await store.markNotified(message.id).catch((error: unknown) => {
      logger.error({ err: error, messageId: message.id }, 'could not record a sent contact notification');
    });
  }
  async function retryPending() {
    if (running) return;
    running = true;
    try {
      for (const message of await store.pendingNotifications(20)) await deliver(message);
    } catch (error) {
      logger.warn({ err: error }, 'contact notifications could not be read: retried later');
    } finally {
      running = false;
    }
  }
  const timer = setInterval(() => void retryPending(), RETRY_EVERY_MS);
  timer.unref();
  return {
    /** Fire and forget: the visitor's answer does not wait for the mail server. */
    notify(message: ContactMessage) {
      void deliver(message);
    },
    retryPending,
    stop() {
      clearInterval(timer);
    },
  };
}

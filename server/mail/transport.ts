// How an e-mail leaves: SMTP (SMTP_URL, through nodemailer), or — without a mail server, in
// development and tests — a line in the log, so that a developer sees what would have gone out.
import type { Logger } from '../base/logger.ts';

export type OutgoingMail = {
  from: { name: string; address: string };
  to: string;
  replyTo?: string | undefined;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (a notice's List-Unsubscribe). */
  headers?: Record<string, string> | undefined;
};

/** Resolves when the mail server accepted the e-mail; rejects with its reason. */
export type MailTransport = { send(mail: OutgoingMail): Promise<void> };

/** A slow mail server holds one sender, never a request: still, it does not hold it for ever. */
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

export function smtpTransport(smtpUrl: string): MailTransport {
  // nodemailer is loaded when the first e-mail goes out, not at start.
  let transporter: Promise<{ sendMail(options: object): Promise<unknown> }> | undefined;
  return {
    async send(mail) {
      transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS }),
      );
      await (
        await transporter
      ).sendMail({
        ...mail,
        // RFC 3834: a machine wrote it; auto-responders should not answer.
        headers: { ...mail.headers, 'Auto-Submitted': 'auto-generated' },
      });
    },
  };
}

export function logTransport(logger: Logger): MailTransport {
  return {
    async send(mail) {
      logger.info(
        { mail: { to: mail.to, replyTo: mail.replyTo, subject: mail.subject }, body: mail.text },
        'e-mail written to the log (no SMTP_URL)',
      );
    },
  };
}

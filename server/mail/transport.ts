// How an e-mail leaves: SMTP (SMTP_URL, through nodemailer), or — without a mail server, in
// development and tests — a line in the log, so that a developer sees what would have gone out.
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
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

/**
 * `send` resolves when the mail server accepted the e-mail and rejects with its reason; `verify`,
 * where there is a server to ask, checks that it answers and takes the sign-in (connection,
 * greeting, TLS, AUTH) without sending anything.
 */
export type MailTransport = { send(mail: OutgoingMail): Promise<void>; verify?(): Promise<void> };

/** A slow mail server holds one sender, never a request: still, it does not hold it for ever. */
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

export type SmtpTransporter = Transporter<SMTPTransport.SentMessageInfo>;

/** A transporter of SMTP_URL with the site's timeouts; nodemailer is loaded here, on first use, not at start. */
export async function smtpTransporter(smtpUrl: string): Promise<SmtpTransporter> {
  const { default: nodemailer } = await import('nodemailer');
  return nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
}

/** The message nodemailer is given: the e-mail, marked as a machine's. */
export function smtpMessage(mail: OutgoingMail) {
  // RFC 3834: a machine wrote it; auto-responders should not answer.
  return { ...mail, headers: { ...mail.headers, 'Auto-Submitted': 'auto-generated' } };
}

export function smtpTransport(smtpUrl: string): MailTransport {
  let transporter: Promise<SmtpTransporter> | undefined;
  const get = () => (transporter ??= smtpTransporter(smtpUrl));
  return {
    async send(mail) {
      await (await get()).sendMail(smtpMessage(mail));
    },
    async verify() {
      await (await get()).verify();
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

// `npm run mail:test -- <address>` (scripts/mail-test.ts): a test e-mail sent at once through
// SMTP_URL, as the site's own e-mails go, but not through the outbox, so that whoever runs it
// reads what the mail server said: whether it answered the check (connection, TLS, sign-in),
// whether it took the e-mail, and, when it did not, the likely cause. The password of SMTP_URL is
// never shown.
import { z } from 'zod';
import type { Config } from '../base/config.ts';
import { errorText } from './sender.ts';
import { smtpMessage, smtpTransporter } from './transport.ts';

export type MailTestReport = { ok: boolean; lines: string[] };

type MailTestConfig = Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'SITE_NAME' | 'PUBLIC_URL'>;

/** The server of SMTP_URL as it can be shown: scheme, host and port, no user nor password. */
export function smtpServerName(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  const port = url.port || (url.protocol === 'smtps:' ? '465' : '587');
  return `${url.protocol}//${url.hostname}:${port}`;
}

/** What an error of nodemailer most likely means, by its code (and TLS's words). */
function hintOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const text = errorText(error);
  if (code === 'EAUTH') return 'the user name or the password in SMTP_URL is not accepted (percent-encode @, : and / in them)';
  if (/wrong version number|ssl3_get_record|tls/i.test(text) || code === 'ETLS') {
    return 'smtps:// speaks TLS from the first byte (usually port 465); for STARTTLS on port 587 or 25 write smtp://';
  }
  if (code === 'ECONNECTION' || code === 'ETIMEDOUT' || code === 'ESOCKET' || code === 'EDNS' || /ECONNREFUSED|ENOTFOUND/.test(text)) {
    return 'check the host and the port of SMTP_URL, and that a firewall lets this machine reach them';
  }
  return 'the mail server gave this reason; its own log says more';
}

/** Checks the mail server of SMTP_URL and sends it one test e-mail for `to`; what happened, line by line. */
export async function sendTestMail(config: MailTestConfig, to: string, now = new Date()): Promise<MailTestReport> {
  if (!config.SMTP_URL) {
    return {
      ok: false,
      lines: [
        'SMTP_URL is not set: nothing was sent. Without it production sends no e-mail at all (and development writes them to the log).',
        'Set it, e.g. SMTP_URL=smtps://user:password@smtp.example.com:465 (docs/operating.md, "E-mail").',
      ],
    };
  }
  if (!z.email().safeParse(to).success) return { ok: false, lines: [`${JSON.stringify(to)} is not an e-mail address: nothing was sent.`] };
  const server = smtpServerName(config.SMTP_URL);
  const transporter = await smtpTransporter(config.SMTP_URL);
  try {
    try {
      await transporter.verify();
    } catch (error) {
      return {
        ok: false,
        lines: [`The mail server ${server} did not answer the check: ${errorText(error)}.`, `Likely: ${hintOf(error)}.`],
      };
    }
    const lines = [`The mail server ${server} answered the check (connection, TLS and sign-in).`];
    const host = new URL(config.PUBLIC_URL).host;
    try {
      const answer = await transporter.sendMail(
        smtpMessage({
          from: { name: config.SITE_NAME, address: config.MAIL_FROM },
          to,
          subject: `Test e-mail from ${config.SITE_NAME}`,
          text: `This e-mail was sent by npm run mail:test for ${host} at ${now.toISOString()}, to check the site's mail settings (SMTP_URL, MAIL_FROM). If you read it, the site's e-mails reach this address.`,
          html: `<p>This e-mail was sent by <code>npm run mail:test</code> for ${host} at ${now.toISOString()}, to check the site's mail settings (<code>SMTP_URL</code>, <code>MAIL_FROM</code>).</p><p>If you read it, the site's e-mails reach this address.</p>`,
        }),
      );
      if (answer.rejected.length > 0) {
        return { ok: false, lines: [...lines, `The mail server refused the recipient ${to}: ${answer.response}.`] };
      }
      return {
        ok: true,
        lines: [
          ...lines,
          `Sent a test e-mail from ${config.MAIL_FROM} to ${to}: the server took it (${answer.response}; message id ${answer.messageId}).`,
          'If it does not arrive, look in the spam folder and check the sending domain\'s SPF, DKIM and DMARC (docs/operating.md, "E-mail").',
        ],
      };
    } catch (error) {
      return { ok: false, lines: [...lines, `The mail server refused the e-mail: ${errorText(error)}.`, `Likely: ${hintOf(error)}.`] };
    }
  } finally {
    transporter.close();
  }
}

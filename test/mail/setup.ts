// What the mail tests share: a real SMTP server, a fresh database, the mail module between them,
// and users written straight into the table (with the locale they last used).
import { onTestFinished } from 'vitest';
import { createLogger, type Logger } from '../../server/base/logger.ts';
import { createMail, type MailDeps } from '../../server/mail/index.ts';
import type { Db } from '../../server/db/index.ts';
import { ORIGIN, testConfig, testDatabase } from '../helpers/app.ts';
import { startSmtp } from '../helpers/smtp.ts';
import { userRow } from '../helpers/users.ts';
import type { Locale } from '../../shared/locales.ts';

export const SITE_NAME = 'Acme Consulting';

/** A project page as the projects service would link it (the module makes it absolute). */
export function projectPath(role: string, locale: Locale): string {
  return `${locale === 'es' ? '' : '/en'}/${role.toLowerCase()}/projects/7`;
}

export function projectLink(role: string, locale: Locale): string {
  return `${ORIGIN}${projectPath(role, locale)}`;
}

/**
 * An SMTP server, a database and a mail module sending to it (no background loop: a test
 * sends with flush()); all stopped when the test ends.
 */
export async function mailSetup(options: { env?: Record<string, string>; db?: Db; logger?: Logger } & Partial<MailDeps> = {}) {
  const { env, ...deps } = options;
  const smtp = await startSmtp();
  const db = deps.db ?? (await testDatabase());
  const config = testConfig({ SMTP_URL: smtp.url, SITE_NAME, ...env });
  const mail = createMail({ config, logger: createLogger('silent'), background: false, ...deps, db });
  onTestFinished(async () => {
    await mail.stop();
    await smtp.stop();
    await db.close();
  });
  return { smtp, db, config, mail };
}

export type MailUser = {
  userName: string;
  role: string;
  name?: string;
  email?: string | null;
  locale?: Locale;
  disabled?: boolean;
  /** Invited and not accepted yet (users.invited_at set). */
  invited?: boolean;
};

/** Users straight into the table (no password hashing), with the locale each last used when given. */
export async function addUsers(db: Db, users: readonly MailUser[]): Promise<void> {
  await db.k
    .insertInto('users')
    .values(
      users.map((u) =>
        userRow({
          user_name: u.userName,
          role: u.role,
          name: u.name ?? u.userName,
          email: u.email === undefined ? `${u.userName}@example.com` : u.email,
          disabled: u.disabled ? 1 : 0,
          invited_at: u.invited ? new Date().toISOString() : null,
        }),
      ),
    )
    .execute();
  const withLocale = users.filter((u) => u.locale);
  if (withLocale.length > 0) {
    await db.k
      .insertInto('user_locales')
      .values(withLocale.map((u) => ({ user_name: u.userName, locale: u.locale!, updated_at: new Date().toISOString() })))
      .execute();
  }
}

// The account e-mails in the site's one layout (templates.ts): a greeting, what happened, what the
// link does and for how long, the link, and why the reader got it. Their words: locales/<lng>/mail.json
// (`account`), plain text that the layout escapes for HTML.
import type { i18n } from 'i18next';
import type { Locale } from '../../shared/locales.ts';
import { greeting, mailT, renderMail, type RenderedMail, type Site } from './templates.ts';

export type AccountMailKind =
  | 'invitation'
  | 'password_reset'
  | 'email_change_confirm'
  | 'email_change_requested'
  | 'email_changed'
  | 'email_change_taken'
  | 'colleague_invitation_taken';

export type AccountMailInput = {
  kind: AccountMailKind;
  locale: Locale;
  site: Site;
  /** The reader's display name, when known. */
  name: string | null;
  userName: string;
  newEmail?: string | undefined;
  oldEmail?: string | null | undefined;
  /** How long the link works, in hours (links that expire). */
  validHours?: number | undefined;
  /** An invitation of a company's manager: their user name (letters, digits, . - _: nothing typed that could pass for a message). Absent: an administrator's. */
  inviter?: string | undefined;
  url: string;
};

export function accountMail(input: AccountMailInput, i18n: i18n): RenderedMail {
  const t = mailT(i18n, input.locale);
  const kind = `account.${input.kind}` as const;
  const words = {
    site: input.site.name,
    userName: input.userName,
    newEmail: input.newEmail ?? '',
    // The address an e-mail change leaves, or words for it when the account had none.
    oldEmail: input.oldEmail || t('account.formerAddress'),
    valid: t('account.hours', { count: input.validHours ?? 0 }),
    inviter: input.inviter ?? '',
  };
  // Who invited: an administrator, or the manager of the team the account is in (docs/decisions/052).
  const by = input.kind === 'invitation' && input.inviter ? { context: 'manager' } : {};
  return renderMail(
    {
      subject: t(`${kind}.subject`, words),
      greeting: greeting(t, input.name),
      lead: t(`${kind}.lead`, { ...words, ...by }),
      after: t(`${kind}.after`, words),
      action: { label: t(`${kind}.action`), url: input.url },
      footer: [t(`${kind}.footer`, { ...words, ...by }), t('noReply')],
    },
    input.site,
    input.locale,
  );
}

// The account e-mails in the site's one layout (templates.ts): a greeting, what happened, what the
// link does and for how long, the link, and why the reader got it.
import type { Locale } from '../../shared/locales.ts';
import { ACCOUNT_MAIL_TEXTS, type AccountMailKind } from './account-texts.ts';
import { renderMail, type RenderedMail, type Site } from './templates.ts';
import { MAIL_TEXTS } from './texts.ts';

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
  url: string;
};

export function accountMail(input: AccountMailInput): RenderedMail {
  const texts = ACCOUNT_MAIL_TEXTS[input.locale];
  const kind = texts.kinds[input.kind];
  const words = {
    site: input.site.name,
    userName: input.userName,
    newEmail: input.newEmail ?? '',
    oldEmail: input.oldEmail ?? '',
    valid: texts.hours(input.validHours ?? 0),
  };
  return renderMail(
    {
      subject: kind.subject(words),
      greeting: MAIL_TEXTS[input.locale].greeting(input.name),
      lead: kind.lead(words),
      after: kind.after(words),
      action: { label: kind.action, url: input.url },
      footer: [kind.footer(words), texts.noReply],
    },
    input.site,
    input.locale,
  );
}

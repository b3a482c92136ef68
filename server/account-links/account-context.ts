// What invitations, password resets and e-mail changes share: the links, the users they act on,
// the language each user is written to in, and the refusals of a link that does not work.
import { defaultLocale, isLocale, type Locale } from '../../shared/locales.ts';
import { localePath } from '../../shared/routes.ts';
import { passwordProblem } from '../../shared/validation.ts';
import { noAudit } from '../audit/types.ts';
import { ApiError } from '../http/errors.ts';
import * as users from '../users/users.ts';
import { accountLinks, type AccountLink, type AccountLinks, type LinkCheck, type LinkKind, type LinkRefusal } from './links.ts';
import type { AccountsDeps, LinkView } from './service.ts';

export const HOUR_MS = 60 * 60 * 1000;

/** How long each kind of link works. */
export const LINK_TTL_MS: Readonly<Record<LinkKind, number>> = {
  invitation: 72 * HOUR_MS,
  password_reset: 1 * HOUR_MS,
  email_change: 24 * HOUR_MS,
};

/** The page each kind of link opens (a route of shared/routes.ts). */
export const LINK_PAGES: Readonly<Record<LinkKind, string>> = {
  invitation: 'invitation',
  password_reset: 'resetPassword',
  email_change: 'confirmEmail',
};

export function linkRefused(reason: LinkRefusal): ApiError {
  const messages: Record<LinkRefusal, [number, string]> = {
    unknown: [404, 'This link is not valid: it may have been replaced by a newer one'],
    used: [410, 'This link has already been used'],
    expired: [410, 'This link has expired'],
  };
  const [status, message] = messages[reason];
  return new ApiError(status, `link_${reason}`, message);
}

/** The rules of change password (shared/validation.ts) and the confirmation, judged once the link is known good. */
export function requireNewPassword(password: string, confirm: string, userName: string): void {
  const fields: Record<string, string> = {};
  const problem = passwordProblem(password, userName);
  if (problem) fields.newPassword = problem;
  if (password !== confirm) fields.confirmPassword = 'validation.passwordsDiffer';
  if (Object.keys(fields).length > 0) throw new ApiError(422, 'invalid_password', 'Check the highlighted fields', fields);
}

export type AccountsContext = ReturnType<typeof accountsContext>;

export function accountsContext(deps: AccountsDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const links: AccountLinks = accountLinks(db, now);

  /** The link's user, when the link may still act on them (the account exists and is enabled). */
  async function viewOf(check: LinkCheck): Promise<LinkView> {
    if (!check.ok) return { state: check.reason };
    const user = await users.findUser(db, check.link.userName);
    if (!user || user.disabled) return { state: 'unknown' };
    // An invitation ends when the user has a password, whichever way it came (reset, ops, admin).
    if (check.link.kind === 'invitation' && !user.invited) return { state: 'used' };
    return { state: 'valid', link: check.link, user };
  }

  return {
    deps,
    db,
    mail: deps.mail,
    logger: deps.logger,
    audit: deps.audit ?? noAudit,
    now,
    links,
    viewOf,

    linkPath(kind: LinkKind, locale: Locale, token: string): string {
      return `${localePath(LINK_PAGES[kind], locale)}?token=${token}`;
    },

    async localeOf(userName: string): Promise<Locale> {
      const row = await db.k.selectFrom('user_locales').select('locale').where('user_name', '=', userName).executeTakeFirst();
      return isLocale(row?.locale) ? row.locale : defaultLocale;
    },

    async requireUser(userName: string): Promise<users.User> {
      const user = await users.findUser(db, userName);
      if (!user) throw new ApiError(404, 'user_not_found', `No user named ${JSON.stringify(userName)}`);
      return user;
    },

    /** The link's user for a form that is about to use it, or the refusal as an ApiError. */
    async usableLink(kind: LinkKind, token: string): Promise<{ link: AccountLink; user: users.User }> {
      const view = await viewOf(await links.inspect(kind, token));
      if (view.state === 'missing') throw linkRefused('unknown');
      if (view.state !== 'valid') throw linkRefused(view.state);
      return view;
    },

    /** Uses the link (once) with `apply` in its transaction; a refusal is thrown. */
    async spend(kind: LinkKind, token: string, apply: Parameters<AccountLinks['consume']>[2]): Promise<AccountLink> {
      const used = await links.consume(kind, token, apply);
      if (!used.ok) throw linkRefused(used.reason);
      return used.link;
    },
  };
}

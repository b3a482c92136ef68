// Accounts that run themselves, on the single-use links of links.ts: an admin invites a user
// (who chooses their password), a user who forgot their password gets a link to choose a new
// one, a user changes their e-mail address by confirming the new one. Every link is sent by the
// mail module in the language the caller chose; every security-relevant step is audited.
import { canonicalIdentity, identityProblem } from '../../shared/identity.ts';
import { defaultLocale, isLocale, type Locale } from '../../shared/locales.ts';
import { localePath } from '../../shared/routes.ts';
import { isEmailAddress, passwordProblem } from '../../shared/validation.ts';
import { noAudit, type Audit } from '../audit/types.ts';
import type { Sessions } from '../auth/session-store.ts';
import type { RateLimiter } from '../db/rate-limit.ts';
import type { Db } from '../db/index.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import type { Logger } from '../base/logger.ts';
import type { Mail } from '../mail/index.ts';
import { hashPassword } from '../users/passwords.ts';
import type { UserLocales } from '../users/user-locales.ts';
import * as users from '../users/users.ts';
import { accountLinks, type AccountLink, type LinkCheck, type LinkKind, type LinkRefusal } from './links.ts';

const HOUR_MS = 60 * 60 * 1000;

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

/** How a forgotten-password request is answered whatever it found: no sooner than this. */
export const RESET_ANSWER_FLOOR_MS = 250;

export type Invitation = {
  /** When the link stops working (ISO 8601). */
  expiresAt: string;
  /** The address the invitation went to… */
  sentTo?: string;
  /** …or, without a mail server, the link itself, for the admin to pass on (shown once, never stored). */
  link?: string;
};

/** Who asks, from where (for the audit log). */
export type Actor = { userName: string | null; ip: string | null };

export type ResetLimits = {
  limiter: RateLimiter;
  /** Requests from one address per window (then 429). */
  perIp: number;
  /** E-mails to one account per window (then none, silently: the answer is the same). */
  perAccount: number;
};

/** E-mail changes: requests per user (then 429), e-mails to one address (then none, silently), per window. */
export type EmailChangeLimits = { limiter: RateLimiter; perAccount: number; perAddress: number };

/** Invitations resent per hour: by one admin, and to one invited user (then 429). */
export type InvitationLimits = { limiter: RateLimiter; perAdmin: number; perUser: number };

export type AccountsDeps = {
  db: Db;
  mail: Pick<Mail, 'canSend' | 'sendAccountMail'>;
  sessions: Pick<Sessions, 'endAllOf'>;
  locales: Pick<UserLocales, 'signedIn'>;
  /** PUBLIC_URL: the links an admin passes on by hand are absolute. */
  origin: string;
  resetLimits: ResetLimits;
  emailChangeLimits?: EmailChangeLimits;
  invitationLimits?: InvitationLimits;
  logger: Logger;
  audit?: Audit;
  now?: () => number;
  /** The floor of a forgotten-password answer (tests may lower it). */
  resetAnswerFloorMs?: number;
};

export type Accounts = ReturnType<typeof createAccounts>;

/** What a link's page shows: its form, or why the link does not work ('missing': no link at all). */
export type LinkView = { state: 'valid'; link: AccountLink; user: users.User } | { state: LinkRefusal | 'missing' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function linkRefused(reason: LinkRefusal): ApiError {
  const messages: Record<LinkRefusal, [number, string]> = {
    unknown: [404, 'This link is not valid: it may have been replaced by a newer one'],
    used: [410, 'This link has already been used'],
    expired: [410, 'This link has expired'],
  };
  const [status, message] = messages[reason];
  return new ApiError(status, `link_${reason}`, message);
}

export function createAccounts(deps: AccountsDeps) {
  const { db, mail, logger } = deps;
  const audit = deps.audit ?? noAudit;
  const now = deps.now ?? Date.now;
  const links = accountLinks(db, now);
  const floorMs = deps.resetAnswerFloorMs ?? RESET_ANSWER_FLOOR_MS;

  function linkPath(kind: LinkKind, locale: Locale, token: string): string {
    return `${localePath(LINK_PAGES[kind], locale)}?token=${token}`;
  }

  async function localeOf(userName: string): Promise<Locale> {
    const row = await db.k.selectFrom('user_locales').select('locale').where('user_name', '=', userName).executeTakeFirst();
    return isLocale(row?.locale) ? row.locale : defaultLocale;
  }

  async function requireUser(userName: string): Promise<users.User> {
    const user = await users.findUser(db, userName);
    if (!user) throw new ApiError(404, 'user_not_found', `No user named ${JSON.stringify(userName)}`);
    return user;
  }

  /** The link's user, when the link may still act on them (the account exists and is enabled). */
  async function viewOf(check: LinkCheck): Promise<LinkView> {
    if (!check.ok) return { state: check.reason };
    const user = await users.findUser(db, check.link.userName);
    if (!user || user.disabled) return { state: 'unknown' };
    // An invitation ends when the user has a password, whichever way it came (reset, ops, admin).
    if (check.link.kind === 'invitation' && !user.invited) return { state: 'used' };
    return { state: 'valid', link: check.link, user };
  }

  /** The link's user for a form that is about to use it, or the refusal as an ApiError. */
  async function usableLink(kind: LinkKind, token: string): Promise<{ link: AccountLink; user: users.User }> {
    const view = await viewOf(await links.inspect(kind, token));
    if (view.state === 'missing') throw linkRefused('unknown');
    if (view.state !== 'valid') throw linkRefused(view.state);
    return view;
  }

  /** Uses the link (once) with `apply` in its transaction; a refusal is thrown. */
  async function spend(kind: LinkKind, token: string, apply: Parameters<typeof links.consume>[2]): Promise<AccountLink> {
    const used = await links.consume(kind, token, apply);
    if (!used.ok) throw linkRefused(used.reason);
    return used.link;
  }

  /** `greet`: by the name the admin wrote (a manager's invitation greets nobody: issue 23, M3). */
  async function sendInvitationTo(user: users.User, actor: Actor, resend: boolean, greet = true): Promise<Invitation> {
    if (!user.email) throw new ApiError(409, 'no_email', `${user.userName} has no e-mail address to invite`);
    const locale = await localeOf(user.userName);
    const token = await links.issue('invitation', user.userName, LINK_TTL_MS.invitation);
    const expiresAt = new Date(now() + LINK_TTL_MS.invitation).toISOString();
    const path = linkPath('invitation', locale, token);
    let invitation: Invitation;
    if (mail.canSend) {
      await mail.sendAccountMail({
        kind: 'invitation',
        to: user.email,
        locale,
        name: greet ? user.name : null,
        userName: user.userName,
        validHours: LINK_TTL_MS.invitation / HOUR_MS,
        path,
        ref: `user:${user.userName}`,
      });
      invitation = { expiresAt, sentTo: user.email };
    } else {
      // No mail server (production without SMTP_URL): the admin passes the link on by hand.
      invitation = { expiresAt, link: `${deps.origin}${path}` };
    }
    await audit.record({
      action: 'invitation_sent',
      actor: actor.userName,
      target: user.userName,
      ip: actor.ip,
      detail: { delivery: invitation.link ? 'link' : 'email', resend },
    });
    logger.info({ admin: actor.userName, userName: user.userName, delivery: invitation.link ? 'link' : 'email' }, 'invitation sent');
    return invitation;
  }

  return {
    /** Whether links can be e-mailed (else resets and e-mail changes are refused, invitations handed over). */
    get canSend() {
      return mail.canSend;
    },

    /**
     * An admin creates a user without a password: they get an e-mail (or the admin a link) to
     * choose it, in `locale` (which is also their e-mails' language until they use the site).
     */
    async invite(
      actor: Actor,
      input: Omit<users.NewUser, 'password' | 'invited'>,
      locale: Locale,
      options: { greet?: boolean } = {},
    ): Promise<{ user: users.User; invitation: Invitation }> {
      if (!input.email) {
        throw new ApiError(400, 'invalid_request', 'Invalid request: email is required to invite a user', { email: 'validation.required' });
      }
      const user = await users.createUser(db, { ...input, password: users.randomPassword(), invited: true });
      try {
        await deps.locales.signedIn(user.userName, locale);
        return { user, invitation: await sendInvitationTo(user, actor, false, options.greet ?? true) };
      } catch (error) {
        // No invitation, no user: the admin can simply try again.
        await links.voidAll(user.userName);
        await db.k.deleteFrom('user_locales').where('user_name', '=', user.userName).execute();
        await db.k.deleteFrom('company_members').where('user_name', '=', user.userName).execute();
        await db.k.deleteFrom('users').where('user_name', '=', user.userName).execute();
        throw error;
      }
    },

    /**
     * A new invitation link for a user who has not accepted yet; the older link stops working.
     * Each one is an e-mail: counted per admin and per invited user (429 past either).
     */
    async resendInvitation(actor: Actor, userName: string): Promise<{ user: users.User; invitation: Invitation }> {
      const user = await requireUser(userName);
      if (!user.invited) throw new ApiError(409, 'invitation_accepted', `${user.userName} has already chosen a password`);
      if (user.disabled) throw new ApiError(409, 'user_disabled', `${user.userName} is disabled: enable the account first`);
      const limits = deps.invitationLimits;
      if (limits) {
        for (const [key, max] of [
          [`invitation-resend:user:${user.userName}`, limits.perUser],
          [`invitation-resend:admin:${canonicalIdentity(actor.userName ?? 'ops')}`, limits.perAdmin],
        ] as const) {
          const wait = await limits.limiter.take(key, max, HOUR_MS);
          if (wait > 0) throw new TooManyAttemptsError(wait, 'too_many_invitations', 'Too many invitations resent');
        }
      }
      return { user, invitation: await sendInvitationTo(user, actor, true) };
    },

    /** What a link's page shows (nothing is used). */
    async view(kind: LinkKind, token: string | null): Promise<LinkView> {
      if (!token) return { state: 'missing' };
      return viewOf(await links.inspect(kind, token));
    },

    /** The invited user chooses their password; answers their user name (to sign them in). */
    async acceptInvitation(token: string, password: string, confirm: string, ip: string | null): Promise<string> {
      const { user } = await usableLink('invitation', token);
      requireNewPassword(password, confirm, user.userName);
      const hash = await hashPassword(password);
      const link = await spend('invitation', token, async (used, trx) => {
        const row = await trx
          .selectFrom('users')
          .select(['invited_at', 'disabled'])
          .where('user_name', '=', used.userName)
          .executeTakeFirst();
        if (!row || Number(row.disabled) === 1) throw linkRefused('unknown');
        if (row.invited_at === null) throw linkRefused('used');
        await users.writePasswordHash(trx, used.userName, hash);
      });
      await audit.record({ action: 'invitation_accepted', actor: link.userName, ip });
      logger.info({ userName: link.userName }, 'invitation accepted');
      return link.userName;
    },

    /**
     * Forgotten password: the account named by a user name or e-mail address gets a link, when
     * there is one, it is enabled, has an address and is under its limit. The caller learns
     * nothing of which (and waits as long in every case); only the address's limit is a 429.
     */
    async requestPasswordReset(identifier: string, locale: Locale, ip: string | null): Promise<void> {
      const started = now();
      const { limiter, perIp, perAccount } = deps.resetLimits;
      const wait = await limiter.take(`password-reset:ip:${ip ?? 'unknown'}`, perIp);
      if (wait > 0) throw new TooManyAttemptsError(wait, 'too_many_requests', 'Too many requests');
      try {
        const wanted = canonicalIdentity(identifier);
        const rows = await db.k
          .selectFrom('users')
          .select(['user_name', 'email', 'name', 'disabled'])
          .where((eb) => eb.or([eb('user_name', '=', wanted), eb('email', '=', wanted)]))
          .limit(2)
          .execute();
        // A user name wins over an e-mail address that happens to be written the same (as at sign-in).
        const row = rows.find((r) => r.user_name === wanted) ?? rows[0];
        if (row && Number(row.disabled) === 0 && row.email) {
          if ((await limiter.take(`password-reset:account:${row.user_name}`, perAccount)) > 0) {
            logger.warn({ userName: row.user_name }, 'password reset not sent: the account had enough of them for now');
          } else {
            const token = await links.issue('password_reset', row.user_name, LINK_TTL_MS.password_reset);
            await mail.sendAccountMail({
              kind: 'password_reset',
              to: row.email,
              locale,
              name: row.name,
              userName: row.user_name,
              validHours: LINK_TTL_MS.password_reset / HOUR_MS,
              path: linkPath('password_reset', locale, token),
              ref: `user:${row.user_name}`,
            });
            await audit.record({ action: 'password_reset_requested', actor: null, target: row.user_name, ip });
          }
        }
      } catch (error) {
        // Answered like any other request: a failure must not tell that an account matched.
        logger.error({ err: error }, 'password reset request failed');
      }
      const left = started + floorMs - now();
      if (left > 0) await sleep(left);
    },

    /** A new password from a reset link: every session of the user ends. Answers their user name. */
    async resetPassword(token: string, password: string, confirm: string, ip: string | null): Promise<string> {
      const { user } = await usableLink('password_reset', token);
      requireNewPassword(password, confirm, user.userName);
      const hash = await hashPassword(password);
      const link = await spend('password_reset', token, async (used, trx) => {
        const row = await trx.selectFrom('users').select('disabled').where('user_name', '=', used.userName).executeTakeFirst();
        if (!row || Number(row.disabled) === 1) throw linkRefused('unknown');
        await users.writePasswordHash(trx, used.userName, hash);
      });
      await deps.sessions.endAllOf(link.userName);
      await audit.record({ action: 'password_reset', actor: link.userName, ip });
      logger.info({ userName: link.userName }, 'password reset');
      return link.userName;
    },

    /** A user as the database has them now (null: unknown). */
    user(userName: string): Promise<users.User | null> {
      return users.findUser(db, userName);
    },

    /** The address a user asked to change to and has not confirmed yet, or null. */
    async pendingEmail(userName: string): Promise<string | null> {
      return (await links.pending('email_change', userName))?.newEmail ?? null;
    },

    /**
     * A signed-in user (whose password the caller checked) asks to use another address: a link
     * goes to the new one, and the old one is told. Nothing changes until the link is used.
     * Answered the same whether or not another account has the address (issue 23, L5): then its
     * owner is told that someone tried, and no link goes out. The new address is not known to be
     * the user's yet, so what goes there names nobody the sender chose (M3): no display name, no
     * other address. Requests are counted per user (429), e-mails per address (silently).
     */
    async requestEmailChange(userName: string, newEmail: string, locale: Locale, ip: string | null): Promise<void> {
      if (!mail.canSend) throw new ApiError(503, 'mail_unavailable', 'E-mail cannot be sent from this site right now');
      const typed = newEmail.trim();
      if (!isEmailAddress(typed)) {
        throw new ApiError(422, 'invalid_request', `${JSON.stringify(typed)} is not one e-mail address`, {
          newEmail: 'validation.invalidEmail',
        });
      }
      const problem = identityProblem(typed);
      if (problem) {
        throw new ApiError(422, 'look_alike', `The e-mail address ${JSON.stringify(typed)} ${problem}`, {
          newEmail: 'validation.lookAlike',
        });
      }
      const email = canonicalIdentity(typed);
      const user = await requireUser(userName);
      if (user.email === email) {
        throw new ApiError(422, 'same_email', 'This is already your address', { newEmail: 'validation.sameEmail' });
      }
      const limits = deps.emailChangeLimits;
      if (limits) {
        const wait = await limits.limiter.take(`email-change:account:${user.userName}`, limits.perAccount);
        if (wait > 0) throw new TooManyAttemptsError(wait, 'too_many_email_changes', 'Too many e-mail changes');
      }
      const owner = await db.k
        .selectFrom('users')
        .select(['user_name', 'name'])
        .where('email', '=', email)
        .where('user_name', '<>', user.userName)
        .executeTakeFirst();
      // Issued in either case: the profile shows the same "waiting for confirmation".
      const token = await links.issue('email_change', user.userName, LINK_TTL_MS.email_change, { newEmail: email });
      const validHours = LINK_TTL_MS.email_change / HOUR_MS;
      const underLimit = !limits || (await limits.limiter.take(`email-change:address:${email}`, limits.perAddress)) === 0;
      if (!underLimit) {
        logger.warn({ userName: user.userName }, 'e-mail change: nothing sent to the new address, it had enough of them for now');
      } else if (owner) {
        // In the owner's language: the asker's page says nothing of this e-mail.
        const ownerLocale = await localeOf(owner.user_name);
        await mail.sendAccountMail({
          kind: 'email_change_taken',
          to: email,
          locale: ownerLocale,
          name: owner.name,
          userName: owner.user_name,
          path: localePath('forgotPassword', ownerLocale),
          ref: `user:${owner.user_name}`,
        });
      } else {
        await mail.sendAccountMail({
          kind: 'email_change_confirm',
          to: email,
          locale,
          name: null,
          userName: user.userName,
          newEmail: email,
          oldEmail: null,
          validHours,
          path: linkPath('email_change', locale, token),
          ref: `user:${user.userName}`,
        });
      }
      if (user.email) {
        await mail.sendAccountMail({
          kind: 'email_change_requested',
          to: user.email,
          locale,
          name: user.name,
          userName: user.userName,
          newEmail: email,
          oldEmail: user.email,
          validHours,
          path: localePath('changePassword', locale),
          ref: `user:${user.userName}`,
        });
      }
      await audit.record({ action: 'email_change_requested', actor: user.userName, ip, detail: { newEmail: email } });
    },

    /** The link sent to the new address was opened: the account uses it from now on; the old address is told. */
    async confirmEmailChange(token: string, locale: Locale, ip: string | null): Promise<{ userName: string; email: string }> {
      const before = await usableLink('email_change', token);
      const link = await spend('email_change', token, async (used, trx) => {
        const email = used.newEmail!;
        // Another account may have taken the address since the link was sent.
        await refuseTaken(trx, email, used.userName);
        try {
          await trx
            .updateTable('users')
            .set({ email, updated_at: new Date(now()).toISOString() })
            .where('user_name', '=', used.userName)
            .execute();
        } catch (error) {
          // …or be taking it right now: the unique index decides.
          if (isUniqueViolation(error)) throw emailTaken(email);
          throw error;
        }
      });
      const email = link.newEmail!;
      const old = before.user.email;
      if (old && old !== email) {
        await mail
          .sendAccountMail({
            kind: 'email_changed',
            to: old,
            locale,
            name: before.user.name,
            userName: link.userName,
            newEmail: email,
            oldEmail: old,
            path: localePath('Contact', locale),
            ref: `user:${link.userName}`,
          })
          .catch((error: unknown) => logger.error({ err: error, userName: link.userName }, 'the old address was not told of the change'));
      }
      await audit.record({ action: 'email_changed', actor: link.userName, ip, detail: { newEmail: email } });
      logger.info({ userName: link.userName }, 'e-mail address changed');
      return { userName: link.userName, email };
    },
  };
}

/** The rules of change password (shared/validation.ts) and the confirmation, judged once the link is known good. */
function requireNewPassword(password: string, confirm: string, userName: string): void {
  const fields: Record<string, string> = {};
  const problem = passwordProblem(password, userName);
  if (problem) fields.newPassword = problem;
  if (password !== confirm) fields.confirmPassword = 'validation.passwordsDiffer';
  if (Object.keys(fields).length > 0) throw new ApiError(422, 'invalid_password', 'Check the highlighted fields', fields);
}

function emailTaken(email: string): ApiError {
  return new ApiError(409, 'email_taken', `The e-mail address ${JSON.stringify(email)} is already in use`, {
    newEmail: 'validation.emailTaken',
  });
}

/** 409 when another account uses the address. */
async function refuseTaken(k: Db['k'], email: string, userName: string): Promise<void> {
  const clash = await k
    .selectFrom('users')
    .select('user_name')
    .where('email', '=', email)
    .where('user_name', '<>', userName)
    .executeTakeFirst();
  if (clash) throw emailTaken(email);
}

/** A unique index refused the write (SQLite's constraint error, PostgreSQL's 23505). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

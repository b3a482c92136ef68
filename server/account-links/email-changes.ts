// E-mail changes: a signed-in user asks to use another address; the account uses it once the
// link sent there is opened (docs/decisions/017, amended by docs/decisions/029).
import { canonicalIdentity, identityProblem } from '../../shared/identity.ts';
import type { Locale } from '../../shared/locales.ts';
import { localePath } from '../../shared/routes.ts';
import { isEmailAddress } from '../../shared/validation.ts';
import type { Db } from '../db/index.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import { HOUR_MS, LINK_TTL_MS, type AccountsContext } from './account-context.ts';

export function createEmailChanges(ctx: AccountsContext) {
  const { deps, db, mail, logger, audit, now, links } = ctx;

  return {
    /** The address a user asked to change to and has not confirmed yet, or null. */
    async pendingEmail(userName: string): Promise<string | null> {
      return (await links.pending('email_change', userName))?.newEmail ?? null;
    },

    /**
     * A signed-in user (whose password the caller checked) asks to use another address: a link
     * goes to the new one, and the old one is told. Nothing changes until the link is used.
     * Answered the same whether or not another account has the address: then its owner is told
     * that someone tried, and no link goes out. The new address is not known to be the user's
     * yet, so what goes there names nobody the sender chose: no display name, no other address
     * (docs/decisions/029). Requests are counted per user (429), e-mails per address (silently).
     */
    async requestEmailChange(userName: string, newEmail: string, locale: Locale, ip: string | null): Promise<void> {
      if (!mail.canSend) throw new ApiError(503, 'mail_unavailable', 'E-mail cannot be sent from this site right now');
      const email = newAddress(newEmail);
      const user = await ctx.requireUser(userName);
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
        const ownerLocale = await ctx.localeOf(owner.user_name);
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
          path: ctx.linkPath('email_change', locale, token),
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
      const before = await ctx.usableLink('email_change', token);
      const link = await ctx.spend('email_change', token, async (used, trx) => {
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

/** The address as typed, checked (one address, no look-alike) and in its canonical form; else 422. */
function newAddress(newEmail: string): string {
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
  return canonicalIdentity(typed);
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

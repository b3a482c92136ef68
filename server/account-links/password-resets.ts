// Forgotten passwords: a link to choose a new one, sent to the account's address; the request
// is answered alike whatever it found (docs/decisions/017).
import { canonicalIdentity } from '../../shared/identity.ts';
import type { Locale } from '../../shared/locales.ts';
import { TooManyAttemptsError } from '../http/errors.ts';
import { hashPassword } from '../users/passwords.ts';
import * as users from '../users/users.ts';
import { HOUR_MS, LINK_TTL_MS, linkRefused, requireNewPassword, type AccountsContext } from './account-context.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createPasswordResets(ctx: AccountsContext, floorMs: number) {
  const { deps, db, mail, logger, audit, now, links } = ctx;

  return {
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
              path: ctx.linkPath('password_reset', locale, token),
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
      const { user } = await ctx.usableLink('password_reset', token);
      requireNewPassword(password, confirm, user.userName);
      const hash = await hashPassword(password);
      const link = await ctx.spend('password_reset', token, async (used, trx) => {
        const row = await trx.selectFrom('users').select('disabled').where('user_name', '=', used.userName).executeTakeFirst();
        if (!row || Number(row.disabled) === 1) throw linkRefused('unknown');
        await users.writePasswordHash(trx, used.userName, hash);
      });
      await deps.sessions.endAllOf(link.userName);
      await audit.record({ action: 'password_reset', actor: link.userName, ip });
      logger.info({ userName: link.userName }, 'password reset');
      return link.userName;
    },
  };
}

// Invitations: an admin creates a user without a password, and the user chooses it from the
// link they are sent (or that the admin passes on, without a mail server). A company's manager
// invites a colleague by address (colleague-invitations.ts, docs/decisions/049).
import { canonicalIdentity } from '../../shared/identity.ts';
import type { Locale } from '../../shared/locales.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import { hashPassword } from '../users/passwords.ts';
import * as users from '../users/users.ts';
import { HOUR_MS, LINK_TTL_MS, linkRefused, requireNewPassword, type AccountsContext } from './account-context.ts';
import { colleagueInviter } from './colleague-invitations.ts';
import type { Actor, Invitation } from './service.ts';

export function createInvitations(ctx: AccountsContext) {
  const { deps, db, mail, logger, audit, now, links } = ctx;

  /**
   * `greet`: by the name the admin wrote (a manager's invitation greets nobody: docs/decisions/041);
   * `byManager`: the e-mail says the actor, a company's manager, invited them (else an administrator).
   */
  async function sendInvitationTo(
    user: users.User,
    actor: Actor,
    resend: boolean,
    { greet = true, byManager = false }: { greet?: boolean; byManager?: boolean } = {},
  ): Promise<Invitation> {
    if (!user.email) throw new ApiError(409, 'no_email', `${user.userName} has no e-mail address to invite`);
    const locale = await ctx.localeOf(user.userName);
    const token = await links.issue('invitation', user.userName, LINK_TTL_MS.invitation);
    const expiresAt = new Date(now() + LINK_TTL_MS.invitation).toISOString();
    const path = ctx.linkPath('invitation', locale, token);
    let invitation: Invitation;
    if (mail.canSend) {
      await mail.sendAccountMail({
        kind: 'invitation',
        to: user.email,
        locale,
        name: greet ? user.name : null,
        ...(byManager && actor.userName ? { inviter: actor.userName } : {}),
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

  /**
   * An admin creates a user without a password: they get an e-mail (or the admin a link) to
   * choose it, in `locale` (which is also their e-mails' language until they use the site).
   */
  async function invite(
    actor: Actor,
    input: Omit<users.NewUser, 'password' | 'invited'>,
    locale: Locale,
    options: { greet?: boolean; byManager?: boolean } = {},
  ): Promise<{ user: users.User; invitation: Invitation }> {
    if (!input.email) {
      throw new ApiError(400, 'invalid_request', 'Invalid request: email is required to invite a user', { email: 'validation.required' });
    }
    const user = await users.createUser(db, { ...input, password: users.randomPassword(), invited: true });
    try {
      await deps.locales.signedIn(user.userName, locale);
      return { user, invitation: await sendInvitationTo(user, actor, false, options) };
    } catch (error) {
      // No invitation, no user: the admin can simply try again.
      await links.voidAll(user.userName);
      await db.k.deleteFrom('user_locales').where('user_name', '=', user.userName).execute();
      await db.k.deleteFrom('company_members').where('user_name', '=', user.userName).execute();
      await db.k.deleteFrom('users').where('user_name', '=', user.userName).execute();
      throw error;
    }
  }

  return {
    invite,

    inviteColleague: colleagueInviter(ctx, invite, sendInvitationTo),

    /**
     * A new invitation link for a user who has not accepted yet; the older link stops working.
     * Each one is an e-mail: counted per admin and per invited user (429 past either).
     */
    async resendInvitation(actor: Actor, userName: string): Promise<{ user: users.User; invitation: Invitation }> {
      const user = await ctx.requireUser(userName);
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

    /** The invited user chooses their password; answers their user name (to sign them in). */
    async acceptInvitation(token: string, password: string, confirm: string, ip: string | null): Promise<string> {
      const { user } = await ctx.usableLink('invitation', token);
      requireNewPassword(password, confirm, user.userName);
      const hash = await hashPassword(password);
      const link = await ctx.spend('invitation', token, async (used, trx) => {
        // Locked (PostgreSQL): a removal of the invitee racing this one waits, or is waited for (companies.ts).
        const row = await trx
          .selectFrom('users')
          .select(['invited_at', 'disabled'])
          .where('user_name', '=', used.userName)
          .$if(db.engine === 'postgres', (q) => q.forUpdate())
          .executeTakeFirst();
        if (!row || Number(row.disabled) === 1) throw linkRefused('unknown');
        if (row.invited_at === null) throw linkRefused('used');
        await users.writePasswordHash(trx, used.userName, hash);
      });
      await audit.record({ action: 'invitation_accepted', actor: link.userName, ip });
      logger.info({ userName: link.userName }, 'invitation accepted');
      return link.userName;
    },
  };
}

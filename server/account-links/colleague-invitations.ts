// A company's manager invites a colleague by address (docs/decisions/049), answered the same
// whether the address has an account or not: no user name is asked (one is made here), an
// address with an account gets a notice instead of a second account, and the work done is the
// same either way. An admin's own invitations are invitations.ts's and say what they find.
import { randomInt } from 'node:crypto';
import type { Locale } from '../../shared/locales.ts';
import { localePath } from '../../shared/routes.ts';
import { isEmailAddress, USER_NAME_MAX_LENGTH } from '../../shared/validation.ts';
import { ApiError } from '../http/errors.ts';
import { hashPassword } from '../users/passwords.ts';
import * as users from '../users/users.ts';
import { LINK_TTL_MS, type AccountsContext } from './account-context.ts';
import type { Actor, Invitation } from './service.ts';

/** A colleague as a manager invites them: who they are and where they go; never a user name (docs/decisions/049). */
export type ColleagueInput = { email: string; name: string; lastName: string; role: 'CLI' | 'ORG'; companyId: number };

/** What the manager is told, the same whatever the address is: where it went and until when its link would work. */
export type ColleagueInvitation = { sentTo: string; expiresAt: string };

/** What happened, for the audit log only: whose account the invitation was about, and whether it was made now. */
export type ColleagueOutcome = { invitation: ColleagueInvitation; userName: string; outcome: 'created' | 'resent' | 'existing' };

const SUFFIX_LETTERS = 'abcdefghijkmnpqrstuvwxyz23456789';
const SUFFIX_LENGTH = 6;

/**
 * A user name for an invited colleague, made here and never asked for: the address's local part
 * as the user-name rule allows it, then a random suffix, always (a suffix only on a clash would
 * tell that the plain name is taken).
 */
export function colleagueUserName(email: string): string {
  const room = USER_NAME_MAX_LENGTH - SUFFIX_LENGTH - 1;
  const local =
    email
      .slice(0, email.lastIndexOf('@'))
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '')
      .replace(/^[^a-z0-9]+/, '')
      .slice(0, room)
      .replace(/[._-]+$/, '') || 'colleague';
  let suffix = '';
  for (let i = 0; i < SUFFIX_LENGTH; i++) suffix += SUFFIX_LETTERS[randomInt(SUFFIX_LETTERS.length)];
  return `${local}.${suffix}`;
}

type Invite = (
  actor: Actor,
  input: Omit<users.NewUser, 'password' | 'invited'>,
  locale: Locale,
  options?: { greet?: boolean; byManager?: boolean },
) => Promise<{ user: users.User; invitation: Invitation }>;
type SendInvitation = (
  user: users.User,
  actor: Actor,
  resend: boolean,
  options?: { greet?: boolean; byManager?: boolean },
) => Promise<Invitation>;

/** The manager's invitation, on the admin's invitation flow (`invite`, `sendInvitationTo` of invitations.ts). */
export function colleagueInviter(ctx: AccountsContext, invite: Invite, sendInvitationTo: SendInvitation) {
  const { db, mail, logger, now } = ctx;

  /** The account an address already has: a notice goes there, nothing else happens. */
  async function noticeOfTaken(owner: users.User): Promise<void> {
    const locale = await ctx.localeOf(owner.userName);
    await mail.sendAccountMail({
      kind: 'colleague_invitation_taken',
      to: owner.email!,
      locale,
      name: owner.name,
      userName: owner.userName,
      path: localePath('forgotPassword', locale),
      ref: `user:${owner.userName}`,
    });
  }

  /** The account of an address, if any (canonical, as stored). */
  async function ownerOf(email: string): Promise<users.User | null> {
    const row = await db.k.selectFrom('users').select('user_name').where('email', '=', email).executeTakeFirst();
    return row ? users.findUser(db, row.user_name) : null;
  }

  async function companyOf(userName: string): Promise<number | null> {
    const row = await db.k.selectFrom('company_members').select('company_id').where('user_name', '=', userName).executeTakeFirst();
    return row ? Number(row.company_id) : null;
  }

  /**
   * A company's manager invites a colleague by address (docs/decisions/049), answered the same
   * whether the address has an account or not: the same answer, the same work (a password hash
   * either way), one e-mail to the address. A new address gets an account in the company, with
   * a user name made here, and an invitation that greets nobody (decision 041); a pending
   * invitee of this company gets a new link; any other account gets a notice and nothing changes.
   */
  return async function inviteColleague(actor: Actor, input: ColleagueInput, locale: Locale): Promise<ColleagueOutcome> {
    const email = users.newIdentity('email', input.email);
    if (!isEmailAddress(email)) {
      throw new ApiError(400, 'invalid_request', `Invalid request: email ${JSON.stringify(input.email)} is not one e-mail address`, {
        email: 'validation.invalidEmail',
      });
    }
    const expiresAt = new Date(now() + LINK_TTL_MS.invitation).toISOString();
    const answer = { sentTo: email, expiresAt };
    for (let attempt = 0; ; attempt++) {
      const owner = await ownerOf(email);
      if (owner) {
        // The hash a new account costs: a taken address takes as long to answer as a free one.
        await hashPassword(users.randomPassword());
        if (owner.invited && !owner.disabled && (await companyOf(owner.userName)) === input.companyId) {
          await sendInvitationTo(owner, actor, true, { greet: false, byManager: true });
          return { invitation: answer, userName: owner.userName, outcome: 'resent' };
        }
        await noticeOfTaken(owner);
        logger.info(
          { manager: actor.userName, userName: owner.userName },
          'colleague invitation to an address with an account: its owner told',
        );
        return { invitation: answer, userName: owner.userName, outcome: 'existing' };
      }
      try {
        const { user } = await invite(
          actor,
          {
            userName: colleagueUserName(email),
            email,
            name: input.name,
            lastName: input.lastName,
            role: input.role,
            company: { id: input.companyId, role: 'member' },
          },
          locale,
          { greet: false, byManager: true },
        );
        return { invitation: answer, userName: user.userName, outcome: 'created' };
      } catch (error) {
        // The address taken meanwhile, or (once in a blue moon) the made-up user name: try again, as the same answer.
        const taken = error instanceof ApiError && (error.code === 'email_taken' || error.code === 'userName_taken');
        if (!taken || attempt >= 3) throw error;
      }
    }
  };
}

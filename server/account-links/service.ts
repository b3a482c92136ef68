// Accounts that run themselves, on the single-use links of links.ts: an admin invites a user
// (who chooses their password), a user who forgot their password gets a link to choose a new
// one, a user changes their e-mail address by confirming the new one. Every link is sent by the
// mail module in the language the caller chose; every security-relevant step is audited.
import type { Audit } from '../audit/types.ts';
import type { Sessions } from '../auth/session-store.ts';
import type { Logger } from '../base/logger.ts';
import type { RateLimiter } from '../db/rate-limit.ts';
import type { Db } from '../db/index.ts';
import type { Mail } from '../mail/index.ts';
import type { UserLocales } from '../users/user-locales.ts';
import * as users from '../users/users.ts';
import { accountsContext } from './account-context.ts';
import { createEmailChanges } from './email-changes.ts';
import { createInvitations } from './invitations.ts';
import type { AccountLink, LinkKind, LinkRefusal } from './links.ts';
import { createPasswordResets } from './password-resets.ts';

export { LINK_PAGES, LINK_TTL_MS } from './account-context.ts';

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

export function createAccounts(deps: AccountsDeps) {
  const ctx = accountsContext(deps);
  return {
    /** Whether links can be e-mailed (else resets and e-mail changes are refused, invitations handed over). */
    get canSend() {
      return deps.mail.canSend;
    },

    ...createInvitations(ctx),

    /** What a link's page shows (nothing is used). */
    async view(kind: LinkKind, token: string | null): Promise<LinkView> {
      if (!token) return { state: 'missing' };
      return ctx.viewOf(await ctx.links.inspect(kind, token));
    },

    ...createPasswordResets(ctx, deps.resetAnswerFloorMs ?? RESET_ANSWER_FLOOR_MS),

    /** A user as the database has them now (null: unknown). */
    user(userName: string): Promise<users.User | null> {
      return users.findUser(ctx.db, userName);
    },

    ...createEmailChanges(ctx),
  };
}

// Two-factor authentication (TOTP) of the site's users, in the site's database (so it works
// with the built-in API and with an external one alike): setting it up, checking a code or a
// recovery code, turning it off, new recovery codes. Every rule is enforced here; the pages,
// the forms and the API only ask.
//
// - A key is made when the set-up page is first shown (kept while it is fresh, never in clear)
//   and 2FA is on only once a code of that key is entered.
// - A code counts once: the last time step accepted is remembered, and only a later one passes
//   (one step of clock drift either way).
// - Wrong codes are guesses: counted up front per account and per address, 429 past the limit.
// - Recovery codes are ten, one use each, kept as keyed digests.
//
// codes.ts checks a code, setup.ts turns 2FA on and off; this file joins them behind TwoFactor.
import type { Request } from 'express';
import type { TwoFactorSetupView } from '../../shared/two-factor.ts';
import type { SessionUser } from '../../shared/user.ts';
import type { Audit } from '../audit/types.ts';
import type { Logger } from '../base/logger.ts';
import type { Db } from '../db/index.ts';
import type { RateLimiter } from '../db/rate-limit.ts';
import { ApiError } from '../http/errors.ts';
import type { Keys } from '../auth/keys.ts';
import { checkCode } from './codes.ts';
import { twoFactorContext } from './context.ts';
import { disableTwoFactor, enableTwoFactor, renewRecoveryCodes, setupView } from './setup.ts';

export type TwoFactorLimits = {
  /** Wrong codes for one account, from anywhere, before 429 (TWO_FACTOR_MAX_FAILURES). */
  perAccount: number;
  /** Wrong codes from one address, any account, before 429. */
  perIp: number;
};

export type TwoFactorDeps = {
  db: Db;
  /** Seals the secrets at rest (32 bytes, derived from SESSION_SECRET); several newest first: the first seals, any opens, and a secret an older one sealed is sealed again with the first when it is used. */
  secretKey: Keys<Buffer>;
  /** Keys the recovery codes' digests (32 bytes, derived from SESSION_SECRET); several newest first: new codes under the first, a code under any counts. */
  recoveryKey: Keys<Buffer>;
  /** The issuer an authenticator app shows (SITE_NAME). */
  issuer: string;
  /** ADMIN_REQUIRE_2FA: an administrator may use nothing but the set-up page until 2FA is on. */
  requiredForAdmins: boolean;
  /** Counts wrong codes (the login limits' window). */
  limiter: RateLimiter;
  limits: TwoFactorLimits;
  audit?: Audit;
  logger: Logger;
  now?: () => number;
};

/** What a code is checked for: who asks (null: a visitor signing in) and the status of a wrong one. */
export type CodeCheck = { actor: string | null; purpose: 'sign_in' | 'disable' | 'recovery_codes'; status: 401 | 422 };

export type TwoFactor = {
  isEnabled(userName: string): Promise<boolean>;
  /** An administrator without 2FA on a site that requires it of administrators. */
  setupRequired(user: Pick<SessionUser, 'userName' | 'role'>): Promise<boolean>;
  /** What the set-up page shows the user (making the key to add when there is none). */
  view(user: SessionUser): Promise<TwoFactorSetupView>;
  /** Turns 2FA on with a code of the key shown; answers the ten recovery codes, in clear, once. */
  enable(req: Request, userName: string, code: string): Promise<string[]>;
  /** Turns 2FA off (the caller has checked the password) with a code or a recovery code. */
  disable(req: Request, user: Pick<SessionUser, 'userName' | 'role'>, code: string): Promise<void>;
  /** Ten new recovery codes (the old ones stop counting), for a code or a recovery code. */
  renewRecoveryCodes(req: Request, userName: string, code: string): Promise<string[]>;
  /** Checks a code or a recovery code of a user with 2FA, counting a wrong one; throws when it does not count. */
  checkCode(req: Request, userName: string, code: string, check: CodeCheck): Promise<'totp' | 'recovery'>;
  /**
   * POST /api/login after a right password: nothing for a user without 2FA; else the code must
   * come with it (401 two_factor_required). 403 for an administrator who must set it up first.
   */
  apiSignIn(req: Request, user: Pick<SessionUser, 'userName' | 'role'>, code: string | undefined): Promise<void>;
};

export function setupRequiredError(): ApiError {
  return new ApiError(
    403,
    'two_factor_setup_required',
    'Administrators must turn on two-factor authentication first: sign in on the website and set it up',
  );
}

export function createTwoFactor(deps: TwoFactorDeps): TwoFactor {
  const ctx = twoFactorContext(deps);
  return {
    isEnabled: ctx.isEnabled,

    async setupRequired(user) {
      return ctx.requiredFor(user) && !(await ctx.isEnabled(user.userName));
    },

    view: (user) => setupView(ctx, user),
    enable: (req, userName, code) => enableTwoFactor(ctx, req, userName, code),
    disable: (req, user, code) => disableTwoFactor(ctx, req, user, code),
    renewRecoveryCodes: (req, userName, code) => renewRecoveryCodes(ctx, req, userName, code),
    checkCode: (req, userName, code, check) => checkCode(ctx, req, userName, code, check),

    async apiSignIn(req, user, code) {
      if (!(await ctx.isEnabled(user.userName))) {
        if (ctx.requiredFor(user)) throw setupRequiredError();
        return;
      }
      if (code === undefined || code === '') {
        throw new ApiError(
          401,
          'two_factor_required',
          'This account has two-factor authentication: send the current 6-digit code (or a recovery code) as `code` with the password',
        );
      }
      await checkCode(ctx, req, user.userName, code, { actor: null, purpose: 'sign_in', status: 401 });
    },
  };
}

/** Turns a user's 2FA off without a code (the ops CLI, for someone who lost the phone and the codes); true when it was on. */
export async function resetTwoFactor(db: Db, userName: string): Promise<boolean> {
  return db.k.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('two_factor').select('enabled_at').where('user_name', '=', userName).executeTakeFirst();
    await trx.deleteFrom('two_factor_recovery_codes').where('user_name', '=', userName).execute();
    await trx.deleteFrom('two_factor_challenges').where('user_name', '=', userName).execute();
    await trx.deleteFrom('two_factor').where('user_name', '=', userName).execute();
    return Boolean(row?.enabled_at);
  });
}

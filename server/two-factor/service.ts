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
import { canonicalIdentity } from '../../shared/identity.ts';
import type { Request } from 'express';
import { readCode, type TwoFactorSetupView } from '../../shared/two-factor.ts';
import { hasRole, type SessionUser } from '../../shared/user.ts';
import { noAudit, type Audit, type AuditEntry } from '../audit/types.ts';
import type { RateLimiter } from '../db/rate-limit.ts';
import type { Db } from '../db/index.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import type { Logger } from '../base/logger.ts';
import { matchingStep, newRecoveryCodes, newSecret, otpauthUri, qrSvg, recoveryDigest, secretBox } from './secrets.ts';
import { createTtlCache } from '../base/cache.ts';

/** A key shown but not confirmed is replaced after this long (someone may have seen the page). */
const PENDING_KEY_TTL_MS = 60 * 60_000;
/** How long this process trusts what it read of a user's 2FA (other instances' changes show within it). */
const CACHE_MS = 1_000;

export type TwoFactorLimits = {
  /** Wrong codes for one account, from anywhere, before 429 (TWO_FACTOR_MAX_FAILURES). */
  perAccount: number;
  /** Wrong codes from one address, any account, before 429. */
  perIp: number;
};

export type TwoFactorDeps = {
  db: Db;
  /** Seals the secrets at rest (32 bytes, derived from SESSION_SECRET). */
  secretKey: Buffer;
  /** Keys the recovery codes' digests (32 bytes, derived from SESSION_SECRET). */
  recoveryKey: Buffer;
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

function malformedCode(status: number): ApiError {
  return new ApiError(status, 'invalid_request', 'Enter the 6-digit code of your authenticator app or one of your recovery codes', {
    code: 'validation.twoFactorCode',
  });
}

export function setupRequiredError(): ApiError {
  return new ApiError(
    403,
    'two_factor_setup_required',
    'Administrators must turn on two-factor authentication first: sign in on the website and set it up',
  );
}

export function createTwoFactor(deps: TwoFactorDeps): TwoFactor {
  const { db, limiter, limits, logger } = deps;
  const { k } = db;
  const now = deps.now ?? Date.now;
  const audit = deps.audit ?? noAudit;
  const box = secretBox(deps.secretKey);
  const enabledCache = createTtlCache<boolean>({ now, maxEntries: 10_000 });
  const key = (userName: string) => canonicalIdentity(userName);

  function record(req: Request, entry: Omit<AuditEntry, 'ip'>) {
    return audit.record({ ...entry, ip: req.ip ?? null }).catch((error: unknown) => {
      logger.warn({ err: error, action: entry.action }, 'could not record an audit entry');
    });
  }

  function forget(userName: string) {
    enabledCache.delete(key(userName));
  }

  async function rowOf(userName: string) {
    return k.selectFrom('two_factor').selectAll().where('user_name', '=', userName).executeTakeFirst();
  }

  async function isEnabled(userName: string): Promise<boolean> {
    const cached = enabledCache.get(key(userName));
    if (cached?.fresh) return cached.value;
    const row = await k.selectFrom('two_factor').select('enabled_at').where('user_name', '=', userName).executeTakeFirst();
    const enabled = Boolean(row?.enabled_at);
    enabledCache.set(key(userName), enabled, CACHE_MS);
    return enabled;
  }

  function requiredFor(user: Pick<SessionUser, 'role'>): boolean {
    return deps.requiredForAdmins && hasRole(user, 'ADMIN');
  }

  async function unusedRecoveryCodes(userName: string): Promise<number> {
    const { left } = await k
      .selectFrom('two_factor_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('left'))
      .where('user_name', '=', userName)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(left);
  }

  /** Replaces the user's recovery codes (inside the caller's transaction); answers them in clear. */
  async function replaceRecoveryCodes(trx: Db['k'], userName: string, at: string): Promise<string[]> {
    const codes = newRecoveryCodes();
    await trx.deleteFrom('two_factor_recovery_codes').where('user_name', '=', userName).execute();
    await trx
      .insertInto('two_factor_recovery_codes')
      .values(
        codes.map((code) => ({
          user_name: userName,
          digest: recoveryDigest(deps.recoveryKey, userName, code),
          used_at: null,
          created_at: at,
        })),
      )
      .execute();
    return codes;
  }

  /** Takes one attempt on each key up front, or none (429 with the longest wait). */
  async function takeAttempt(req: Request, userName: string): Promise<string[]> {
    const keys: [string, number][] = [
      [`two-factor:account:${key(userName)}`, limits.perAccount],
      [`two-factor:ip:${req.ip ?? 'unknown'}`, limits.perIp],
    ];
    const taken: string[] = [];
    for (const [name, max] of keys) {
      if ((await limiter.take(name, max)) > 0) {
        for (const done of taken) await limiter.release(done);
        const waits = await Promise.all(keys.map(([n, m]) => limiter.retryAfter(n, m)));
        throw new TooManyAttemptsError(Math.max(...waits, 1), 'too_many_attempts', 'Too many wrong codes');
      }
      taken.push(name);
    }
    return taken;
  }

  /** 'ok', or why the code does not count. Marks a time step or a recovery code used. */
  async function spendCode(userName: string, sealedSecret: string, typed: NonNullable<ReturnType<typeof readCode>>) {
    if (typed.kind === 'recovery') {
      const used = await k
        .updateTable('two_factor_recovery_codes')
        .set({ used_at: new Date(now()).toISOString() })
        .where('user_name', '=', userName)
        .where('digest', '=', recoveryDigest(deps.recoveryKey, userName, typed.code))
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(used.numUpdatedRows) === 1 ? 'ok' : 'wrong';
    }
    const secret = box.open(sealedSecret, userName);
    if (secret === null) {
      logger.error({ userName }, 'a two-factor secret cannot be opened (was SESSION_SECRET changed?): only recovery codes work');
      return 'wrong';
    }
    const step = matchingStep(secret, typed.code, now());
    if (step === null) return 'wrong';
    // One statement: of two requests with the same code, one moves last_step and the other finds it moved.
    const moved = await k
      .updateTable('two_factor')
      .set({ last_step: step })
      .where('user_name', '=', userName)
      .where('enabled_at', 'is not', null)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1 ? 'ok' : 'replayed';
  }

  async function checkCode(req: Request, userName: string, code: string, check: CodeCheck): Promise<'totp' | 'recovery'> {
    const typed = readCode(code);
    // Not a code at all: nothing was guessed, nothing is counted.
    if (!typed) throw malformedCode(check.status);
    const row = await rowOf(userName);
    if (!row?.enabled_at) throw new ApiError(409, 'two_factor_not_enabled', 'Two-factor authentication is not on for this account');
    const taken = await takeAttempt(req, userName);
    let outcome: 'ok' | 'wrong' | 'replayed';
    try {
      outcome = await spendCode(row.user_name, row.secret, typed);
    } catch (error) {
      for (const name of taken) await limiter.release(name);
      throw error;
    }
    if (outcome !== 'ok') {
      await record(req, {
        action: 'two_factor_failed',
        actor: check.actor,
        target: row.user_name,
        detail: { purpose: check.purpose, reason: outcome, kind: typed.kind },
      });
      if (outcome === 'replayed') {
        throw new ApiError(check.status, 'two_factor_code_used', 'This code has already been used: wait for the next one', {
          code: 'validation.twoFactorCodeUsed',
        });
      }
      throw new ApiError(check.status, 'wrong_two_factor_code', 'The code is not correct', { code: 'validation.wrongTwoFactorCode' });
    }
    // A right code is no guess: it takes back what it counted (the account's earlier failures stay).
    for (const name of taken) await limiter.release(name);
    if (typed.kind === 'recovery') {
      await record(req, {
        action: 'recovery_code_used',
        actor: check.actor ?? row.user_name,
        detail: { purpose: check.purpose, left: await unusedRecoveryCodes(row.user_name) },
      });
    }
    return typed.kind;
  }

  async function view(user: SessionUser): Promise<TwoFactorSetupView> {
    const required = requiredFor(user);
    const existing = await rowOf(user.userName);
    if (existing?.enabled_at) {
      return { enabled: true, required, enabledAt: existing.enabled_at, recoveryCodesLeft: await unusedRecoveryCodes(existing.user_name) };
    }
    const at = now();
    const staleBefore = new Date(at - PENDING_KEY_TTL_MS).toISOString();
    if (!existing || existing.created_at < staleBefore || box.open(existing.secret, existing.user_name) === null) {
      // A fresh key when there is none, the one shown has grown stale, or it was sealed with
      // another SESSION_SECRET; of two views at once, the first one's key stays.
      await k
        .insertInto('two_factor')
        .values({
          user_name: user.userName,
          secret: box.seal(newSecret(), user.userName),
          enabled_at: null,
          last_step: null,
          created_at: new Date(at).toISOString(),
        })
        .onConflict((oc) =>
          oc
            .column('user_name')
            .doUpdateSet({ secret: (eb) => eb.ref('excluded.secret'), created_at: (eb) => eb.ref('excluded.created_at') })
            .where('two_factor.enabled_at', 'is', null)
            .where((eb) => eb.or([eb('two_factor.created_at', '<', staleBefore), eb('two_factor.secret', '=', existing?.secret ?? '')])),
        )
        .execute();
    }
    const row = await rowOf(user.userName);
    if (row?.enabled_at) return view(user);
    const secret = row ? box.open(row.secret, row.user_name) : null;
    if (!row || secret === null) throw new Error(`The two-factor key of ${user.userName} could not be made`);
    const uri = otpauthUri(secret, deps.issuer, user.userName);
    return { enabled: false, required, key: { secret, qrSvg: await qrSvg(uri) } };
  }

  return {
    isEnabled,

    async setupRequired(user) {
      return requiredFor(user) && !(await isEnabled(user.userName));
    },

    view,

    async enable(req, userName, code) {
      const typed = readCode(code);
      if (!typed || typed.kind !== 'totp') throw malformedCode(422);
      const row = await rowOf(userName);
      if (row?.enabled_at) throw new ApiError(409, 'two_factor_already_enabled', 'Two-factor authentication is already on');
      const secret = row ? box.open(row.secret, row.user_name) : null;
      if (!row || secret === null) {
        throw new ApiError(409, 'two_factor_not_started', 'There is no key to confirm: open the set-up page again');
      }
      const step = matchingStep(secret, typed.code, now());
      if (step === null) {
        throw new ApiError(422, 'wrong_two_factor_code', 'The code is not correct: check the time of your phone and try the next code', {
          code: 'validation.wrongTwoFactorCode',
        });
      }
      const at = new Date(now()).toISOString();
      const codes = await k.transaction().execute(async (trx) => {
        // Only the key that was shown, and only once (two confirmations at once: one wins).
        const confirmed = await trx
          .updateTable('two_factor')
          .set({ enabled_at: at, last_step: step })
          .where('user_name', '=', row.user_name)
          .where('enabled_at', 'is', null)
          .where('secret', '=', row.secret)
          .executeTakeFirst();
        if (Number(confirmed.numUpdatedRows) !== 1) {
          throw new ApiError(409, 'two_factor_not_started', 'The key changed meanwhile: open the set-up page again');
        }
        return replaceRecoveryCodes(trx, row.user_name, at);
      });
      forget(userName);
      await record(req, { action: 'two_factor_enabled', actor: row.user_name });
      return codes;
    },

    async disable(req, user, code) {
      if (requiredFor(user)) {
        throw new ApiError(403, 'two_factor_required', 'Administrators must keep two-factor authentication on (ADMIN_REQUIRE_2FA)');
      }
      const kind = await checkCode(req, user.userName, code, { actor: user.userName, purpose: 'disable', status: 422 });
      await k.transaction().execute(async (trx) => {
        await trx.deleteFrom('two_factor_recovery_codes').where('user_name', '=', user.userName).execute();
        await trx.deleteFrom('two_factor_challenges').where('user_name', '=', user.userName).execute();
        await trx.deleteFrom('two_factor').where('user_name', '=', user.userName).execute();
      });
      forget(user.userName);
      await record(req, { action: 'two_factor_disabled', actor: user.userName, detail: { with: kind } });
    },

    async renewRecoveryCodes(req, userName, code) {
      await checkCode(req, userName, code, { actor: userName, purpose: 'recovery_codes', status: 422 });
      return k.transaction().execute((trx) => replaceRecoveryCodes(trx, userName, new Date(now()).toISOString()));
    },

    checkCode,

    async apiSignIn(req, user, code) {
      if (!(await isEnabled(user.userName))) {
        if (requiredFor(user)) throw setupRequiredError();
        return;
      }
      if (code === undefined || code === '') {
        throw new ApiError(
          401,
          'two_factor_required',
          'This account has two-factor authentication: send the current 6-digit code (or a recovery code) as `code` with the password',
        );
      }
      await checkCode(req, user.userName, code, { actor: null, purpose: 'sign_in', status: 401 });
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

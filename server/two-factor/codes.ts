// Checking a code: an authenticator's code counts once (the last time step accepted is
// remembered, only a later one passes), a recovery code once; wrong ones are guesses, counted up
// front per account and per address, 429 past the limit.
import type { Request } from 'express';
import { readCode } from '../../shared/two-factor.ts';
import type { Db } from '../db/index.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import type { TwoFactorContext } from './context.ts';
import { matchingStep, newRecoveryCodes, recoveryDigest } from './secrets.ts';
import type { CodeCheck } from './service.ts';

type TypedCode = NonNullable<ReturnType<typeof readCode>>;

export function malformedCode(status: number): ApiError {
  return new ApiError(status, 'invalid_request', 'Enter the 6-digit code of your authenticator app or one of your recovery codes', {
    code: 'validation.twoFactorCode',
  });
}

export async function unusedRecoveryCodes(k: Db['k'], userName: string): Promise<number> {
  const { left } = await k
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('left'))
    .where('user_name', '=', userName)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(left);
}

/** Replaces the user's recovery codes (inside the caller's transaction); answers them in clear. */
export async function replaceRecoveryCodes(trx: Db['k'], recoveryKey: Buffer, userName: string, at: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await trx.deleteFrom('two_factor_recovery_codes').where('user_name', '=', userName).execute();
  await trx
    .insertInto('two_factor_recovery_codes')
    .values(
      codes.map((code) => ({
        user_name: userName,
        digest: recoveryDigest(recoveryKey, userName, code),
        used_at: null,
        created_at: at,
      })),
    )
    .execute();
  return codes;
}

/** Takes one attempt on each key up front, or none (429 with the longest wait). */
async function takeAttempt({ deps, key }: TwoFactorContext, req: Request, userName: string): Promise<string[]> {
  const { limiter, limits } = deps;
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
async function spendCode(ctx: TwoFactorContext, userName: string, sealedSecret: string, typed: TypedCode) {
  const { k, now, deps } = ctx;
  if (typed.kind === 'recovery') {
    // Under any of the keys: codes made before a rotation count until their key is taken out.
    const used = await k
      .updateTable('two_factor_recovery_codes')
      .set({ used_at: new Date(now()).toISOString() })
      .where('user_name', '=', userName)
      .where(
        'digest',
        'in',
        ctx.recoveryKeys.map((key) => recoveryDigest(key, userName, typed.code)),
      )
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1 ? 'ok' : 'wrong';
  }
  const opened = ctx.box.unseal(sealedSecret, userName);
  if (opened === null) {
    deps.logger.error(
      { userName },
      'a two-factor secret cannot be opened (was its SESSION_SECRET changed, or taken out of SESSION_SECRETS?): only recovery codes work',
    );
    return 'wrong';
  }
  const { secret } = opened;
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
  if (Number(moved.numUpdatedRows) !== 1) return 'replayed';
  // Sealed by an older key (SESSION_SECRETS, docs/decisions/051): sealed again with the newest on
  // this use, so that it still opens once the older key is taken out. Only if nobody changed it meanwhile.
  if (opened.stale) {
    await k
      .updateTable('two_factor')
      .set({ secret: ctx.box.seal(secret, userName) })
      .where('user_name', '=', userName)
      .where('secret', '=', sealedSecret)
      .execute();
  }
  return 'ok';
}

/** Checks a code or a recovery code of a user with 2FA, counting a wrong one; throws when it does not count. */
export async function checkCode(
  ctx: TwoFactorContext,
  req: Request,
  userName: string,
  code: string,
  check: CodeCheck,
): Promise<'totp' | 'recovery'> {
  const { limiter } = ctx.deps;
  const typed = readCode(code);
  // Not a code at all: nothing was guessed, nothing is counted.
  if (!typed) throw malformedCode(check.status);
  const row = await ctx.rowOf(userName);
  if (!row?.enabled_at) throw new ApiError(409, 'two_factor_not_enabled', 'Two-factor authentication is not on for this account');
  const taken = await takeAttempt(ctx, req, userName);
  let outcome: 'ok' | 'wrong' | 'replayed';
  try {
    outcome = await spendCode(ctx, row.user_name, row.secret, typed);
  } catch (error) {
    for (const name of taken) await limiter.release(name);
    throw error;
  }
  if (outcome !== 'ok') {
    await ctx.record(req, {
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
    await ctx.record(req, {
      action: 'recovery_code_used',
      actor: check.actor ?? row.user_name,
      detail: { purpose: check.purpose, left: await unusedRecoveryCodes(ctx.k, row.user_name) },
    });
  }
  return typed.kind;
}

// Turning 2FA on and off: a key is made when the set-up page is first shown (kept while it is
// fresh, never in clear) and 2FA is on only once a code of that key is entered; turning it off
// or renewing the recovery codes takes a code or a recovery code.
import type { Request } from 'express';
import { readCode, type TwoFactorSetupView } from '../../shared/two-factor.ts';
import type { SessionUser } from '../../shared/user.ts';
import { ApiError } from '../http/errors.ts';
import { checkCode, malformedCode, replaceRecoveryCodes, unusedRecoveryCodes } from './codes.ts';
import type { TwoFactorContext } from './context.ts';
import { matchingStep, newSecret, otpauthUri, qrSvg } from './secrets.ts';

/** A key shown but not confirmed is replaced after this long (someone may have seen the page). */
const PENDING_KEY_TTL_MS = 60 * 60_000;

/** What the set-up page shows the user (making the key to add when there is none). */
export async function setupView(ctx: TwoFactorContext, user: SessionUser): Promise<TwoFactorSetupView> {
  const { k, box, now, deps } = ctx;
  const required = ctx.requiredFor(user);
  const existing = await ctx.rowOf(user.userName);
  if (existing?.enabled_at) {
    return { enabled: true, required, enabledAt: existing.enabled_at, recoveryCodesLeft: await unusedRecoveryCodes(k, existing.user_name) };
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
  const row = await ctx.rowOf(user.userName);
  if (row?.enabled_at) return setupView(ctx, user);
  const secret = row ? box.open(row.secret, row.user_name) : null;
  if (!row || secret === null) throw new Error(`The two-factor key of ${user.userName} could not be made`);
  const uri = otpauthUri(secret, deps.issuer, user.userName);
  return { enabled: false, required, key: { secret, qrSvg: await qrSvg(uri) } };
}

/** Turns 2FA on with a code of the key shown; answers the ten recovery codes, in clear, once. */
export async function enableTwoFactor(ctx: TwoFactorContext, req: Request, userName: string, code: string): Promise<string[]> {
  const { k, box, now } = ctx;
  const typed = readCode(code);
  if (!typed || typed.kind !== 'totp') throw malformedCode(422);
  const row = await ctx.rowOf(userName);
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
    return replaceRecoveryCodes(trx, ctx.recoveryKeys[0]!, row.user_name, at);
  });
  ctx.forget(userName);
  await ctx.record(req, { action: 'two_factor_enabled', actor: row.user_name });
  return codes;
}

/** Turns 2FA off (the caller has checked the password) with a code or a recovery code. */
export async function disableTwoFactor(
  ctx: TwoFactorContext,
  req: Request,
  user: Pick<SessionUser, 'userName' | 'role'>,
  code: string,
): Promise<void> {
  if (ctx.requiredFor(user)) {
    throw new ApiError(403, 'two_factor_required', 'Administrators must keep two-factor authentication on (ADMIN_REQUIRE_2FA)');
  }
  const kind = await checkCode(ctx, req, user.userName, code, { actor: user.userName, purpose: 'disable', status: 422 });
  await ctx.k.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_factor_recovery_codes').where('user_name', '=', user.userName).execute();
    await trx.deleteFrom('two_factor_challenges').where('user_name', '=', user.userName).execute();
    await trx.deleteFrom('two_factor').where('user_name', '=', user.userName).execute();
  });
  ctx.forget(user.userName);
  await ctx.record(req, { action: 'two_factor_disabled', actor: user.userName, detail: { with: kind } });
}

/** Ten new recovery codes (the old ones stop counting), for a code or a recovery code. */
export async function renewRecoveryCodes(ctx: TwoFactorContext, req: Request, userName: string, code: string): Promise<string[]> {
  await checkCode(ctx, req, userName, code, { actor: userName, purpose: 'recovery_codes', status: 422 });
  return ctx.k.transaction().execute((trx) => replaceRecoveryCodes(trx, ctx.recoveryKeys[0]!, userName, new Date(ctx.now()).toISOString()));
}

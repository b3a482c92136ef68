// Password guesses, limited (docs/decisions/009-login-limits.md) so that nobody can lock another
// person out, and no limit tells one identifier from another or a known name from an unknown
// one. Counters in the database (db/rate-limit.ts). An unknown user, a wrong password and a
// disabled account are one failure (the backend makes all three INVALID_CREDENTIALS).
import type { Request } from 'express';
import { canonicalIdentity } from '../../shared/identity.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import { INVALID_CREDENTIALS, WRONG_CURRENT_PASSWORD } from './backend.ts';
import type { DeviceCookies } from './device-cookie.ts';
import type { RateLimiter } from '../db/rate-limit.ts';

export type LoginGuard = <T>(req: Request, identifier: string, attempt: () => Promise<T>) => Promise<T>;
/** Guards a change of password: `userName` is the signed-in account whose password is guessed. */
export type CurrentPasswordGuard = <T>(req: Request, userName: string, attempt: () => Promise<T>) => Promise<T>;

/** Counts within the limiter's window (LOGIN_WINDOW_MINUTES), except the pace's own. */
export type PasswordLimits = {
  /** Failed sign-ins on one identifier from one address before that address is refused it. */
  perIdentifierIp: number;
  /** Wrong passwords from one address, sign-in and change password, any account, before it is refused. */
  perIp: number;
  /** Failed sign-ins on one identifier from all addresses before the identifier is paced. */
  slowdownAfter: number;
  /** Once paced: one attempt on the identifier per this many seconds, until the window ends. */
  slowdownSeconds: number;
  /** Wrong current passwords for one account (change password) before it is refused. */
  perAccountPasswordChange: number;
};

// All wrong passwords from one address share one counter, whichever form or account.
const ipKey = (req: Request) => `password:ip:${req.ip ?? 'unknown'}`;

/**
 * Counts one attempt on each key, or none: when a key is full, what was counted is taken back
 * and the answer is 429 with the longest wait of the keys that refuse.
 */
async function takeAll(limiter: RateLimiter, limits: [key: string, max: number][]): Promise<string[]> {
  const taken: string[] = [];
  for (const [key, max] of limits) {
    if ((await limiter.take(key, max)) > 0) {
      await releaseAll(limiter, taken);
      const waits = await Promise.all(limits.map(([k, m]) => limiter.retryAfter(k, m)));
      throw new TooManyAttemptsError(Math.max(...waits, 1));
    }
    taken.push(key);
  }
  return taken;
}

async function releaseAll(limiter: RateLimiter, keys: string[]): Promise<void> {
  for (const key of keys) await limiter.release(key);
}

/**
 * Runs the attempt with its keys counted up front (each by one atomic statement, before the slow
 * password check, so that parallel guesses cannot all pass the limits). A failure keeps them counted;
 * anything else (success, an upstream error, a refused new password) takes them back.
 */
async function counted<T>(
  limiter: RateLimiter,
  taken: string[],
  isFailure: (error: unknown) => boolean,
  attempt: () => Promise<T>,
  onSuccess: () => Promise<void>,
): Promise<T> {
  try {
    const result = await attempt();
    await releaseAll(limiter, taken);
    await onSuccess();
    return result;
  } catch (error) {
    if (!isFailure(error)) await releaseAll(limiter, taken);
    throw error;
  }
}

const isCode = (code: string) => (error: unknown) => error instanceof ApiError && error.code === code;

/**
 * Three counters, all keyed by what was typed (never by the account it names, which would make
 * the limits an oracle for "this e-mail is that user name"):
 * - identifier + address: the lockout. The guesser is refused; the owner elsewhere is not.
 * - address: over all identifiers, so one address cannot spread guesses over many names.
 * - identifier, from everywhere: past `slowdownAfter` failures the identifier is paced to one
 *   checked attempt per `slowdownSeconds`, which bounds a guesser with many addresses and only
 *   ever makes the owner wait that long. Unknown identifiers are paced the same way.
 * A browser with a device cookie for the identifier (device-cookie.ts) skips all three: its
 * failures count against its own cookie (`perIdentifierIp` per window), so that no attack
 * from elsewhere, however many addresses it has, keeps the owner's own browser out (docs/decisions/009).
 * Every success gives the browser a fresh device cookie for the identifier.
 */
export function createLoginGuard(limiter: RateLimiter, limits: PasswordLimits, devices?: DeviceCookies): LoginGuard {
  return async (req, identifier, attempt) => {
    const id = canonicalIdentity(identifier);
    const known = () => devices?.remember(req, req.res, id);
    const device = devices?.deviceFor(req, id);
    if (device) {
      const deviceKey = `login:device:${device}`;
      const taken = await takeAll(limiter, [[deviceKey, limits.perIdentifierIp]]);
      return counted(limiter, taken, isCode(INVALID_CREDENTIALS), attempt, async () => {
        await limiter.reset(deviceKey);
        known();
      });
    }
    const identifierIpKey = `login:identifier-ip:${JSON.stringify([id, req.ip ?? 'unknown'])}`;
    const identifierKey = `login:identifier:${id}`;
    const paceKey = `login:pace:${id}`;
    const taken = await takeAll(limiter, [
      [ipKey(req), limits.perIp],
      [identifierIpKey, limits.perIdentifierIp],
    ]);
    // Under the slow-down threshold the failure is counted; past it, the attempt needs the pace's
    // one slot (and is not counted: the window's end stays where the first failure put it). The
    // slot is spent by whatever attempt it lets through, a success included.
    if ((await limiter.take(identifierKey, limits.slowdownAfter)) === 0) taken.push(identifierKey);
    else {
      const wait = await limiter.take(paceKey, 1, limits.slowdownSeconds * 1000);
      if (wait > 0) {
        await releaseAll(limiter, taken);
        // The pace never outlasts the window that started it.
        throw new TooManyAttemptsError(Math.min(wait, (await limiter.retryAfter(identifierKey, limits.slowdownAfter)) || wait));
      }
    }
    // On success this address knows the password: its guesses on this identifier start over. The
    // identifier's own count stays: an attacker elsewhere must not get a fresh budget from it.
    return counted(limiter, taken, isCode(INVALID_CREDENTIALS), attempt, async () => {
      await limiter.reset(identifierIpKey);
      known();
    });
  };
}

/**
 * Wrong current passwords in change password (page and API) count per account, against the same
 * per-address counter as failed sign-ins. Only someone signed in as the account can fail here,
 * so a lockout of the account's password changes blocks no one else and tells nothing new.
 */
export function createCurrentPasswordGuard(limiter: RateLimiter, limits: PasswordLimits): CurrentPasswordGuard {
  return async (req, userName, attempt) => {
    const accountKey = `password-change:account:${canonicalIdentity(userName)}`;
    const taken = await takeAll(limiter, [
      [ipKey(req), limits.perIp],
      [accountKey, limits.perAccountPasswordChange],
    ]);
    return counted(limiter, taken, isCode(WRONG_CURRENT_PASSWORD), attempt, () => limiter.reset(accountKey));
  };
}

// Login attempts: limited per account and per IP (counters in the database), the same answer
// for an unknown user and a wrong password (the backend makes both INVALID_CREDENTIALS).
import type { Request } from 'express';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import { INVALID_CREDENTIALS } from './backend.ts';
import type { RateLimiter } from './rate-limit.ts';

export type LoginGuard = <T>(req: Request, identifier: string, attempt: () => Promise<T>) => Promise<T>;

/**
 * `accountOf` names the account behind an identifier (user name or e-mail), so that both count
 * against one limit; without it (an external API) or for an unknown identifier, the identifier
 * itself is the key (trimmed, case-insensitive).
 */
export function createLoginGuard(
  limiter: RateLimiter,
  limits: { perAccount: number; perIp: number },
  accountOf?: (identifier: string) => string | null,
): LoginGuard {
  return async (req, identifier, attempt) => {
    const trimmed = identifier.trim();
    const accountKey = `login:account:${(accountOf?.(trimmed) ?? trimmed).toLowerCase()}`;
    const ipKey = `login:ip:${req.ip ?? 'unknown'}`;
    const wait = Math.max(limiter.retryAfter(accountKey, limits.perAccount), limiter.retryAfter(ipKey, limits.perIp));
    if (wait > 0) throw new TooManyAttemptsError(wait);
    // Counted before the (slow) password check, synchronously, so that parallel guesses cannot
    // all pass the check above; taken back when the attempt was not a failed guess.
    limiter.hit(accountKey);
    limiter.hit(ipKey);
    try {
      const result = await attempt();
      limiter.reset(accountKey);
      limiter.release(ipKey);
      return result;
    } catch (error) {
      if (!(error instanceof ApiError && error.code === INVALID_CREDENTIALS)) {
        limiter.release(accountKey);
        limiter.release(ipKey);
      }
      throw error;
    }
  };
}

// Between a right password and the second factor: the sign-in waits, without a session. The
// browser gets a cookie (`auth.two_factor`, sealed like the session's, five minutes) naming a
// random challenge; the `two_factor_challenges` row keeps its digest, the user and the token of
// the sign-in. A right code takes the row (once, atomically) and only then is the session made.
import { createHash, randomBytes } from 'node:crypto';
import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import type { Db } from '../db/index.ts';
import type { Keys } from '../auth/keys.ts';
import { createSessionCodec } from '../auth/session-cookie.ts';

export const SECOND_FACTOR_COOKIE = 'auth.two_factor';
/** How long a right password waits for its code. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export type Challenge = { id: string; userName: string; token: string };

export type Challenges = {
  /** Makes the challenge of a sign-in and sets its cookie (no session cookie is set). */
  start(req: Request, res: Response, userName: string, token: string): Promise<void>;
  /** The live challenge the request's cookie names, or null (none, expired, taken). */
  current(req: Request): Promise<Challenge | null>;
  /** Takes the challenge: true for the one request that gets it. */
  take(challenge: Challenge): Promise<boolean>;
  clear(req: Request, res: Response): void;
  /** Sets res.locals.secondFactorPending: the request carries a challenge cookie that has not expired. */
  middleware: RequestHandler;
};

declare module 'express-serve-static-core' {
  interface Locals {
    /** A right password waits for its second factor (the code page asks for it). */
    secondFactorPending?: boolean;
  }
}

const digestOf = (id: string) => createHash('sha256').update(id).digest('base64url');

function cookieOptions(req: Request): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' };
}

/** `sealKey`: a key of its own, derived from SESSION_SECRET (a session cookie never opens as a challenge); several newest first with SESSION_SECRETS. */
export function createChallenges(deps: { db: Db; sealKey: Keys<string>; now?: () => number }): Challenges {
  const { k } = deps.db;
  const now = deps.now ?? Date.now;
  const codec = createSessionCodec(deps.sealKey);

  async function idOf(req: Request): Promise<string | null> {
    const value: unknown = (req.cookies as Record<string, unknown>)[SECOND_FACTOR_COOKIE];
    if (typeof value !== 'string' || value === '') return null;
    return (await codec.unseal(value))?.id ?? null;
  }

  return {
    async start(req, res, userName, token) {
      const id = randomBytes(32).toString('base64url');
      const at = now();
      // Expired challenges go now and then (a sign-in with 2FA is rare enough to carry it).
      await k.deleteFrom('two_factor_challenges').where('expires_at', '<=', at).execute();
      await k
        .insertInto('two_factor_challenges')
        .values({
          id: digestOf(id),
          user_name: userName,
          api_token: token,
          expires_at: at + CHALLENGE_TTL_MS,
          created_at: new Date(at).toISOString(),
        })
        .execute();
      const sealed = await codec.seal({ id, exp: Math.floor((at + CHALLENGE_TTL_MS) / 1000) });
      res.cookie(SECOND_FACTOR_COOKIE, sealed, { ...cookieOptions(req), maxAge: CHALLENGE_TTL_MS });
    },
    async current(req) {
      const id = await idOf(req);
      if (!id) return null;
      const row = await k
        .selectFrom('two_factor_challenges')
        .select(['user_name', 'api_token'])
        .where('id', '=', digestOf(id))
        .where('expires_at', '>', now())
        .executeTakeFirst();
      return row ? { id, userName: row.user_name, token: row.api_token } : null;
    },
    async take(challenge) {
      const taken = await k
        .deleteFrom('two_factor_challenges')
        .where('id', '=', digestOf(challenge.id))
        .where('expires_at', '>', now())
        .executeTakeFirst();
      return Number(taken.numDeletedRows) === 1;
    },
    clear(req, res) {
      res.clearCookie(SECOND_FACTOR_COOKIE, cookieOptions(req));
    },
    middleware: (req, res, next) => {
      idOf(req).then((id) => {
        res.locals.secondFactorPending = id !== null;
        next();
      }, next);
    },
  };
}

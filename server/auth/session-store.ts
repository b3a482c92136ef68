// Server-side sessions. Every sign-in — the login form or POST /api/login — is a row in the
// `sessions` table: whose it is, when it was made and last seen, when it expires, the browser
// and address it came from, and the API's Bearer token of the session (never sent to a
// browser). A browser's cookie carries only the row's random id, sealed; an API client's Bearer
// token finds its row by the token's digest. So ending a session is deleting its row: logout,
// an admin's disable, a password change elsewhere take effect at once, on every instance.
//
// What a request is allowed is decided on the row *and* the user as they are now (enabled,
// role, password not changed since the token): both are read together, kept by this process
// for at most SESSION_CACHE_MS, and forgotten at once when this process changes them.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { sql } from 'kysely';
import { canonicalIdentity, identityProblem } from '../../shared/identity.ts';
import { PAGE_SIZES } from '../../shared/paging.ts';
import { announceChange, type ChangeFeed } from '../db/changes.ts';
import type { Db } from '../db/index.ts';
import type { SessionRow } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import type { Logger } from '../base/logger.ts';
import * as users from '../users/users.ts';
import { clearSession, writeSessionCookie, type Session, type SessionCodec } from './session-cookie.ts';
import { createSessionCache, userOf, type Cached } from './session-cache.ts';
import { newSessionId, type TokenClaims, type TokenVerifier } from './tokens.ts';

export { SESSION_CACHE_MS } from './session-cache.ts';

export type Sessions = {
  /** Makes the session of a sign-in (its token as the API answered it) and sets the cookie. */
  start(req: Request, res: Response, token: string): Promise<Session>;
  /** A session row for an API client (POST /api/login answers the token itself). */
  startForBearer(req: Request, token: string): Promise<void>;
  /** The API answered the session a fresh token (profile, password): the row keeps the new one. */
  refresh(session: Session, token: string): Promise<void>;
  /** The same for an API client: the session of `oldToken` now holds `newToken`. */
  replaceToken(oldToken: string, newToken: string): Promise<void>;
  /** Logout: the row goes, the cookie is cleared. */
  end(req: Request, res: Response, session: Session | null | undefined): Promise<void>;
  /** The session a cookie's id names, as it is now (null: ended, expired, user gone or disabled). */
  current(id: string): Promise<Session | null>;
  /** The user behind an API client's Bearer token, as they are now (null: no live session). */
  userForToken(token: string, claims: TokenClaims): Promise<users.User | null>;
  /** Ends every session of a user (disabled, password set by an admin), or all but one (own password change): how many ended. */
  endAllOf(userName: string, except?: string): Promise<number>;
  /** Ends every session of a user but the one holding `token` (the user changed their own password). */
  endOthersOf(userName: string, token: string): Promise<void>;
  /** Forgets what this process keeps of the user's sessions (after changing the user). */
  forgetUser(userName: string): void;
  /**
   * The user's live sessions as their profile lists them: the most recently seen first, at most
   * PAGE_SIZES.sessions (`first`, this browser's, leads whatever its age), and how many are live.
   */
  listOf(userName: string, options?: { first?: string | undefined }): Promise<{ rows: SessionRow[]; total: number }>;
  /** Ends one session of the user, here and on every instance; false when it was not theirs or already gone. */
  endOne(userName: string, id: string): Promise<boolean>;
};

function digestOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export type SessionsDeps = {
  db: Db;
  codec: SessionCodec;
  /** Reads a token's claims (checked when the token was received). */
  verify: TokenVerifier;
  /** With the built-in API the user is the database's; an external API's user is its token's claims. */
  builtIn: boolean;
  ttlMinutes: number;
  logger: Logger;
  /** Tells the other instances what ended or changed, so that their caches forget it at once. */
  changes?: ChangeFeed;
  now?: () => number;
};

/** Writes the session row of a sign-in whose token the API answered. */
async function insertSession(
  deps: SessionsDeps,
  now: () => number,
  req: Request,
  token: string,
): Promise<{ id: string; claims: TokenClaims; expiresAt: number }> {
  const { builtIn, logger, verify } = deps;
  let claims: TokenClaims;
  try {
    claims = await verify(token);
  } catch (error) {
    throw new ApiError(502, 'bad_token', 'The API answered with a token this site cannot read', undefined, { cause: error });
  }
  // An external API's user names are its own: one that could pass for another (shared/identity.ts)
  // gets no session here, since the site compares names in their canonical form.
  const written = claims.rawUserName ?? claims.userName;
  const problem = builtIn ? null : identityProblem(written);
  if (problem) {
    logger.warn({ userName: written, problem }, 'sign-in refused: the API named a look-alike user');
    throw new ApiError(403, 'look_alike', `The user name ${JSON.stringify(written)} ${problem}: ask an administrator`);
  }
  // The built-in API's tokens name their session; an external API's get a new id (its own
  // `sid` claim, if any, means something else: Keycloak's tokens carry one per login session).
  const id = (builtIn && claims.sid) || newSessionId();
  const at = new Date(now()).toISOString();
  const expiresAt = claims.exp ?? Math.floor(now() / 1000) + deps.ttlMinutes * 60;
  await deps.db.k
    .insertInto('sessions')
    .values({
      id,
      user_name: claims.userName,
      created_at: at,
      last_seen_at: at,
      expires_at: expiresAt,
      user_agent: (req.get('user-agent') ?? '').slice(0, 300) || null,
      ip: req.ip ?? null,
      api_token: token,
      token_digest: digestOf(token),
    })
    .execute();
  // Expired rows go now and then (a sign-in is rare enough to carry it).
  await deps.db.k
    .deleteFrom('sessions')
    .where('expires_at', '<', Math.floor(now() / 1000))
    .execute();
  return { id, claims, expiresAt };
}

export function createSessions(deps: SessionsDeps): Sessions {
  const { db, codec, verify, builtIn, logger, changes } = deps;
  const now = deps.now ?? Date.now;
  const { k } = db;
  const { forget, dropUser, fresh, judge, touch } = createSessionCache({ db, verify, builtIn, logger, changes, now });
  function announce(topic: string) {
    changes?.publish(topic).catch((error: unknown) => logger.warn({ err: error, topic }, 'could not announce a change'));
  }
  const insert = (req: Request, token: string) => insertSession(deps, now, req, token);

  return {
    async start(req, res, token) {
      const { id, claims, expiresAt } = await insert(req, token);
      await writeSessionCookie(req, res, codec, { id, exp: expiresAt });
      const user = builtIn ? await users.findUser(db, claims.userName) : null;
      return { id, token, user: user ? users.sessionUserOf(user) : userOf(claims), exp: expiresAt };
    },
    async startForBearer(req, token) {
      await insert(req, token);
    },
    async refresh(session, token) {
      await k
        .updateTable('sessions')
        .set({ api_token: token, token_digest: digestOf(token) })
        .where('id', '=', session.id)
        .execute();
      forget(session.id);
    },
    async replaceToken(oldToken, newToken) {
      const { sid } = await verify(newToken);
      await k
        .updateTable('sessions')
        .set({ api_token: newToken, token_digest: digestOf(newToken) })
        .where((eb) => (sid ? eb('id', '=', sid) : eb('token_digest', '=', digestOf(oldToken))))
        .execute();
    },
    async end(req, res, session) {
      clearSession(req, res);
      if (!session) return;
      await k.deleteFrom('sessions').where('id', '=', session.id).execute();
      forget(session.id);
      announce(`session:${session.id}`);
    },
    async current(id) {
      const { session } = await fresh(id);
      if (session) await touch(id);
      return session;
    },
    async userForToken(token, claims) {
      // A built-in token names its session (every token of a session, old or fresh): judged as the
      // cookie's requests judge it, by the same reads (an API call of a page costs none of its own).
      // Another token is found by its digest.
      let judged: Cached;
      if (builtIn && claims.sid) {
        judged = await fresh(claims.sid);
        if (judged.session?.user.userName !== claims.userName) return null;
      } else {
        const row = await k.selectFrom('sessions').selectAll().where('token_digest', '=', digestOf(token)).executeTakeFirst();
        if (!row || row.user_name !== claims.userName) return null;
        judged = await judge(row);
      }
      // An older token of a live session still counts, unless the password changed since it was issued.
      if (!judged.session || !judged.user || users.tokenPredatesPassword(judged.user, claims.iat)) return null;
      await touch(judged.session.id);
      return judged.user;
    },
    async endAllOf(userName, except) {
      const ended = await endSessionsOf(db, userName, except);
      dropUser(userName);
      return ended;
    },
    async endOthersOf(userName, token) {
      const { sid } = await verify(token);
      await k
        .deleteFrom('sessions')
        .where('user_name', '=', userName)
        .where((eb) => (sid ? eb('id', '<>', sid) : eb('token_digest', '<>', digestOf(token))))
        .execute();
      this.forgetUser(userName);
    },
    forgetUser(userName) {
      dropUser(userName);
      announce(`user:${canonicalIdentity(userName)}`);
    },
    async listOf(userName, options = {}) {
      const live = k
        .selectFrom('sessions')
        .where('user_name', '=', userName)
        .where('expires_at', '>', Math.floor(now() / 1000));
      let shown = live.selectAll();
      if (options.first) shown = shown.orderBy(sql`case when id = ${options.first} then 0 else 1 end`);
      const [rows, count] = await Promise.all([
        shown.orderBy('last_seen_at', 'desc').orderBy('created_at', 'desc').limit(PAGE_SIZES.sessions.max).execute(),
        live.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    async endOne(userName, id) {
      const result = await k.deleteFrom('sessions').where('id', '=', id).where('user_name', '=', userName).executeTakeFirst();
      forget(id);
      // Awaited: when the answer says "ended", the other instances have been told.
      await changes
        ?.publish(`session:${id}`)
        .catch((error: unknown) => logger.warn({ err: error, topic: 'session' }, 'could not announce a change'));
      return Number(result.numDeletedRows) > 0;
    },
  };
}

/**
 * Ends a user's sessions (all, or all but `except`) in the database: what the ops CLI does too.
 * Other processes see it within SESSION_CACHE_MS. Answers how many rows went.
 */
export async function endSessionsOf(db: Db, userName: string, except?: string): Promise<number> {
  let query = db.k.deleteFrom('sessions').where('user_name', '=', userName);
  if (except) query = query.where('id', '<>', except);
  const { numDeletedRows } = await query.executeTakeFirst();
  await announceChange(db, `user:${canonicalIdentity(userName)}`);
  return Number(numDeletedRows);
}

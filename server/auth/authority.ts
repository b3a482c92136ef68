// The one decision behind every private answer of the built-in API's users — pages, page data,
// PDFs, the API and the forms all ask it: a token counts only while its user exists and is
// enabled, the password has not changed since the token was issued, and no logout ended it.
// What the token says about the user (role, name, avatar) is history: the answer carries the
// user's row as it is now.
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import * as users from '../api/users.ts';
import type { Db } from '../db/index.ts';
import type { Session } from './session.ts';

/** What the authority needs of a token that was verified when it was issued or received. */
export type TokenFacts = { userName: string; iat?: number | undefined };

export type Authority = {
  /** The user behind a token as they are now, or null when the token no longer counts. */
  userFor(token: string, facts: TokenFacts): users.User | null;
  /** The session with its user as they are now, or null when it no longer counts. */
  currentSession(session: Session): Session | null;
  /** Ends a token before it expires (logout); `exp` in seconds since epoch. */
  revoke(token: string, exp: number): void;
};

function digestOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function createAuthority(db: Db): Authority {
  const isRevoked = db.prepare<[string], { one: 1 }>('SELECT 1 AS one FROM revoked_tokens WHERE digest = ?');
  const insertRevoked = db.prepare<[string, number]>('INSERT OR IGNORE INTO revoked_tokens (digest, expires_at) VALUES (?, ?)');
  const purgeExpired = db.prepare<[number]>('DELETE FROM revoked_tokens WHERE expires_at < ?');
  // A session's token is decoded once per opened session (the codec hands out the same frozen
  // object for the same cookie): it was verified when the session was made and sealed since.
  const issuedAt = new WeakMap<Session, number | undefined>();

  function userFor(token: string, facts: TokenFacts): users.User | null {
    const user = users.findUser(db, facts.userName);
    if (!user || user.disabled || users.tokenPredatesPassword(user, facts.iat)) return null;
    if (isRevoked.get(digestOf(token))) return null;
    return user;
  }

  return {
    userFor,
    currentSession(session) {
      if (!issuedAt.has(session)) {
        let iat: number | undefined;
        try {
          iat = decodeJwt(session.token).iat;
        } catch {
          iat = undefined;
        }
        issuedAt.set(session, iat);
      }
      const user = userFor(session.token, { userName: session.user.userName, iat: issuedAt.get(session) });
      return user ? { ...session, user: users.sessionUserOf(user) } : null;
    },
    revoke(token, exp) {
      purgeExpired.run(Math.floor(Date.now() / 1000));
      insertRevoked.run(digestOf(token), exp);
    },
  };
}

// The API's tokens: HS256 JWTs (jose) carrying the user's claims (name, lastName, userName, role, avatar, scope).
import { jwtVerify, SignJWT, decodeJwt, createRemoteJWKSet, errors, type JWTPayload } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { canonicalIdentity } from '../../shared/identity.ts';
import type { SessionUser } from '../../shared/user.ts';
import { BoundedMap } from '../../shared/bounded-map.ts';
import { keyList, type Keys } from './keys.ts';

export const TOKEN_ISSUER = 'the-product';

const claimsSchema = z.object({
  name: z.string().default(''),
  lastName: z.string().default(''),
  userName: z.string().min(1),
  role: z.string().min(1),
  avatar: z.string().nullable().default(null),
  scope: z.array(z.string()).default([]),
  exp: z.number().int().optional(),
  iat: z.number().int().optional(),
  sid: z.string().optional(),
});

/**
 * `sid`: the server-side session a built-in API token belongs to (auth/session-store.ts). `userName`
 * is in its canonical form (shared/identity.ts), `rawUserName` as the token wrote it when that differs.
 */
export type TokenClaims = SessionUser & { exp?: number; iat?: number; sid?: string; rawUserName?: string };

export function keyFromSecret(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** A token of the built-in API for the session `sessionId` (every token of one session carries its id). */
export async function signToken(user: SessionUser, key: Uint8Array, ttlMinutes: number, sessionId: string): Promise<string> {
  return (
    new SignJWT({
      name: user.name,
      lastName: user.lastName,
      userName: user.userName,
      role: user.role,
      avatar: user.avatar,
      scope: user.scope,
      sid: sessionId,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.userName)
      .setIssuer(TOKEN_ISSUER)
      .setIssuedAt()
      // Unique per token: two sign-ins in the same second are two sessions, each with its own token.
      .setJti(randomUUID())
      .setExpirationTime(`${ttlMinutes}m`)
      .sign(key)
  );
}

function toClaims(payload: JWTPayload): TokenClaims {
  const { exp, iat, sid, userName, ...claims } = claimsSchema.parse(payload);
  const canonical = canonicalIdentity(userName);
  return {
    ...claims,
    userName: canonical,
    ...(canonical === userName ? {} : { rawUserName: userName }),
    ...(exp === undefined ? {} : { exp }),
    ...(iat === undefined ? {} : { iat }),
    ...(sid === undefined ? {} : { sid }),
  };
}

/** A new session's id: 32 random bytes, base64url (43 characters). */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export type TokenVerifier = (token: string) => Promise<TokenClaims>;

/** How many verified tokens a verifier remembers (see hmacVerifier). */
const VERIFIED_KEPT = 10_000;

/**
 * Built-in API tokens, or an external API's tokens verified with a shared secret. A token is
 * signed text under a key that does not change while the process runs: the same text always
 * verifies to the same claims, so tokens already verified are remembered by their text (least
 * recently used out) and only their expiry is checked again. Whether the token's session and
 * user still count is decided elsewhere, on every request (auth/session-store.ts).
 */
export function hmacVerifier(key: Keys<Uint8Array>, issuer?: string, now: () => number = Date.now): TokenVerifier {
  const keys = keyList(key);
  const verified = new BoundedMap<string, TokenClaims>(VERIFIED_KEPT);
  // With several keys (SESSION_SECRETS, docs/decisions/051) a signature another key made is tried with the next.
  const verifyWithAny = async (token: string) => {
    for (const [i, candidate] of keys.entries()) {
      try {
        return await jwtVerify(token, candidate, { algorithms: ['HS256'], ...(issuer ? { issuer } : {}) });
      } catch (error) {
        if (!(error instanceof errors.JWSSignatureVerificationFailed) || i === keys.length - 1) throw error;
      }
    }
    throw new Error('no key to verify the token with');
  };
  return async (token) => {
    const known = verified.get(token);
    if (known) {
      if (known.exp !== undefined && known.exp * 1000 <= now()) throw new Error('token expired');
      verified.touch(token);
      return known;
    }
    const claims = toClaims((await verifyWithAny(token)).payload);
    // Shared by every request that presents the token: nobody may change them.
    Object.freeze(claims.scope);
    Object.freeze(claims);
    verified.set(token, claims);
    return claims;
  };
}

/** An external API's tokens verified against its JWKS. */
export function jwksVerifier(url: string): TokenVerifier {
  const jwks = createRemoteJWKSet(new URL(url), { timeoutDuration: 3000 });
  return async (token) => toClaims((await jwtVerify(token, jwks)).payload);
}

/**
 * An external API's tokens without a key to check them: the token came straight from the API
 * over a server-to-server call, so its claims are taken as the API's answer; the expiry is
 * still enforced.
 */
export function unverifiedDecoder(): TokenVerifier {
  return async (token) => {
    const claims = toClaims(decodeJwt(token));
    if (claims.exp !== undefined && claims.exp * 1000 < Date.now()) throw new Error('token expired');
    return claims;
  };
}

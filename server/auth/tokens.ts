// The API's tokens: HS256 JWTs (jose) carrying the user claims of seed-spec §3.
import { jwtVerify, SignJWT, decodeJwt, createRemoteJWKSet, type JWTPayload } from 'jose';
import { z } from 'zod';
import type { SessionUser } from '../../shared/user.ts';

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
});

export type TokenClaims = SessionUser & { exp?: number; iat?: number };

export function keyFromSecret(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function signToken(user: SessionUser, key: Uint8Array, ttlMinutes: number): Promise<string> {
  return new SignJWT({
    name: user.name,
    lastName: user.lastName,
    userName: user.userName,
    role: user.role,
    avatar: user.avatar,
    scope: user.scope,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.userName)
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${ttlMinutes}m`)
    .sign(key);
}

function toClaims(payload: JWTPayload): TokenClaims {
  const { exp, iat, ...claims } = claimsSchema.parse(payload);
  return { ...claims, ...(exp === undefined ? {} : { exp }), ...(iat === undefined ? {} : { iat }) };
}

export type TokenVerifier = (token: string) => Promise<TokenClaims>;

/** Built-in API tokens, or an external API's tokens verified with a shared secret. */
export function hmacVerifier(key: Uint8Array, issuer?: string): TokenVerifier {
  return async (token) => toClaims((await jwtVerify(token, key, { algorithms: ['HS256'], ...(issuer ? { issuer } : {}) })).payload);
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

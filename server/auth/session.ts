// The session (DESIGN.md §3): cookie `auth._token.local`, sealed with SESSION_SECRET by
// authenticated encryption (JWE, dir + A256GCM), carrying the API's Bearer token and the user
// claims; it expires with the token. The browser can neither read nor forge it.
import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import { EncryptJWT, jwtDecrypt } from 'jose';
import { hkdfSync } from 'node:crypto';
import { z } from 'zod';
import {
  AUTH_REDIRECT_COOKIE,
  AUTH_REFRESH_TOKEN_COOKIE,
  AUTH_STRATEGY,
  AUTH_STRATEGY_COOKIE,
  AUTH_TOKEN_COOKIE,
} from '../../shared/constants.ts';
import type { SessionUser } from '../../shared/user.ts';

export type Session = { token: string; user: SessionUser; /** seconds since epoch */ exp: number };

const sessionSchema = z.object({
  token: z.string().min(1),
  user: z.object({
    name: z.string(),
    lastName: z.string(),
    userName: z.string().min(1),
    role: z.string().min(1),
    avatar: z.string().nullable(),
    scope: z.array(z.string()),
  }),
});

/** How long the remembered path of a visitor sent to login lives. */
const REDIRECT_COOKIE_MAX_AGE_MS = 10 * 60 * 1000;

export type SessionCodec = {
  seal(session: Session): Promise<string>;
  unseal(value: string): Promise<Session | null>;
};

/** How many opened cookies are remembered (see unseal). */
const OPENED_CACHE_SIZE = 10_000;

function frozen(session: Session): Session {
  Object.freeze(session.user.scope);
  Object.freeze(session.user);
  return Object.freeze(session);
}

export function createSessionCodec(secret: string): SessionCodec {
  const key = new Uint8Array(hkdfSync('sha256', secret, 'the-product', 'session cookie v1', 32));
  // Decrypting a cookie costs more than the rest of a page served from the render cache. A
  // cookie is authenticated ciphertext: the same text always opens to the same session, so
  // sessions already opened are kept by their cookie text (frozen, least recently used out)
  // and only their expiry is checked again.
  const opened = new Map<string, Session>();
  const remember = (value: string, session: Session) => {
    if (opened.size >= OPENED_CACHE_SIZE) opened.delete(opened.keys().next().value!);
    opened.set(value, session);
  };
  const open = async (value: string): Promise<Session | null> => {
    try {
      const { payload } = await jwtDecrypt(value, key, { contentEncryptionAlgorithms: ['A256GCM'], keyManagementAlgorithms: ['dir'] });
      const parsed = sessionSchema.safeParse(payload);
      if (!parsed.success || typeof payload.exp !== 'number') return null;
      return frozen({ ...parsed.data, exp: payload.exp });
    } catch {
      return null; // tampered, expired or sealed with another secret: signed out
    }
  };
  return {
    async seal(session) {
      return new EncryptJWT({ token: session.token, user: session.user })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setIssuedAt()
        .setExpirationTime(session.exp)
        .encrypt(key);
    },
    async unseal(value) {
      const known = opened.get(value);
      if (known) {
        opened.delete(value);
        if (known.exp * 1000 <= Date.now()) return null;
        opened.set(value, known);
        return known;
      }
      const session = await open(value);
      if (session) remember(value, session);
      return session;
    },
  };
}

function baseCookie(req: Request): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' };
}

export async function writeSession(req: Request, res: Response, codec: SessionCodec, session: Session): Promise<void> {
  const maxAge = Math.max(0, session.exp * 1000 - Date.now());
  res.cookie(AUTH_TOKEN_COOKIE, await codec.seal(session), { ...baseCookie(req), maxAge });
  res.cookie(AUTH_STRATEGY_COOKIE, AUTH_STRATEGY, { ...baseCookie(req), maxAge });
  res.clearCookie(AUTH_REFRESH_TOKEN_COOKIE, baseCookie(req));
}

export function clearSession(req: Request, res: Response): void {
  for (const name of [AUTH_TOKEN_COOKIE, AUTH_STRATEGY_COOKIE, AUTH_REFRESH_TOKEN_COOKIE]) res.clearCookie(name, baseCookie(req));
}

export function rememberPath(req: Request, res: Response, path: string): void {
  res.cookie(AUTH_REDIRECT_COOKIE, path, { ...baseCookie(req), maxAge: REDIRECT_COOKIE_MAX_AGE_MS });
}

export function takeRememberedPath(req: Request, res: Response): unknown {
  const value: unknown = (req.cookies as Record<string, unknown>)[AUTH_REDIRECT_COOKIE];
  if (value !== undefined) res.clearCookie(AUTH_REDIRECT_COOKIE, baseCookie(req));
  return value;
}

declare module 'express-serve-static-core' {
  interface Locals {
    session?: Session | null;
  }
}

/**
 * Reads the session cookie into res.locals.session; a bad or expired one is cleared. With
 * `current` (the built-in API's authority), the session is also checked against the user as
 * they are now and carries their current role and name; one that no longer counts (user
 * disabled or gone, password changed, logged out) is cleared like an expired one.
 */
export function sessionMiddleware(codec: SessionCodec, current?: (session: Session) => Session | null): RequestHandler {
  return async (req, res, next) => {
    const value: unknown = (req.cookies as Record<string, unknown>)[AUTH_TOKEN_COOKIE];
    if (typeof value !== 'string' || value === '') {
      res.locals.session = null;
      return next();
    }
    const opened = await codec.unseal(value);
    const session = opened && current ? current(opened) : opened;
    if (!session) clearSession(req, res);
    res.locals.session = session;
    next();
  };
}

// The session cookie: `auth._token.local`, sealed with SESSION_SECRET by
// authenticated encryption (JWE, dir + A256GCM); with SESSION_SECRETS, sealed with the newest and
// opened with any (docs/decisions/051). It carries only the id of the session's row
// (auth/session-store.ts) and its expiry: the browser can neither read nor forge it, and everything
// else about the session — whose it is, its token — stays on the server.
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
import { BoundedMap } from '../../shared/bounded-map.ts';
import { keyList, type Keys } from './keys.ts';

/** A signed-in request's session: its row's id, the API token it holds, the user as they are now. */
export type Session = { id: string; token: string; user: SessionUser; /** seconds since epoch */ exp: number };

/** What the cookie holds. */
export type SessionCookie = { id: string; exp: number };

const cookieSchema = z.object({ sid: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

/** How long the remembered path of a visitor sent to login lives. */
const REDIRECT_COOKIE_MAX_AGE_MS = 10 * 60 * 1000;

export type SessionCodec = {
  seal(cookie: SessionCookie): Promise<string>;
  unseal(value: string): Promise<SessionCookie | null>;
};

/** How many opened cookies are remembered (see unseal). */
const OPENED_CACHE_SIZE = 10_000;

/** `secrets`: one, or several newest first (the first seals, each opens). */
export function createSessionCodec(secrets: Keys<string>): SessionCodec {
  const keys = keyList(secrets).map((secret) => new Uint8Array(hkdfSync('sha256', secret, 'the-product', 'session cookie v2', 32)));
  const key = keys[0]!;
  // Decrypting a cookie costs more than the rest of a page served from the render cache. A
  // cookie is authenticated ciphertext: the same text always opens to the same id, so cookies
  // already opened are kept by their text (least recently used out); only expiry is checked again.
  const opened = new BoundedMap<string, SessionCookie>(OPENED_CACHE_SIZE);
  const remember = (value: string, cookie: SessionCookie) => opened.set(value, cookie);
  const openWith = async (value: string, sealingKey: Uint8Array): Promise<SessionCookie | null> => {
    try {
      const { payload } = await jwtDecrypt(value, sealingKey, {
        contentEncryptionAlgorithms: ['A256GCM'],
        keyManagementAlgorithms: ['dir'],
      });
      const parsed = cookieSchema.safeParse(payload);
      if (!parsed.success || typeof payload.exp !== 'number') return null;
      return Object.freeze({ id: parsed.data.sid, exp: payload.exp });
    } catch {
      return null; // tampered, expired or sealed with another secret: signed out
    }
  };
  const open = async (value: string): Promise<SessionCookie | null> => {
    for (const candidate of keys) {
      const cookie = await openWith(value, candidate);
      if (cookie) return cookie;
    }
    return null;
  };
  return {
    async seal(cookie) {
      return new EncryptJWT({ sid: cookie.id })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setIssuedAt()
        .setExpirationTime(cookie.exp)
        .encrypt(key);
    },
    async unseal(value) {
      const known = opened.touch(value);
      if (known) {
        if (known.exp * 1000 <= Date.now()) {
          opened.delete(value);
          return null;
        }
        return known;
      }
      const cookie = await open(value);
      if (cookie) remember(value, cookie);
      return cookie;
    },
  };
}

function baseCookie(req: Request): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' };
}

export async function writeSessionCookie(req: Request, res: Response, codec: SessionCodec, cookie: SessionCookie): Promise<void> {
  const maxAge = Math.max(0, cookie.exp * 1000 - Date.now());
  res.cookie(AUTH_TOKEN_COOKIE, await codec.seal(cookie), { ...baseCookie(req), maxAge });
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
 * Reads the session cookie into res.locals.session: the row it names, as it is now (`current`,
 * auth/session-store.ts). A bad, expired or ended one is cleared.
 */
export function sessionMiddleware(codec: SessionCodec, current: (id: string) => Promise<Session | null>): RequestHandler {
  return async (req, res, next) => {
    const value: unknown = (req.cookies as Record<string, unknown>)[AUTH_TOKEN_COOKIE];
    if (typeof value !== 'string' || value === '') {
      res.locals.session = null;
      return next();
    }
    try {
      const cookie = await codec.unseal(value);
      const session = cookie ? await current(cookie.id) : null;
      if (!session) clearSession(req, res);
      res.locals.session = session;
      next();
    } catch (error) {
      next(error);
    }
  };
}

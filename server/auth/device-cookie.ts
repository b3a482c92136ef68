// Device cookies (OWASP's "Slow Down Online Guessing Attacks with Device Cookies"; the amendment
// of docs/decisions/009-login-limits.md): a browser that signed in as an identifier keeps a
// cookie that proves it, and its sign-ins on that identifier are counted against the cookie
// alone. Whatever an attacker does elsewhere (the identifier's pace, an address's lockout) never
// reaches the owner's own browser; a stolen cookie gives its thief one lockout's worth of guesses.
import type { Request, Response } from 'express';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { keyList, type Keys } from './keys.ts';

export const DEVICE_COOKIE = 'auth.device';
/** How long a browser stays known without signing in again (each sign-in renews it). */
export const DEVICE_COOKIE_MAX_AGE_MS = 180 * 24 * 60 * 60 * 1000;
/** Identifiers one browser is known for (the most recent first). */
const MAX_ENTRIES = 5;
const ENTRY = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;

export type DeviceCookies = {
  /** The id of this browser for the (canonical) identifier, when its cookie holds a genuine entry for it; else null. */
  deviceFor(req: Request, identifier: string): string | null;
  /** A sign-in as the identifier succeeded: the cookie gets a fresh entry for it, first. */
  remember(req: Request, res: Response | undefined, identifier: string): void;
};

/**
 * `key`: a secret of its own (base64url, derived from SESSION_SECRET), or several newest first
 * (SESSION_SECRETS): new entries are tagged with the first, an entry tagged with any counts.
 */
export function createDeviceCookies(key: Keys<string>): DeviceCookies {
  const secrets = keyList(key).map((k) => Buffer.from(k, 'base64url'));
  // 128 bits of an HMAC tie the random id to the identifier: nobody can make an entry without the key.
  const tagOf = (identifier: string, id: string, secret = secrets[0]!) =>
    createHmac('sha256', secret).update(`${identifier}\n${id}`).digest().subarray(0, 16).toString('base64url');
  const entriesOf = (req: Request): string[] => {
    const value: unknown = (req.cookies as Record<string, unknown> | undefined)?.[DEVICE_COOKIE];
    if (typeof value !== 'string') return [];
    return value
      .split('~')
      .filter((entry) => ENTRY.test(entry))
      .slice(0, MAX_ENTRIES);
  };
  const matches = (entry: string, identifier: string): string | null => {
    const [, id, tag] = ENTRY.exec(entry) ?? [];
    if (!id || !tag) return null;
    const given = Buffer.from(tag);
    const tagged = secrets.some((secret) => {
      const expected = Buffer.from(tagOf(identifier, id, secret));
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    return tagged ? id : null;
  };
  return {
    deviceFor(req, identifier) {
      for (const entry of entriesOf(req)) {
        const id = matches(entry, identifier);
        if (id) return id;
      }
      return null;
    },
    remember(req, res, identifier) {
      if (!res || res.headersSent) return;
      const id = randomBytes(16).toString('base64url');
      const others = entriesOf(req).filter((entry) => matches(entry, identifier) === null);
      const value = [`${id}.${tagOf(identifier, id)}`, ...others].slice(0, MAX_ENTRIES).join('~');
      // Set as the headers go out, after the session's own cookies (a client that keeps only the
      // first Set-Cookie still gets the session).
      beforeHeaders(res, () =>
        res.cookie(DEVICE_COOKIE, value, {
          httpOnly: true,
          sameSite: 'lax',
          secure: req.secure,
          path: '/',
          maxAge: DEVICE_COOKIE_MAX_AGE_MS,
        }),
      );
    },
  };
}

/** Runs `fn` once, just before the response's headers are written (Node writes them through writeHead, implicitly too). */
function beforeHeaders(res: Response, fn: () => void): void {
  const writeHead = res.writeHead;
  let ran = false;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    if (!ran) {
      ran = true;
      fn();
    }
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as Response['writeHead'];
}

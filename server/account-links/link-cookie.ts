// A link from an e-mail (`/resetPassword?token=…`) is taken off the address bar at once: its
// token moves into a short-lived httpOnly cookie and the browser is sent to the same page
// without it. So the token never stays in the history, is never seen by an analytics tag
// (which reads the page's URL), and never leaves in a Referer; and the page keeps working when
// its language is switched. The page and its form read the token from the cookie.
import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import { TOKEN_PATTERN } from './links.ts';

export const LINK_COOKIE = 'account.link';
/** Long enough to choose a password; the link's own expiry is the database's. */
const LINK_COOKIE_MAX_AGE_MS = 2 * 60 * 60 * 1000;

declare module 'express-serve-static-core' {
  interface Locals {
    /** The token of the single-use link the visitor opened, from its cookie. */
    linkToken?: string | null;
  }
}

function cookieOptions(req: Request): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' };
}

/** Reads the link cookie into res.locals.linkToken (every request: pages, page data, forms). */
export function readLinkCookie(): RequestHandler {
  return (req, res, next) => {
    const value: unknown = (req.cookies as Record<string, unknown> | undefined)?.[LINK_COOKIE];
    res.locals.linkToken = typeof value === 'string' && TOKEN_PATTERN.test(value) ? value : null;
    next();
  };
}

/** GET of a link's page with `?token=`: the token goes into the cookie, the browser to the bare page. */
export function takeTokenFromUrl(): RequestHandler {
  return (req, res, next) => {
    const token = req.query.token;
    if (token === undefined) return next();
    if (typeof token === 'string' && TOKEN_PATTERN.test(token))
      res.cookie(LINK_COOKIE, token, { ...cookieOptions(req), maxAge: LINK_COOKIE_MAX_AGE_MS });
    // A malformed token is no link at all: the page says so.
    else res.clearCookie(LINK_COOKIE, cookieOptions(req));
    res.set('Cache-Control', 'private, no-store').set('Referrer-Policy', 'no-referrer');
    res.redirect(303, req.path);
  };
}

/** The link was used: its cookie goes. */
export function forgetLink(req: Request, res: Response): void {
  res.clearCookie(LINK_COOKIE, cookieOptions(req));
}

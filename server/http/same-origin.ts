// CSRF defence for state-changing requests (docs/decisions/004-csrf.md, 048): the session cookie is
// SameSite=Lax, and every unsafe request must come from one of our own pages, proven by its
// Origin header (or, failing that, its Referer). On /api only the session cookie asks for that
// proof: it is the one cookie the API takes as a credential (auth/bearer-bridge.ts).
import type { Request, RequestHandler } from 'express';
import { AUTH_TOKEN_COOKIE } from '../../shared/constants.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const API_PATH = /^\/api(?:\/|$)/;

function originOf(value: string | undefined): string | null {
  if (!value || value === 'null') return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** Whether the request carries the session cookie, whatever its value (a bad one is still someone's ambient credential). */
function carriesSession(req: Request): boolean {
  const cookies = req.cookies as Record<string, unknown> | undefined;
  return cookies?.[AUTH_TOKEN_COOKIE] !== undefined;
}

export function requireSameOrigin(publicUrl: string): RequestHandler {
  const configured = new URL(publicUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const api = API_PATH.test(req.path);
    // An API request without the session cookie carries no ambient credential (its Bearer token,
    // or none yet at /api/login; a theme or consent cookie authorises nothing): nothing a hostile
    // page could borrow.
    if (api && !carriesSession(req)) return next();
    const origin = originOf(req.get('origin')) ?? originOf(req.get('referer'));
    const own = `${req.protocol}://${req.get('host') ?? ''}`;
    if (origin && (origin === configured || origin === own)) return next();
    res.status(403).set('Cache-Control', 'private, no-store');
    const message = origin ? `Cross-site request from ${origin} refused` : 'Request refused: no Origin or Referer header';
    // The API's every error is its JSON Error (docs/openapi.json), whatever the client accepts.
    if (api || req.accepts(['html', 'json']) === 'json') res.json({ error: { code: 'cross_site_request', message } });
    else res.type('text/plain').send(message);
  };
}

// CSRF defence for state-changing requests (docs/decisions/004-csrf.md): the session cookie is
// SameSite=Lax, and every unsafe request must come from one of our own pages, proven by its
// Origin header (or, failing that, its Referer).
import type { RequestHandler } from 'express';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(value: string | undefined): string | null {
  if (!value || value === 'null') return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

export function requireSameOrigin(publicUrl: string): RequestHandler {
  const configured = new URL(publicUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    // API clients without cookies carry no ambient credentials (their Bearer token, or none
    // yet at /api/login): nothing a hostile page could borrow.
    if (req.path.startsWith('/api/') && !req.get('cookie')) return next();
    const origin = originOf(req.get('origin')) ?? originOf(req.get('referer'));
    const own = `${req.protocol}://${req.get('host') ?? ''}`;
    if (origin && (origin === configured || origin === own)) return next();
    res.status(403).set('Cache-Control', 'private, no-store');
    const message = origin ? `Cross-site request from ${origin} refused` : 'Request refused: no Origin or Referer header';
    if (req.accepts(['html', 'json']) === 'json') res.json({ error: { code: 'cross_site_request', message } });
    else res.type('text/plain').send(message);
  };
}

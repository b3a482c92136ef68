// ADMIN_REQUIRE_2FA: an administrator signed in without 2FA may use the set-up page and nothing
// else until it is on. Every other page (and page data) leads there, in the locale form asked
// for; the API answers 403 two_factor_setup_required; logging out and the cookie banner still work.
import type { RequestHandler } from 'express';
import type { DataResponse, FormResponse } from '../../shared/page-data.ts';
import { formOfPath, localeForms, routePath, ROUTES } from '../../shared/routes.ts';
import { wantsJson } from '../http/form-answers.ts';
import { setupRequiredError, type TwoFactor } from './service.ts';

const SETUP = 'twoFactorSetup';

export function adminSetupGate(service: Pick<TwoFactor, 'setupRequired'>): RequestHandler {
  const setupPaths = new Set(ROUTES.filter((route) => route.base === SETUP).map((route) => route.fullPath));
  const allowed = new Set([...setupPaths, ...localeForms('/logout'), ...localeForms('/consent')]);
  const setupPathFor = (path: string) => routePath(SETUP, formOfPath(path));

  return (req, res, next) => {
    const session = res.locals.session;
    if (!session) return next();
    service.setupRequired(session.user).then((required) => {
      if (!required) return next();
      res.set('Cache-Control', 'private, no-store');
      if (req.path === '/api' || req.path.startsWith('/api/')) {
        const error = setupRequiredError();
        res.status(403).json({ error: { code: error.code, message: error.message } });
        return;
      }
      if (req.path === '/_data') {
        const wanted = typeof req.query.path === 'string' ? req.query.path : '/';
        const pathname = wanted.split(/[?#]/)[0] ?? '/';
        if (setupPaths.has(pathname)) return next();
        const answer: DataResponse = { kind: 'redirect', to: setupPathFor(pathname), status: 302 };
        res.json(answer);
        return;
      }
      if (allowed.has(req.path)) return next();
      const to = setupPathFor(req.path);
      if (req.method === 'GET' || req.method === 'HEAD') return res.redirect(302, to);
      if (wantsJson(req)) {
        const answer: FormResponse = { ok: true, redirect: to };
        res.json(answer);
        return;
      }
      res.redirect(303, to);
    }, next);
  };
}

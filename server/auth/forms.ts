// Signing in and out with the site's forms. Sign-in is the login page's action
// (server/pages/login.ts): without JavaScript, POST then 303 (or the page again with the error);
// with it (Accept: application/json), a JSON FormResponse and no reload. Logout is a POST to
// /logout in any locale form (CSRF-safe), never a link.
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { safeRedirectPath } from '../../shared/safe-path.ts';
import type { Locale } from '../../shared/locales.ts';
import { formOfPath, routePath, type Route, type RouteForm } from '../../shared/routes.ts';
import { confinedArea, type SessionUser } from '../../shared/user.ts';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '../../shared/validation.ts';
import type { Audit } from '../audit/types.ts';
import { ApiError } from '../http/errors.ts';
import { redirectAfterPost, stringValues, type FailWith, type FormFailure } from '../http/form-answers.ts';
import { fieldErrors } from '../http/form-fields.ts';
import type { Logger } from '../base/logger.ts';
import { INVALID_CREDENTIALS, type Backend } from './backend.ts';
import type { LoginGuard } from './login.ts';
import { takeRememberedPath } from './session-cookie.ts';
import type { Sessions } from './session-store.ts';

/**
 * Where a sign-in lands, in the same locale form: home (docs/specification.md §7.1, §5.4), or
 * straight to the area home's role guard would send the user on to (CLI, ORG, CONS). ADMIN is
 * confined to no area and stays home, the console a link away in the navbar.
 */
export function roleHome(role: string, form: RouteForm): string {
  return routePath(confinedArea(role) ?? 'index', form);
}

const loginForm = z.object({
  // A user name or an e-mail address: the longer's limit.
  identifier: z.string().trim().min(1, 'validation.required').max(EMAIL_MAX_LENGTH, 'validation.tooLong'),
  password: z.string().min(1, 'validation.required').max(PASSWORD_MAX_LENGTH, 'validation.tooLong'),
});

/**
 * What the login form needs of a page action's arguments (ActionArgs, server/render/page-module.ts):
 * named here so that sign-in does not depend on the page machinery that depends on it.
 */
export type SignInArgs = {
  req: Request;
  res: Response;
  route: Route;
  fail: FormFailure;
  failWith: FailWith;
  services: {
    audit: Audit;
    backend: Backend;
    sessions: Sessions;
    logger: Logger;
    loginGuard: LoginGuard;
    /** A user signed in on a form in this locale (the language of their e-mails). */
    signedIn?: ((user: SessionUser, locale: Locale) => Promise<void>) | undefined;
    /** Two-factor's forms (server/two-factor/forms.ts): a user with 2FA waits for the code, with no session yet. */
    forms: { twoFactor: { challengeIfNeeded(req: Request, res: Response, token: string): Promise<boolean> } | null };
  };
};

/** The login form: the limits, the password, the second factor when the user has one, then the session. */
export async function signIn({ req, res, route, services, fail, failWith }: SignInArgs): Promise<void> {
  const { audit } = services;
  if (res.locals.session) return redirectAfterPost(req, res, routePath('index', route));
  const values = stringValues(req.body, ['identifier']);
  const parsed = loginForm.safeParse(req.body ?? {});
  if (!parsed.success) {
    return fail(req, res, 400, {
      form: 'login',
      values,
      error: { code: 'invalid_request', message: 'Fill in both fields', fields: fieldErrors(parsed.error) },
    });
  }
  const { identifier, password } = parsed.data;
  try {
    const { token } = await services.loginGuard(req, identifier, () => services.backend.login(identifier, password));
    // A user with 2FA gets no session yet: the code page asks for the second factor.
    if (await services.forms.twoFactor?.challengeIfNeeded(req, res, token)) {
      return redirectAfterPost(req, res, routePath('twoFactor', route));
    }
    const session = await services.sessions.start(req, res, token);
    // Back to the remembered path only when it is a safe local path.
    const target = safeRedirectPath(takeRememberedPath(req, res), roleHome(session.user.role, route));
    services.logger.info({ userName: session.user.userName }, 'signed in');
    await audit.record({ action: 'sign_in', actor: session.user.userName, ip: req.ip ?? null, detail: { via: 'form' } });
    await services.signedIn?.(session.user, route.locale);
    redirectAfterPost(req, res, target);
  } catch (error) {
    // A wrong password (not a refusal by the limits): the account tried is what was typed.
    if (error instanceof ApiError && error.code === INVALID_CREDENTIALS)
      await audit.record({ action: 'sign_in_failed', actor: null, target: identifier, ip: req.ip ?? null, detail: { via: 'form' } });
    await failWith(req, res, 'login', error, values);
  }
}

/** POST /logout: the session's row goes (a copy of the cookie is refused from now on, on every instance), then home. */
export function logoutHandler(deps: { sessions: Sessions; audit: Audit; logger: Logger }): RequestHandler {
  return async (req: Request, res: Response, next) => {
    try {
      const session = res.locals.session;
      await deps.sessions.end(req, res, session);
      if (session) await deps.audit.record({ action: 'sign_out', actor: session.user.userName, ip: req.ip ?? null });
    } catch (error) {
      return next(error);
    }
    redirectAfterPost(req, res, routePath('index', formOfPath(req.path)));
  };
}

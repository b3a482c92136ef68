// The forms of two-factor authentication, posted to their pages like every form of the site
// (without JavaScript: 303, or the page again with the error; with it: a JSON FormResponse):
// - the code page after a right password (`/login/code`): the session is made only here;
// - the set-up page (`/profile/twoFactor`): turn on with a code of the key shown, new recovery
//   codes, turn off with the password and a code. New recovery codes are answered with the
//   page itself (`reveal`), never stored in clear, so they are shown exactly once.
import type { Request, Response } from 'express';
import type { FormResponse, FormState } from '../../shared/page-data.ts';
import { routePath, type Route } from '../../shared/routes.ts';
import { safeRedirectPath } from '../../shared/safe-path.ts';
import { formatRecoveryCode } from '../../shared/two-factor.ts';
import type { SessionUser } from '../../shared/user.ts';
import type { Locale } from '../../shared/locales.ts';
import { noAudit, type Audit } from '../audit/types.ts';
import type { Backend } from '../auth/backend.ts';
import type { CurrentPasswordGuard } from '../auth/login.ts';
import { takeRememberedPath, type Session } from '../auth/session-cookie.ts';
import type { Sessions } from '../auth/session-store.ts';
import type { TokenVerifier } from '../auth/tokens.ts';
import { redirectAfterPost, wantsJson, type FormFailure, type RenderWithForm } from '../http/form-answers.ts';
import { ApiError } from '../http/errors.ts';
import type { Logger } from '../base/logger.ts';
import type { Challenges } from './challenge.ts';
import type { TwoFactor } from './service.ts';

/** What the site gives the forms of two-factor authentication (server/app.ts). */
export type TwoFactorFormDeps = {
  service: TwoFactor;
  challenges: Challenges;
  /** Reads the user of a sign-in's token. */
  verify: TokenVerifier;
  audit?: Audit;
};

type FailWith = (req: Request, res: Response, form: string, error: unknown, values: Record<string, string>) => Promise<void>;

export function createTwoFactorForms(
  deps: TwoFactorFormDeps & {
    sessions: Sessions;
    backend: Backend;
    currentPasswordGuard: CurrentPasswordGuard;
    fail: FormFailure;
    /** Maps an error to the form's answer (server/auth/forms.ts). */
    failWith: FailWith;
    renderWithForm: RenderWithForm;
    logger: Logger;
    signedIn?: ((user: SessionUser, locale: Locale) => Promise<void>) | undefined;
    /** Where a role lands after signing in, in a route's locale form. */
    homeOf: (role: string, route: Route) => string;
  },
) {
  const { service, challenges } = deps;
  const audit = deps.audit ?? noAudit;
  const text = (body: unknown, name: string) => {
    const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
    return typeof value === 'string' ? value : '';
  };

  /**
   * After a right password (the login form): a user with 2FA gets a challenge and no session;
   * true when so (the caller sends the browser to the code page).
   */
  async function challengeIfNeeded(req: Request, res: Response, token: string): Promise<boolean> {
    // The sign-in's token is judged by sessions.start as before (a token that does not verify is
    // the API's fault: 502); here only whose it is matters.
    let userName: string;
    try {
      ({ userName } = await deps.verify(token));
    } catch {
      return false;
    }
    if (!(await service.isEnabled(userName))) return false;
    await challenges.start(req, res, userName, token);
    deps.logger.info({ userName }, 'password right: waiting for the second factor');
    return true;
  }

  /** POST /login/code: the code (or a recovery code) of the challenge's user; then the session. */
  async function codePage(req: Request, res: Response, route: Route) {
    if (res.locals.session) return redirectAfterPost(req, res, routePath('index', route));
    const challenge = await challenges.current(req);
    const expired = () =>
      deps.fail(req, res, 401, {
        form: 'twoFactor',
        error: { code: 'two_factor_expired', message: 'The sign-in has expired: enter your password again' },
      });
    if (!challenge) {
      challenges.clear(req, res);
      return expired();
    }
    try {
      const kind = await service.checkCode(req, challenge.userName, text(req.body, 'code'), {
        actor: null,
        purpose: 'sign_in',
        status: 401,
      });
      // One request gets the challenge: the same right code posted twice makes one session.
      if (!(await challenges.take(challenge))) return expired();
      challenges.clear(req, res);
      const session = await deps.sessions.start(req, res, challenge.token);
      await audit
        .record({ action: 'sign_in', actor: session.user.userName, ip: req.ip ?? null, detail: { secondFactor: kind } })
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'could not record an audit entry'));
      // The remembered path (kept through the code page) only when it is a safe local path.
      const target = safeRedirectPath(takeRememberedPath(req, res), deps.homeOf(session.user.role, route));
      deps.logger.info({ userName: session.user.userName, secondFactor: kind }, 'signed in');
      await deps.signedIn?.(session.user, route.locale);
      redirectAfterPost(req, res, target);
    } catch (error) {
      await deps.failWith(req, res, 'twoFactor', error, {});
    }
  }

  /** New recovery codes, answered once with the page (JSON: `reveal`; without JavaScript: the page itself). */
  async function reveal(req: Request, res: Response, form: string, success: string, codes: string[]) {
    const shown = codes.map(formatRecoveryCode);
    if (wantsJson(req)) {
      const body: FormResponse = { ok: true, success, reveal: shown };
      res.json(body);
      return;
    }
    const state: FormState = { form, success, reveal: shown };
    await deps.renderWithForm(req, res, state, 200);
  }

  /** POST /profile/twoFactor: `action` is enable, recoveryCodes or disable. */
  async function setupPage(req: Request, res: Response, route: Route, session: Session) {
    const { userName } = session.user;
    const action = text(req.body, 'action');
    const code = text(req.body, 'code');
    const form = action === 'disable' ? 'twoFactorDisable' : action === 'recoveryCodes' ? 'twoFactorRecovery' : 'twoFactorEnable';
    try {
      switch (action) {
        case 'enable':
          return await reveal(req, res, form, 'enabled', await service.enable(req, userName, code));
        case 'recoveryCodes':
          return await reveal(req, res, form, 'recoveryCodes', await service.renewRecoveryCodes(req, userName, code));
        case 'disable': {
          const password = text(req.body, 'password');
          if (!password) throw new ApiError(422, 'invalid_request', 'Enter your password', { password: 'validation.required' });
          // The password first (a wrong one is a counted guess, as in change password), then the code.
          await deps.currentPasswordGuard(req, userName, () => deps.backend.checkPassword(session.token, password));
          await service.disable(req, session.user, code);
          return redirectAfterPost(req, res, `${routePath('twoFactorSetup', route)}?saved=disabled`, 'disabled');
        }
        default:
          throw new ApiError(
            400,
            'invalid_request',
            `Unknown action ${JSON.stringify(action.slice(0, 40))}: use enable, recoveryCodes or disable`,
          );
      }
    } catch (error) {
      await deps.failWith(req, res, form, error, {});
    }
  }

  return { challengeIfNeeded, codePage, setupPage };
}

export type TwoFactorForms = ReturnType<typeof createTwoFactorForms>;

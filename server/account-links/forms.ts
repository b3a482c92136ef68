// The account forms, posted to their page's own URL like every form of the site (with or
// without JavaScript: server/http/form-answers.ts): the forgotten-password request, the new
// password of a reset link, the password an invited user chooses, the confirmation of a new
// e-mail address, and the profile's "change my e-mail".
import type { Request, Response } from 'express';
import { z } from 'zod';
import { routePath, type Route } from '../../shared/routes.ts';
import { confinedArea, type SessionUser } from '../../shared/user.ts';
import { CONTACT_LIMITS, isEmailAddress, PASSWORD_MAX_LENGTH } from '../../shared/validation.ts';
import type { Locale } from '../../shared/locales.ts';
import type { Backend } from '../auth/backend.ts';
import type { CurrentPasswordGuard } from '../auth/login.ts';
import { clearSession, type Session } from '../auth/session-cookie.ts';
import type { Sessions } from '../auth/session-store.ts';
import { redirectAfterPost, stringValues, type FormFailure } from '../http/form-answers.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import { UpstreamError } from '../http/upstream.ts';
import type { Logger } from '../base/logger.ts';
import { forgetLink } from './link-cookie.ts';
import type { Accounts } from './service.ts';
import { parseForm } from '../http/form-fields.ts';

export type AccountLinkFormDeps = {
  accounts: Accounts;
  backend: Backend;
  sessions: Sessions;
  currentPasswordGuard: CurrentPasswordGuard;
  fail: FormFailure;
  logger: Logger;
  /** A user signed in on a form in this locale (the language of their e-mails). */
  signedIn?: ((user: SessionUser, locale: Locale) => Promise<void>) | undefined;
};

const required = (max: number) => z.string().trim().min(1, 'validation.required').max(max, 'validation.tooLong');
const forgotForm = z.object({ identifier: required(CONTACT_LIMITS.email) });
const newPasswordForm = z.object({ newPassword: z.string(), confirmPassword: z.string() });
const emailForm = z.object({
  newEmail: required(CONTACT_LIMITS.email),
  currentPassword: z.string().min(1, 'validation.required').max(PASSWORD_MAX_LENGTH, 'validation.tooLong'),
});

export function createAccountLinkForms(deps: AccountLinkFormDeps) {
  const { accounts, fail, logger } = deps;

  /** A refusal as the form's error (the page shows it with what was typed); anything else is logged, 500. */
  async function failWith(req: Request, res: Response, form: string, error: unknown, values: Record<string, string> = {}) {
    if (error instanceof TooManyAttemptsError) {
      return fail(req, res, 429, { form, values, error: { code: error.code, message: error.message, retryAfter: error.retryAfter } });
    }
    if (error instanceof ApiError && error.status < 500) {
      // The form says the site's words for the code; what an external API said stays here.
      if (error instanceof UpstreamError) logger.warn({ err: error, form }, 'API refused an account form');
      const fields = error.fields ? { fields: error.fields } : {};
      return fail(req, res, error.status, { form, values, error: { code: error.code, message: error.message, ...fields } });
    }
    if (error instanceof ApiError) {
      logger.warn({ err: error, form }, 'account form refused');
      return fail(req, res, error.status, { form, values, error: { code: error.code, message: error.message } });
    }
    logger.error({ err: error, form }, 'form failed');
    return fail(req, res, 500, { form, values, error: { code: 'internal', message: 'Internal error' } });
  }

  /** The two password fields of a link's form, or a 422 naming what is wrong with their shape. */
  function newPassword(req: Request): { password: string; confirm: string } {
    const { newPassword, confirmPassword } = parseForm(newPasswordForm, req.body ?? {});
    return { password: newPassword, confirm: confirmPassword };
  }

  /** The token of the link the visitor opened, or the refusal a page without one shows. */
  function linkToken(res: Response): string {
    const token = res.locals.linkToken;
    if (!token) throw new ApiError(404, 'link_unknown', 'Open the link from your e-mail again');
    return token;
  }

  return {
    /**
     * Forgotten password: the same answer for every identifier — an account or none, enabled or
     * not, under its limit or over — in the same time; only the address's own limit is a 429.
     */
    async forgotPassword(req: Request, res: Response, route: Route) {
      const values = stringValues(req.body, ['identifier']);
      try {
        const { identifier } = parseForm(forgotForm, req.body ?? {});
        if (!accounts.canSend) throw new ApiError(503, 'mail_unavailable', 'E-mail cannot be sent from this site right now');
        await accounts.requestPasswordReset(identifier, route.locale, req.ip ?? null);
        redirectAfterPost(req, res, `${routePath('forgotPassword', route)}?sent=1`, 'resetSent');
      } catch (error) {
        await failWith(req, res, 'forgotPassword', error, values);
      }
    },

    /** A new password from a reset link; every session of the user ends, and they sign in with it. */
    async resetPassword(req: Request, res: Response, route: Route) {
      try {
        const { password, confirm } = newPassword(req);
        const userName = await accounts.resetPassword(linkToken(res), password, confirm, req.ip ?? null);
        forgetLink(req, res);
        // Signed out everywhere, this browser included when it was theirs: the new password signs in.
        if (res.locals.session?.user.userName === userName) clearSession(req, res);
        redirectAfterPost(req, res, `${routePath('login', route)}?notice=passwordReset`, 'passwordReset');
      } catch (error) {
        await failWith(req, res, 'resetPassword', error);
      }
    },

    /** The invited user chooses their password and lands signed in in their area. */
    async invitation(req: Request, res: Response, route: Route) {
      try {
        const { password, confirm } = newPassword(req);
        const userName = await accounts.acceptInvitation(linkToken(res), password, confirm, req.ip ?? null);
        forgetLink(req, res);
        // Whoever was signed in on this browser is not any more: the invited user is.
        await deps.sessions.end(req, res, res.locals.session);
        // A session started as the login form starts one.
        const { token } = await deps.backend.login(userName, password);
        const session = await deps.sessions.start(req, res, token);
        logger.info({ userName: session.user.userName }, 'signed in');
        await deps.signedIn?.(session.user, route.locale);
        redirectAfterPost(req, res, routePath(confinedArea(session.user.role) ?? 'index', route), 'invitationAccepted');
      } catch (error) {
        await failWith(req, res, 'invitation', error);
      }
    },

    /** The link sent to a new address was opened and confirmed: the account uses that address now. */
    async confirmEmail(req: Request, res: Response, route: Route) {
      try {
        const { userName } = await accounts.confirmEmailChange(linkToken(res), route.locale, req.ip ?? null);
        forgetLink(req, res);
        const own = res.locals.session?.user.userName === userName;
        redirectAfterPost(
          req,
          res,
          own ? `${routePath('profile', route)}?saved=email` : `${routePath('login', route)}?notice=emailChanged`,
          'email',
        );
      } catch (error) {
        await failWith(req, res, 'confirmEmail', error);
      }
    },

    /** Profile, "change my e-mail": the current password, then a link to the new address. */
    async emailChange(req: Request, res: Response, route: Route, session: Session) {
      const values = stringValues(req.body, ['newEmail']);
      let form: z.infer<typeof emailForm>;
      try {
        form = parseForm(emailForm, req.body ?? {});
      } catch (error) {
        return failWith(req, res, 'email', error, values);
      }
      const { newEmail, currentPassword } = form;
      if (!isEmailAddress(newEmail)) {
        const invalid = new ApiError(422, 'invalid_request', `${JSON.stringify(newEmail)} is not one e-mail address`, {
          newEmail: 'validation.invalidEmail',
        });
        return failWith(req, res, 'email', invalid, values);
      }
      try {
        // A wrong password is a counted guess (the limits of change password); only a right one goes on.
        await deps.currentPasswordGuard(req, session.user.userName, () => deps.backend.checkPassword(session.token, currentPassword));
        await accounts.requestEmailChange(session.user.userName, newEmail, route.locale, req.ip ?? null);
        redirectAfterPost(req, res, `${routePath('profile', route)}?saved=emailPending`, 'emailPending');
      } catch (error) {
        await failWith(req, res, 'email', error, values);
      }
    },
  };
}

export type AccountLinkForms = ReturnType<typeof createAccountLinkForms>;

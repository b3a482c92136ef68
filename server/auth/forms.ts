// The forms of the private area, posted to their page's own URL: login, profile, change
// password; and logout (the public contact form lives in server/contact/form.ts). Without JavaScript: POST, then 303 (or the page again with the error).
// With JavaScript (Accept: application/json): a JSON FormResponse, no reload.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { safeRedirectPath } from '../../shared/safe-path.ts';
import { routePath, type Route, type RouteForm } from '../../shared/routes.ts';
import type { Locale } from '../../shared/locales.ts';
import { confinedArea, type SessionUser } from '../../shared/user.ts';
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, passwordProblem } from '../../shared/validation.ts';
import { createContactForm, type ContactFormDeps } from '../contact/form.ts';
import { formFailure, redirectAfterPost, stringValues, type RenderWithForm } from '../http/form-answers.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import { AVATAR_MAX_BYTES } from '../uploads/images.ts';
import { noAudit, type Audit } from '../audit/types.ts';
import { INVALID_CREDENTIALS, type Backend } from './backend.ts';
import type { CurrentPasswordGuard, LoginGuard } from './login.ts';
import { takeRememberedPath, type Session } from './session.ts';
import type { ProjectServices } from '../projects/index.ts';
import { createProjectForms } from '../projects/forms.ts';
import type { Sessions } from './sessions.ts';
import { isAccountIntent } from '../../shared/account.ts';
import { createAccountForms, type AccountFormDeps } from '../account/profile-forms.ts';
import { createTwoFactorForms, type TwoFactorFormDeps } from '../two-factor/forms.ts';
import { createAccountForms as createLinkForms } from '../accounts/forms.ts';
import type { Accounts } from '../accounts/service.ts';

export type FormDeps = {
  backend: Backend;
  /** Sign-in makes a session, logout ends it, a fresh token from the API is kept in it. */
  sessions: Sessions;
  loginGuard: LoginGuard;
  currentPasswordGuard: CurrentPasswordGuard;
  logger: Logger;
  /** A user signed in on a form in this locale (the language of their e-mails). */
  signedIn?: (user: SessionUser, locale: Locale) => Promise<void>;
  /** The public contact form (server/contact/form.ts) is posted to its page like the others. */
  contact: ContactFormDeps;
  /** Renders the page at req.originalUrl with a form state and a status (no-JS error path). */
  renderWithForm: RenderWithForm;
  /** The private area's projects (a new brief, a project's page, the expert's profile). */
  projects: ProjectServices;
  /** Where sign-ins, failed sign-ins, sign-outs and password changes are recorded (default: nowhere). */
  audit?: Audit;
  /** The profile's forms about the account: sessions, deletion request (server/account/). */
  account?: Omit<AccountFormDeps, 'backend' | 'currentPasswordGuard' | 'sessions' | 'audit'> & { audit?: Audit };
  /** Two-factor authentication: the code after the password, the set-up page. */
  twoFactor?: TwoFactorFormDeps;
  /** Invitations, forgotten passwords, e-mail changes (built-in API only: else those pages take no POST). */
  accounts?: Accounts | null | undefined;
};

/** DESIGN.md §3: CLI, ORG and CONS go to their area, anyone else home; same locale form. */
export function roleHome(role: string, form: RouteForm): string {
  return routePath(confinedArea(role) ?? 'index', form);
}

const fieldText = (max: number) => z.string().trim().min(1, 'validation.required').max(max, 'validation.tooLong');
const loginForm = z.object({
  identifier: fieldText(254),
  password: z.string().min(1, 'validation.required').max(PASSWORD_MAX_LENGTH, 'validation.tooLong'),
});
const profileForm = z.object({ name: fieldText(NAME_MAX_LENGTH), lastName: fieldText(NAME_MAX_LENGTH) });
// Only the shape here: the new password's rules are judged after the current password
// (passwordProblem covers its length), so that a guess is always answered as a guess.
const passwordForm = z.object({
  currentPassword: z.string().min(1, 'validation.required').max(PASSWORD_MAX_LENGTH, 'validation.tooLong'),
  newPassword: z.string(),
  confirmPassword: z.string(),
});

function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[String(issue.path[0] ?? '_')] ??= issue.message;
  return fields;
}

export function createFormHandlers(deps: FormDeps) {
  const urlencoded = express.urlencoded({ extended: false, limit: '32kb' });
  const json = express.json({ limit: '32kb' });
  const bodyParsers: RequestHandler[] = [urlencoded, json];

  const fail = formFailure(deps.renderWithForm);
  const audit = deps.audit ?? noAudit;
  const contact = createContactForm({ ...deps.contact, logger: deps.logger, fail });
  const projectForms = createProjectForms({ services: deps.projects, fail, logger: deps.logger });
  const linkForms = deps.accounts
    ? createLinkForms({
        accounts: deps.accounts,
        backend: deps.backend,
        sessions: deps.sessions,
        currentPasswordGuard: deps.currentPasswordGuard,
        fail,
        logger: deps.logger,
        signedIn: deps.signedIn,
      })
    : null;

  /** Maps a backend failure to the form's error, logging what is not the visitor's doing. */
  async function failWith(req: Request, res: Response, formName: string, error: unknown, values: Record<string, string>) {
    if (error instanceof TooManyAttemptsError) {
      return fail(req, res, 429, {
        form: formName,
        values,
        error: { code: error.code, message: error.message, retryAfter: error.retryAfter },
      });
    }
    if (error instanceof ApiError && error.status < 500) {
      return fail(req, res, error.status, {
        form: formName,
        values,
        error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) },
      });
    }
    if (error instanceof ApiError) {
      // The API is down (503) or answered something unusable (502): say so, keep the input.
      deps.logger.warn({ err: error, form: formName }, 'API failure');
      return fail(req, res, error.status, { form: formName, values, error: { code: error.code, message: error.message } });
    }
    deps.logger.error({ err: error, form: formName }, 'form failed');
    return fail(req, res, 500, { form: formName, values, error: { code: 'internal', message: 'Internal error' } });
  }

  const accountForms = createAccountForms({
    sessions: deps.sessions,
    deletions: deps.account?.deletions ?? null,
    backend: deps.backend,
    currentPasswordGuard: deps.currentPasswordGuard,
    audit: deps.account?.audit ?? audit,
    fail,
    failWith,
  });
  const twoFactorForms = deps.twoFactor
    ? createTwoFactorForms({
        ...deps.twoFactor,
        sessions: deps.sessions,
        backend: deps.backend,
        currentPasswordGuard: deps.currentPasswordGuard,
        fail,
        failWith,
        renderWithForm: deps.renderWithForm,
        logger: deps.logger,
        signedIn: deps.signedIn,
        homeOf: roleHome,
      })
    : null;

  async function login(req: Request, res: Response, route: Route) {
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
      const { token } = await deps.loginGuard(req, identifier, () => deps.backend.login(identifier, password));
      // A user with 2FA gets no session yet: the code page asks for the second factor.
      if (await twoFactorForms?.challengeIfNeeded(req, res, token)) return redirectAfterPost(req, res, routePath('twoFactor', route));
      const session = await deps.sessions.start(req, res, token);
      // seed-spec §5: back to the remembered path only when it is a safe local path.
      const target = safeRedirectPath(takeRememberedPath(req, res), roleHome(session.user.role, route));
      deps.logger.info({ userName: session.user.userName }, 'signed in');
      await audit.record({ action: 'sign_in', actor: session.user.userName, ip: req.ip ?? null, detail: { via: 'form' } });
      await deps.signedIn?.(session.user, route.locale);
      redirectAfterPost(req, res, target);
    } catch (error) {
      // A wrong password (not a refusal by the limits): the account tried is what was typed.
      if (error instanceof ApiError && error.code === INVALID_CREDENTIALS)
        await audit.record({ action: 'sign_in_failed', actor: null, target: identifier, ip: req.ip ?? null, detail: { via: 'form' } });
      await failWith(req, res, 'login', error, values);
    }
  }

  async function profile(req: Request, res: Response, route: Route, session: Session) {
    const isImage = (req.get('content-type') ?? '').startsWith('image/');
    // The account's forms (sessions, deletion) name what they do; the details form names nothing.
    const intent: unknown = isImage ? undefined : (req.body as { intent?: unknown } | undefined)?.intent;
    if (isAccountIntent(intent)) return accountForms(intent, req, res, route, session);
    const values = isImage ? {} : stringValues(req.body, ['name', 'lastName']);
    try {
      let answer: { token: string };
      if (isImage) {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        answer = await deps.backend.setAvatar(session.token, body, req.get('content-type') ?? '');
      } else {
        const parsed = profileForm.safeParse(req.body ?? {});
        if (!parsed.success) {
          return fail(req, res, 422, {
            form: 'profile',
            values,
            error: { code: 'invalid_request', message: 'Check the highlighted fields', fields: fieldErrors(parsed.error) },
          });
        }
        answer = await deps.backend.updateProfile(session.token, parsed.data);
      }
      await deps.sessions.refresh(session, answer.token);
      redirectAfterPost(req, res, `${routePath('profile', route)}?saved=${isImage ? 'avatar' : 'profile'}`, isImage ? 'avatar' : 'profile');
    } catch (error) {
      await failWith(req, res, isImage ? 'avatar' : 'profile', error, values);
    }
  }

  async function changePassword(req: Request, res: Response, route: Route, session: Session) {
    const parsed = passwordForm.safeParse(req.body ?? {});
    if (!parsed.success) {
      return fail(req, res, 422, {
        form: 'changePassword',
        error: { code: 'invalid_request', message: 'Check the highlighted fields', fields: fieldErrors(parsed.error) },
      });
    }
    const { currentPassword, newPassword, confirmPassword } = parsed.data;
    const problem = passwordProblem(newPassword, session.user.userName);
    const fields: Record<string, string> = {};
    if (problem) fields.newPassword = problem;
    if (newPassword !== confirmPassword) fields.confirmPassword = 'validation.passwordsDiffer';
    try {
      // The current password first, whatever the new one: a wrong one is a counted guess and its
      // answer; only a right one lets the new password be judged (and then nothing is counted).
      const { token } = await deps.currentPasswordGuard(req, session.user.userName, async () => {
        if (Object.keys(fields).length === 0) return deps.backend.changePassword(session.token, currentPassword, newPassword);
        await deps.backend.checkPassword(session.token, currentPassword);
        throw new ApiError(422, 'invalid_password', 'Check the highlighted fields', fields);
      });
      await deps.sessions.refresh(session, token);
      await audit.record({ action: 'password_changed', actor: session.user.userName, ip: req.ip ?? null, detail: { via: 'form' } });
      redirectAfterPost(req, res, `${routePath('changePassword', route)}?saved=password`, 'password');
    } catch (error) {
      await failWith(req, res, 'changePassword', error, {});
    }
  }

  /** POST to a page: dispatched by the matched route's page; other pages take no POST. */
  const pagePost = (route: Route): RequestHandler | null => {
    switch (route.page) {
      case 'login':
        return (req, res) => login(req, res, route);
      case 'contact':
        return (req, res) => contact(req, res, route);
      case 'twoFactor':
        return twoFactorForms ? (req, res) => twoFactorForms.codePage(req, res, route) : null;
      case 'forgotPassword':
        return linkForms && ((req, res) => linkForms.forgotPassword(req, res, route));
      case 'resetPassword':
        return linkForms && ((req, res) => linkForms.resetPassword(req, res, route));
      case 'invitation':
        return linkForms && ((req, res) => linkForms.invitation(req, res, route));
      case 'confirmEmail':
        return linkForms && ((req, res) => linkForms.confirmEmail(req, res, route));
      case 'profile':
      case 'changePassword':
      case 'projectNew':
      case 'project':
      case 'expert':
      case 'twoFactorSetup':
        if (route.page === 'twoFactorSetup' && !twoFactorForms) return null;
        return (req, res) => {
          const session = res.locals.session;
          if (!session) {
            // The session ended meanwhile: sign in again, then come back.
            return redirectAfterPost(req, res, routePath('login', route));
          }
          switch (route.page) {
            case 'profile':
              // The profile's second form, "change my e-mail", says which it is.
              if (linkForms && (req.body as { form?: unknown } | undefined)?.form === 'email') {
                return linkForms.emailChange(req, res, route, session);
              }
              return profile(req, res, route, session);
            case 'changePassword':
              return changePassword(req, res, route, session);
            case 'projectNew':
              return projectForms.newBrief(req, res, route, session);
            case 'project':
              return projectForms.projectPage(req, res, session);
            case 'twoFactorSetup':
              return twoFactorForms?.setupPage(req, res, route, session);
            default:
              return projectForms.expertProfile(req, res, route, session);
          }
        };
      default:
        return null;
    }
  };

  const avatarBody = express.raw({ type: (req) => (req.headers['content-type'] ?? '').startsWith('image/'), limit: AVATAR_MAX_BYTES });

  const logout: RequestHandler = async (req, res, next) => {
    try {
      // The row goes: a copy of the cookie is refused from now on, on every instance.
      const session = res.locals.session;
      await deps.sessions.end(req, res, session);
      if (session) await audit.record({ action: 'sign_out', actor: session.user.userName, ip: req.ip ?? null });
    } catch (error) {
      return next(error);
    }
    const locale = req.path.startsWith('/en/') ? 'en' : req.path.startsWith('/es/') ? 'es' : null;
    const to = routePath('index', locale ? { locale, prefixed: true } : { locale: 'es', prefixed: false });
    redirectAfterPost(req, res, to);
  };

  return { bodyParsers: [...bodyParsers, avatarBody], pagePost, logout };
}

// The forms of the private area, posted to their page's own URL: login, profile, change
// password; and logout. Without JavaScript: POST, then 303 (or the page again with the error).
// With JavaScript (Accept: application/json): a JSON FormResponse, no reload.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { safeRedirectPath } from '../../shared/safe-path.ts';
import type { FormResponse, FormState } from '../../shared/page-data.ts';
import { routePath, type Route, type RouteForm } from '../../shared/routes.ts';
import { confinedArea } from '../../shared/user.ts';
import { contactProblems, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, passwordProblem } from '../../shared/validation.ts';
import { MIN_FILL_MS, type FormTokens } from '../contact/form-token.ts';
import type { ContactMessage, ContactStore } from '../contact/messages.ts';
import type { RateLimiter } from './rate-limit.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import { AVATAR_MAX_BYTES } from '../uploads/images.ts';
import type { Backend } from './backend.ts';
import type { CurrentPasswordGuard, LoginGuard } from './login.ts';
import { takeRememberedPath, type Session } from './session.ts';
import type { Sessions } from './sessions.ts';

export type FormDeps = {
  backend: Backend;
  /** Sign-in makes a session, logout ends it, a fresh token from the API is kept in it. */
  sessions: Sessions;
  loginGuard: LoginGuard;
  currentPasswordGuard: CurrentPasswordGuard;
  logger: Logger;
  contact: {
    store: ContactStore;
    limiter: RateLimiter;
    maxPerIp: number;
    tokens: FormTokens;
    notify: ((message: ContactMessage) => void) | null;
  };
  /** Renders the page at req.originalUrl with a form state and a status (no-JS error path). */
  renderWithForm: (req: Request, res: Response, form: FormState, status: number) => Promise<void>;
};

/** DESIGN.md §3: CLI, ORG and CONS go to their area, anyone else home; same locale form. */
export function roleHome(role: string, form: RouteForm): string {
  return routePath(confinedArea(role) ?? 'index', form);
}

function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json';
}

function redirectAfterPost(req: Request, res: Response, to: string, success?: string) {
  if (wantsJson(req)) {
    const body: FormResponse = { ok: true, redirect: to, ...(success ? { success } : {}) };
    res.json(body);
  } else res.redirect(303, to);
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

function stringValues(body: unknown, keys: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  for (const key of keys) if (typeof record[key] === 'string') values[key] = (record[key] as string).slice(0, 300);
  return values;
}

export function createFormHandlers(deps: FormDeps) {
  const urlencoded = express.urlencoded({ extended: false, limit: '32kb' });
  const json = express.json({ limit: '32kb' });
  const bodyParsers: RequestHandler[] = [urlencoded, json];

  async function fail(req: Request, res: Response, status: number, form: FormState) {
    if (form.error?.retryAfter) res.set('Retry-After', String(form.error.retryAfter));
    if (wantsJson(req)) {
      const body: FormResponse = { ok: false, form };
      res.status(status).json(body);
    } else await deps.renderWithForm(req, res, form, status);
  }

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
      const session = await deps.sessions.start(req, res, token);
      // seed-spec §5: back to the remembered path only when it is a safe local path.
      const target = safeRedirectPath(takeRememberedPath(req, res), roleHome(session.user.role, route));
      deps.logger.info({ userName: session.user.userName }, 'signed in');
      redirectAfterPost(req, res, target);
    } catch (error) {
      await failWith(req, res, 'login', error, values);
    }
  }

  async function profile(req: Request, res: Response, route: Route, session: Session) {
    const isImage = (req.get('content-type') ?? '').startsWith('image/');
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
      redirectAfterPost(req, res, `${routePath('changePassword', route)}?saved=password`, 'password');
    } catch (error) {
      await failWith(req, res, 'changePassword', error, {});
    }
  }

  async function contact(req: Request, res: Response, route: Route) {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : '');
    const values = stringValues(body, ['name', 'email', 'subject', 'message']);
    values.message = text('message').slice(0, 5000);
    const thanks = `${routePath('Contact', route)}?sent=1`;
    // A honeypot field people never see: a bot filled it. Answer as if sent, store nothing.
    if (text('website')) {
      deps.logger.info({ ip: req.ip }, 'contact spam dropped (honeypot)');
      return redirectAfterPost(req, res, thanks, 'contact');
    }
    const age = deps.contact.tokens.age(body.formToken);
    if (age === null) {
      return fail(req, res, 400, {
        form: 'contact',
        values,
        error: { code: 'form_expired', message: 'The form has expired: reload the page and send it again' },
      });
    }
    if (age < MIN_FILL_MS) {
      return fail(req, res, 400, {
        form: 'contact',
        values,
        error: { code: 'too_fast', message: 'The form was sent too quickly: wait a moment and send it again' },
      });
    }
    const input = {
      name: text('name'),
      email: text('email'),
      subject: text('subject'),
      message: text('message'),
      consent: ['yes', 'on', 'true'].includes(text('consent')),
    };
    const problems = contactProblems(input);
    if (Object.keys(problems).length > 0) {
      return fail(req, res, 422, {
        form: 'contact',
        values,
        error: { code: 'invalid_request', message: 'Check the highlighted fields', fields: problems },
      });
    }
    const ipKey = `contact:ip:${req.ip ?? 'unknown'}`;
    const wait = await deps.contact.limiter.retryAfter(ipKey, deps.contact.maxPerIp);
    if (wait > 0) {
      return fail(req, res, 429, {
        form: 'contact',
        values,
        error: { code: 'too_many_messages', message: `Too many messages: try again in ${wait} seconds`, retryAfter: wait },
      });
    }
    await deps.contact.limiter.hit(ipKey);
    // Committed before the answer: a crash right after the "sent" loses nothing.
    const message = await deps.contact.store.addOnce(
      String(body.formToken),
      {
        name: input.name.trim(),
        email: input.email.trim(),
        subject: input.subject.trim(),
        message: input.message.trim(),
        locale: route.locale,
        ip: req.ip ?? null,
      },
      deps.contact.notify !== null,
    );
    if (!message) {
      return fail(req, res, 409, {
        form: 'contact',
        values,
        error: { code: 'form_used', message: 'This form has already been sent: reload the page to write another message' },
      });
    }
    deps.logger.info({ messageId: message.id }, 'contact message stored');
    deps.contact.notify?.(message);
    redirectAfterPost(req, res, thanks, 'contact');
  }

  /** POST to a page: dispatched by the matched route's page; other pages take no POST. */
  const pagePost = (route: Route): RequestHandler | null => {
    switch (route.page) {
      case 'login':
        return (req, res) => login(req, res, route);
      case 'contact':
        return (req, res) => contact(req, res, route);
      case 'profile':
      case 'changePassword':
        return (req, res) => {
          const session = res.locals.session;
          if (!session) {
            // The session ended meanwhile: sign in again, then come back.
            return redirectAfterPost(req, res, routePath('login', route));
          }
          return route.page === 'profile' ? profile(req, res, route, session) : changePassword(req, res, route, session);
        };
      default:
        return null;
    }
  };

  const avatarBody = express.raw({ type: (req) => (req.headers['content-type'] ?? '').startsWith('image/'), limit: AVATAR_MAX_BYTES });

  const logout: RequestHandler = async (req, res, next) => {
    try {
      // The row goes: a copy of the cookie is refused from now on, on every instance.
      await deps.sessions.end(req, res, res.locals.session);
    } catch (error) {
      return next(error);
    }
    const locale = req.path.startsWith('/en/') ? 'en' : req.path.startsWith('/es/') ? 'es' : null;
    const to = routePath('index', locale ? { locale, prefixed: true } : { locale: 'es', prefixed: false });
    redirectAfterPost(req, res, to);
  };

  return { bodyParsers: [...bodyParsers, avatarBody], pagePost, logout };
}

// How a form posted to its page is answered, with or without JavaScript: a JSON FormResponse
// (Accept: application/json, no reload), or a 303 after success and the page again with the
// error (and what was typed) after a failure.
import type { Request, Response } from 'express';
import type { FormResponse, FormState } from '../../shared/page-data.ts';
import type { Logger } from '../base/logger.ts';
import { ApiError, TooManyAttemptsError } from './errors.ts';
import { UpstreamError } from './upstream.ts';

export function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json';
}

export function redirectAfterPost(req: Request, res: Response, to: string, success?: string): void {
  if (wantsJson(req)) {
    const body: FormResponse = { ok: true, redirect: to, ...(success ? { success } : {}) };
    res.json(body);
  } else res.redirect(303, to);
}

/** Renders the page at req.originalUrl with a form state and a status (the no-JS error path). */
export type RenderWithForm = (req: Request, res: Response, form: FormState, status: number) => Promise<void>;

export type FormFailure = (req: Request, res: Response, status: number, form: FormState) => Promise<void>;

export function formFailure(renderWithForm: RenderWithForm): FormFailure {
  return async (req, res, status, form) => {
    if (form.error?.retryAfter) res.set('Retry-After', String(form.error.retryAfter));
    if (wantsJson(req)) {
      const body: FormResponse = { ok: false, form };
      res.status(status).json(body);
    } else await renderWithForm(req, res, form, status);
  };
}

/** What the visitor typed (strings only, each cut to 300 characters), to fill the form again; never passwords. */
export function stringValues(body: unknown, keys: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  for (const key of keys) if (typeof record[key] === 'string') values[key] = (record[key] as string).slice(0, 300);
  return values;
}

/** Answers a form whose handling threw: the error as the form's refusal, or a logged 500. */
export type FailWith = (req: Request, res: Response, formName: string, error: unknown, values: Record<string, string>) => Promise<void>;

/**
 * The one mapping from an error to a form's answer: a limit (429 with Retry-After), a refusal
 * of the API (its status, code, message and field errors), the API down or unusable (its 5xx,
 * what was typed kept), anything else a logged 500.
 */
export function createFailWith(fail: FormFailure, logger: Logger): FailWith {
  return async (req, res, form, error, values) => {
    // The form says the site's words for the code; what an external API said stays here.
    if (error instanceof UpstreamError && error.status < 500) logger.warn({ err: error, form }, 'API refused a form');
    if (error instanceof TooManyAttemptsError) {
      return fail(req, res, 429, { form, values, error: { code: error.code, message: error.message, retryAfter: error.retryAfter } });
    }
    if (error instanceof ApiError && error.status < 500) {
      return fail(req, res, error.status, {
        form,
        values,
        error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) },
      });
    }
    if (error instanceof ApiError) {
      logger.warn({ err: error, form }, 'API failure');
      return fail(req, res, error.status, { form, values, error: { code: error.code, message: error.message } });
    }
    logger.error({ err: error, form }, 'form failed');
    return fail(req, res, 500, { form, values, error: { code: 'internal', message: 'Internal error' } });
  };
}

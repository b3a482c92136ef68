// How a form posted to its page is answered, with or without JavaScript: a JSON FormResponse
// (Accept: application/json, no reload), or a 303 after success and the page again with the
// error (and what was typed) after a failure.
import type { Request, Response } from 'express';
import type { FormResponse, FormState } from '../../shared/page-data.ts';

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

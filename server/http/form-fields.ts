// The first step of every form the server takes: the body through its schema, or a refusal that
// names each field's first problem (a key of locales/: `validation.required`). The refusal is an
// ApiError 422, which the one form answer (form-answers.ts, createFailWith) turns into JSON for a
// script or the page again, with what was typed, without one.
import type { z } from 'zod';
import { ApiError } from './errors.ts';

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[String(issue.path[issue.path.length - 1] ?? '_')] ??= issue.message;
  return fields;
}

/** The body as `schema` reads it, or an ApiError 422 "Check the highlighted fields" with the field errors. */
export function parseForm<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ApiError(422, 'invalid_request', 'Check the highlighted fields', fieldErrors(parsed.error));
}

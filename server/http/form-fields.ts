// The field errors of a form that failed its schema: each field's first message (a key of
// locales/: `validation.required`), by the field's name.
import type { z } from 'zod';

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[String(issue.path[issue.path.length - 1] ?? '_')] ??= issue.message;
  return fields;
}

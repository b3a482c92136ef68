// The one schema of a person's name, a company's name or a title at the edge (API bodies and page
// forms alike): a string made one plain line by shared/validation.ts's singleLine, then trimmed;
// each schema adds its bounds and their messages. Bounds count what is kept.
import { z } from 'zod';
import { singleLine } from '../../shared/validation.ts';

export function oneLine(): z.ZodString {
  return z.string().overwrite(singleLine).trim();
}

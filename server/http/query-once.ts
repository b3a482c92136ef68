// A query parameter is given once. `?version=1&version=2` is refused with a 400 naming it,
// wherever parameters are read (the API, the documents, the preview) and in the same words:
// never resolved by taking one of the values, nor refused as "not a number" here and "not one
// of the options" there.
import type { Request } from 'express';

/** The first parameter of the query given more than once (or as anything but one text), or null. */
export function repeatedParameter(query: Request['query']): string | null {
  for (const [name, value] of Object.entries(query)) if (typeof value !== 'string') return name;
  return null;
}

/** What a refusal says of the parameter `name`. */
export function givenOnce(name: string): string {
  return `${name} must be given once, not repeated`;
}

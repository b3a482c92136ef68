// An external API's refusal (API_URL), as the site passes it on: its words are not the site's.
// A page or a form shows the site's own message for the code, in the page's language; what the
// upstream said (its status, code and message) is kept for the server's log only.
import type { Messages } from '../../shared/translate.ts';
import { ApiError } from './errors.ts';

/** The code of an upstream refusal the site has no words for. */
export const UPSTREAM_ERROR = 'upstream_error';

/** A field's problem the site can say: one of its message keys (the contract allows prose too). */
const MESSAGE_KEY = /^validation\.[A-Za-z]+$/;

/** What the upstream answered, for the log. */
export type UpstreamDetail = { status: number; code?: string; message?: string };

export class UpstreamError extends ApiError {
  readonly upstream: UpstreamDetail;
  constructor(
    status: number,
    code: string,
    message: string,
    upstream: UpstreamDetail,
    fields?: Record<string, string>,
    options?: ErrorOptions,
  ) {
    super(status, code, message, fields, options);
    this.name = 'UpstreamError';
    this.upstream = upstream;
  }
}

/**
 * The error codes the site has words for: the keys of `formErrors` and of each screen's own
 * `errors` group (`adminConsole.errors`…), where the forms and the console look a code up (the
 * top-level `errors` are the error page's, not codes). The server refuses to start when a key is
 * in one locale and not another: one locale's keys are every locale's.
 */
export function errorCodesWithWords(messages: Messages): ReadonlySet<string> {
  const codes = new Set<string>();
  const addWords = (group: Messages) => {
    for (const [code, words] of Object.entries(group)) if (typeof words === 'string') codes.add(code);
  };
  const visit = (group: Messages, top: boolean) => {
    for (const [key, value] of Object.entries(group)) {
      if (typeof value === 'string') continue;
      if (key === 'formErrors' || (key === 'errors' && !top)) addWords(value);
      else visit(value, false);
    }
  };
  visit(messages, true);
  return codes;
}

/** The fields whose problem is one of the site's message keys; the upstream's prose is dropped. */
function keyedFields(fields: unknown): Record<string, string> | undefined {
  if (!fields || typeof fields !== 'object') return undefined;
  const kept = Object.entries(fields).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && MESSAGE_KEY.test(entry[1]),
  );
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/**
 * The upstream's error answer (`status`, its parsed body) to `what` (e.g. "GET /admin/users")
 * as the site's: a 5xx is 503 api_unavailable, a 401 is unauthorized (the session ends), any
 * other refusal keeps its status, and its code when the site has words for it (`known`).
 */
export function upstreamFailure(status: number, body: unknown, what: string, known: ReadonlySet<string>): UpstreamError {
  const error = (body as { error?: { code?: unknown; message?: unknown; fields?: unknown } } | null)?.error;
  const detail: UpstreamDetail = {
    status,
    ...(typeof error?.code === 'string' ? { code: error.code } : {}),
    ...(typeof error?.message === 'string' ? { message: error.message.slice(0, 500) } : {}),
  };
  if (status >= 500) return new UpstreamError(503, 'api_unavailable', `The API answered ${what} with ${status}`, detail);
  if (status === 401) return new UpstreamError(401, 'unauthorized', `The API refused the token for ${what}`, detail);
  const code = typeof error?.code === 'string' && known.has(error.code) ? error.code : UPSTREAM_ERROR;
  return new UpstreamError(status, code, `The API refused ${what} with ${status}`, detail, keyedFields(error?.fields));
}

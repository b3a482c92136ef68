// Typed HTTP errors thrown by guards and loaders and handled in one place (the renderer or the
// API's error handler).

export class HttpError extends Error {
  readonly status: number;
  /** A message key in locales/ for the page, or a plain message for the API. */
  readonly messageKey: string | undefined;
  constructor(status: number, message: string, messageKey?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'HttpError';
    this.status = status;
    this.messageKey = messageKey;
  }
}

export function notFound(what = 'This page could not be found'): HttpError {
  return new HttpError(404, what, 'errors.notFound');
}

/** An API error: `{error: {code, message, fields?}}` with its status. */
export class ApiError extends HttpError {
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  constructor(status: number, code: string, message: string, fields?: Record<string, string>, options?: ErrorOptions) {
    super(status, message, undefined, options);
    this.name = 'ApiError';
    this.code = code;
    this.fields = fields;
  }
}

/** 429 with the seconds to wait (sent as Retry-After). */
export class TooManyAttemptsError extends ApiError {
  readonly retryAfter: number;
  constructor(retryAfter: number, code = 'too_many_attempts', what = 'Too many failed attempts') {
    super(429, code, `${what}: try again in ${retryAfter} seconds`);
    this.name = 'TooManyAttemptsError';
    this.retryAfter = retryAfter;
  }
}

/** 503 with the seconds to wait (sent as Retry-After): the process is at one of its caps and did nothing. */
export class BusyError extends ApiError {
  readonly retryAfter: number;
  constructor(retryAfter: number, code: string, message: string) {
    super(503, code, message);
    this.name = 'BusyError';
    this.retryAfter = retryAfter;
  }
}

/** Thrown by a page's loader: the page lives at another URL (a post's slug in another language). */
export class PageRedirect extends Error {
  readonly to: string;
  readonly status: 301 | 302;
  constructor(to: string, status: 301 | 302) {
    super(`Moved to ${to}`);
    this.name = 'PageRedirect';
    this.to = to;
    this.status = status;
  }
}

// Typed HTTP errors thrown by guards and loaders and handled in one place (the renderer or the
// API's error handler).

export class HttpError extends Error {
  readonly status: number;
  /** A message key in locales/ for the page, or a plain message for the API. */
  readonly messageKey: string | undefined;
  constructor(status: number, message: string, messageKey?: string) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.messageKey = messageKey;
  }
}

export function notFound(what = 'This page could not be found'): HttpError {
  return new HttpError(404, what, 'errors.notFound');
}

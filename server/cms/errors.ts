// Every way a CMS call can fail, as one typed error. Callers degrade on it (default branding,
// stale content) and log the reason; messages name the method and path, never a credential.

export type CmsErrorReason = 'timeout' | 'unreachable' | 'status' | 'malformed';

export class CmsError extends Error {
  readonly reason: CmsErrorReason;
  /** The CMS's HTTP status when it answered (reason 'status', or a 2xx with a bad body). */
  readonly status: number | null;
  constructor(reason: CmsErrorReason, message: string, status: number | null = null, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CmsError';
    this.reason = reason;
    this.status = status;
  }
}

export function isCmsError(error: unknown): error is CmsError {
  return error instanceof CmsError;
}

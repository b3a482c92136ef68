// The built-in API (docs/specification.md §14), mounted at /api when API_URL is unset: one router per
// resource (each `(deps, auth) => Router`), composed here with what they all share — no caching
// of any answer, a query parameter given once, Bearer-token auth, a JSON 405 with `Allow` for a method a path lacks, a JSON 404
// and one error handler answering {error: {code, message, fields?}}. The contract is docs/openapi.json (a test keeps the two in step).
import { companyRoutes } from './company.ts';
import express, { type ErrorRequestHandler } from 'express';
import { INVALID_CREDENTIALS } from '../auth/backend.ts';
import { isDatabaseUnavailable } from '../db/index.ts';
import { ApiError, BusyError, TooManyAttemptsError } from '../http/errors.ts';
import { givenOnce, repeatedParameter } from '../http/query-once.ts';
import { adminAuditRoutes } from './admin-audit.ts';
import { adminBrandingRoutes } from './admin-branding.ts';
import { adminDeletionRoutes } from './admin-deletions.ts';
import { adminMessageRoutes } from './admin-messages.ts';
import { adminUserRoutes } from './admin-users.ts';
import { createApiAuth, type ApiDeps } from './http.ts';
import { imageRoutes } from './images.ts';
import { meRoutes } from './me.ts';
import { allowedMethods } from './method-not-allowed.ts';
import { notificationRoutes } from './notifications.ts';
import { projectRoutes } from './projects.ts';

export type { ApiDeps } from './http.ts';

export function createApiRouter(deps: ApiDeps) {
  const router = express.Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'private, no-store');
    next();
  });
  const methods = allowedMethods(router);
  router.use(methods.options);
  // A parameter given twice is refused before any route reads one of its values (http/query-once.ts).
  router.use((req, _res, next) => {
    const repeated = repeatedParameter(req.query);
    if (!repeated) return next();
    next(new ApiError(400, 'invalid_request', `Invalid request: ${givenOnce(repeated)}.`, { [repeated]: givenOnce(repeated) }));
  });
  const auth = createApiAuth(deps);
  for (const resource of [
    meRoutes,
    imageRoutes,
    adminUserRoutes,
    adminMessageRoutes,
    adminBrandingRoutes,
    projectRoutes,
    adminAuditRoutes,
    companyRoutes,
    notificationRoutes,
  ])
    router.use(resource(deps, auth));
  router.use(adminDeletionRoutes(deps, auth));

  router.use(methods.notAllowed);
  router.use((req, _res, next) => next(new ApiError(404, 'not_found', `No API route ${req.method} /api${req.path}`)));

  const onError: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    let apiError: ApiError;
    if (error instanceof ApiError) apiError = error;
    else if (error && typeof error === 'object' && 'type' in error && (error as { type: string }).type === 'entity.too.large') {
      apiError = new ApiError(413, 'payload_too_large', 'The request body is too large');
    } else if (error && typeof error === 'object' && 'type' in error && (error as { type: string }).type === 'entity.parse.failed') {
      apiError = new ApiError(400, 'invalid_json', 'The request body is not valid JSON');
    } else if (
      error &&
      typeof error === 'object' &&
      'status' in error &&
      typeof (error as { status: unknown }).status === 'number' &&
      (error as { status: number }).status < 500
    ) {
      apiError = new ApiError((error as { status: number }).status, 'bad_request', 'The request could not be read');
    } else if (isDatabaseUnavailable(error)) {
      deps.logger.warn({ err: error }, 'database unavailable: 503');
      apiError = new ApiError(503, 'database_unavailable', 'The database is not available: try again in a moment');
    } else {
      deps.logger.error({ err: error }, 'API request failed');
      apiError = new ApiError(500, 'internal', 'Internal error');
    }
    if (apiError.status === 401 && apiError.code !== INVALID_CREDENTIALS) res.set('WWW-Authenticate', 'Bearer');
    if (apiError instanceof TooManyAttemptsError || apiError instanceof BusyError) res.set('Retry-After', String(apiError.retryAfter));
    res
      .status(apiError.status)
      .json({ error: { code: apiError.code, message: apiError.message, ...(apiError.fields ? { fields: apiError.fields } : {}) } });
  };
  router.use(onError);
  return router;
}

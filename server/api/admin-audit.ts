// The audit log for admins: who did what to whom and when, newest first, filtered by action,
// user (as actor or target, or either) and days, in pages.
import express, { type Router } from 'express';
import { auditQuery, filterOf } from '../audit/query.ts';
import { handle, parse, type ApiAuth, type ApiDeps } from './http.ts';

/** What these routes use of the API's dependencies. */
type Uses = Pick<ApiDeps, 'auditLog'>;

export function adminAuditRoutes(deps: Uses, auth: ApiAuth): Router {
  const { authenticated, requireScope } = auth;
  const router = express.Router();

  router.get(
    '/admin/audit',
    authenticated,
    // Reading the log: ADMIN, or the scope audit:read (docs/decisions/053).
    requireScope('audit:read'),
    handle(async (req, res) => {
      const { page, pageSize, ...filter } = parse(auditQuery, req.query);
      res.json(await deps.auditLog.list(filterOf(filter), { page, pageSize }));
    }),
  );
  return router;
}

// The admin console's account deletion requests: the pending ones, and an admin's answer —
// confirm (the account is erased: server/my-account/erase.ts) or refuse (the user sees it).
import express, { type Router } from 'express';
import { noAudit } from '../audit/types.ts';
import { ApiError } from '../http/errors.ts';
import { deletionRequestsQuery } from './schemas.ts';
import { handle, parse, type ApiAuth, type ApiDeps } from './http.ts';

/** What these routes use of the API's dependencies. */
type Uses = Pick<ApiDeps, 'audit' | 'deletions' | 'logger'>;

export function adminDeletionRoutes(deps: Uses, auth: ApiAuth): Router {
  const { authenticated, requireAdmin, userOf } = auth;
  const audit = deps.audit ?? noAudit;
  const router = express.Router();
  const deletions = () => {
    if (!deps.deletions) throw new ApiError(404, 'not_found', 'This site does not keep the accounts: it cannot delete them');
    return deps.deletions;
  };

  router.get(
    '/admin/deletion-requests',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      res.json(await deletions().pending(parse(deletionRequestsQuery, req.query)));
    }),
  );

  router.post(
    '/admin/deletion-requests/:userName/confirm',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const admin = userOf(res).userName;
      const deleted = await deletions().confirm(admin, String(req.params.userName));
      // The audit keeps the name of the account that is gone: who deleted whom, and when.
      await audit.record({
        action: 'user_deleted',
        actor: admin,
        target: deleted.userName,
        ip: req.ip ?? null,
        detail: { role: deleted.role },
      });
      deps.logger.info({ admin, userName: deleted.userName }, 'account deleted');
      res.json({ deleted: deleted.userName });
    }),
  );

  router.post(
    '/admin/deletion-requests/:userName/refuse',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const admin = userOf(res).userName;
      const userName = String(req.params.userName);
      await deletions().refuse(admin, userName);
      await audit.record({
        action: 'deletion_requested',
        actor: admin,
        target: userName,
        ip: req.ip ?? null,
        detail: { request: 'refused' },
      });
      res.json({ refused: userName });
    }),
  );
  return router;
}

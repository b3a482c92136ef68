// The admin console's users: list, create, change role or status, set a password.
import express, { type Router } from 'express';
import { defaultLocale } from '../../shared/locales.ts';
import { ApiError } from '../http/errors.ts';
import * as users from '../users/users.ts';
import { listQuery, newUserBody, resetPasswordBody, updateUserBody } from './schemas.ts';
import { handle, parse, type ApiAuth, type ApiDeps } from './http.ts';

export function adminUserRoutes(deps: ApiDeps, auth: ApiAuth): Router {
  const { db } = deps;
  const { authenticated, requireAdmin, json, userOf } = auth;
  const router = express.Router();

  // Admin: every route checks the role on the server.
  router.get(
    '/admin/users',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const query = parse(listQuery, req.query);
      res.json(await users.listUsers(db, query));
    }),
  );

  router.post(
    '/admin/users',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      const { invite, locale, ...body } = parse(newUserBody, req.body);
      if (invite) {
        // The user chooses their password from an e-mailed link (or one the admin passes on).
        if (body.password !== undefined) {
          throw new ApiError(400, 'invalid_request', 'Invalid request: give a password or invite: true, not both', {
            password: 'adminConsole.create.passwordWithInvite',
          });
        }
        if (!deps.accounts) throw new ApiError(501, 'not_implemented', 'Invitations need the built-in API');
        const { password: _none, ...input } = body;
        const actor = { userName: userOf(res).userName, ip: req.ip ?? null };
        const { user, invitation } = await deps.accounts.invite(actor, input, locale ?? defaultLocale);
        deps.logger.info({ admin: actor.userName, userName: user.userName, role: user.role }, 'user invited');
        res.status(201).json({ user: users.publicUser(user), invitation });
        return;
      }
      const password = body.password ?? users.randomPassword();
      const user = await users.createUser(db, { ...body, password });
      deps.logger.info({ admin: userOf(res).userName, userName: user.userName, role: user.role }, 'user created');
      res.status(201).json(body.password ? { user: users.publicUser(user) } : { user: users.publicUser(user), password });
    }),
  );

  router.patch(
    '/admin/users/:userName',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      const body = parse(updateUserBody, req.body);
      const target = String(req.params.userName);
      if (target.toLowerCase() === userOf(res).userName.toLowerCase() && (body.disabled === true || (body.role && body.role !== 'ADMIN'))) {
        throw new ApiError(409, 'self_lockout', 'Administrators cannot disable themselves or drop their own ADMIN role');
      }
      let user = await users.findUser(db, target);
      if (!user) throw new ApiError(404, 'user_not_found', `No user named ${JSON.stringify(target)}`);
      if (body.role) user = await users.setRole(db, target, body.role);
      if (body.disabled !== undefined) user = await users.setDisabled(db, target, body.disabled);
      // A disabled user's sessions end; a new role is what their sessions see from now on.
      if (body.disabled === true) await deps.sessions.endAllOf(target);
      else deps.sessions.forgetUser(target);
      deps.logger.info({ admin: userOf(res).userName, userName: target, ...body }, 'user updated');
      res.json({ user: users.publicUser(user) });
    }),
  );

  router.post(
    '/admin/users/:userName/password',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      const body = parse(resetPasswordBody, req.body ?? {});
      const password = body.password ?? users.randomPassword();
      const user = await users.setPassword(db, String(req.params.userName), password);
      await deps.sessions.endAllOf(user.userName);
      deps.logger.info({ admin: userOf(res).userName, userName: user.userName }, 'password reset');
      res.json(body.password ? { user: users.publicUser(user) } : { user: users.publicUser(user), password });
    }),
  );
  router.post(
    '/admin/users/:userName/invitation',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      if (!deps.accounts) throw new ApiError(501, 'not_implemented', 'Invitations need the built-in API');
      const actor = { userName: userOf(res).userName, ip: req.ip ?? null };
      const { user, invitation } = await deps.accounts.resendInvitation(actor, String(req.params.userName));
      res.json({ user: users.publicUser(user), invitation });
    }),
  );
  return router;
}

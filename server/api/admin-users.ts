// The admin console's users: list, create, change role or status, set a password, end their
// sessions. Every change is recorded in the audit log.
import { canonicalIdentity } from '../../shared/identity.ts';
import express, { type Router } from 'express';
import { noAudit, type Audit, type AuditDetail } from '../audit/types.ts';
import { defaultLocale } from '../../shared/locales.ts';
import { ApiError } from '../http/errors.ts';
import * as users from '../users/users.ts';
import { adminNewUserBody, listQuery, resetPasswordBody, updateUserBody } from './schemas.ts';
import { handle, parse, type ApiAuth, type ApiDeps } from './http.ts';

/** What these routes use of the API's dependencies. */
type Uses = Pick<ApiDeps, 'accounts' | 'audit' | 'db' | 'logger' | 'sessions' | 'verify'>;

export function adminUserRoutes(deps: Uses, auth: ApiAuth): Router {
  const { db } = deps;
  const { authenticated, requireAdmin, json, userOf, tokenOf } = auth;
  const audit = deps.audit ?? noAudit;
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
      const { invite, locale, ...body } = parse(adminNewUserBody, req.body);
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
      await audit.record({
        action: 'user_created',
        actor: userOf(res).userName,
        target: user.userName,
        ip: req.ip ?? null,
        detail: { role: user.role, passwordGenerated: !body.password },
      });
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
      if (canonicalIdentity(target) === userOf(res).userName && (body.disabled === true || (body.role && body.role !== 'ADMIN'))) {
        throw new ApiError(409, 'self_lockout', 'Administrators cannot disable themselves or drop their own ADMIN role');
      }
      const before = await users.findUser(db, target);
      if (!before) throw new ApiError(404, 'user_not_found', `No user named ${JSON.stringify(target)}`);
      let user = before;
      if (body.role) user = await users.setRole(db, target, body.role);
      if (body.disabled !== undefined) user = await users.setDisabled(db, target, body.disabled);
      if (body.scope) user = await users.setScopes(db, target, body.scope);
      // A disabled user's sessions end; a new role or scope is what their sessions see from now on.
      const sessionsEnded = body.disabled === true ? await deps.sessions.endAllOf(target) : 0;
      if (body.disabled !== true) deps.sessions.forgetUser(target);
      deps.logger.info({ admin: userOf(res).userName, userName: target, ...body }, 'user updated');
      await recordChanges(audit, { actor: userOf(res).userName, target: user.userName, ip: req.ip ?? null }, before, user, sessionsEnded);
      res.json({ user: users.publicUser(user) });
    }),
  );

  router.post(
    '/admin/users/:userName/password',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      // Setting one's own password here would end the session in use and skip the current
      // password: an admin changes their own on their profile, like anyone.
      if (canonicalIdentity(String(req.params.userName)) === userOf(res).userName) {
        throw new ApiError(409, 'self_password', 'Administrators change their own password on their profile, not here');
      }
      const body = parse(resetPasswordBody, req.body ?? {});
      const password = body.password ?? users.randomPassword();
      const user = await users.setPassword(db, String(req.params.userName), password);
      const sessionsEnded = await deps.sessions.endAllOf(user.userName);
      deps.logger.info({ admin: userOf(res).userName, userName: user.userName }, 'password reset');
      await audit.record({
        action: 'password_set',
        actor: userOf(res).userName,
        target: user.userName,
        ip: req.ip ?? null,
        detail: { generated: !body.password, sessionsEnded },
      });
      res.json(body.password ? { user: users.publicUser(user) } : { user: users.publicUser(user), password });
    }),
  );

  // Ends every session of the user, on every instance (their next request is signed out). An
  // admin ending their own keeps the one they are using: the rest of the console goes on working.
  router.delete(
    '/admin/users/:userName/sessions',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const target = String(req.params.userName);
      const user = await users.findUser(db, target);
      if (!user) throw new ApiError(404, 'user_not_found', `No user named ${JSON.stringify(target)}`);
      const admin = userOf(res).userName;
      const self = user.userName === admin;
      const current = self ? (await deps.verify(tokenOf(req))).sid : undefined;
      const ended = await deps.sessions.endAllOf(user.userName, current);
      deps.logger.info({ admin, userName: user.userName, ended }, 'sessions ended');
      await audit.record({
        action: 'sessions_ended',
        actor: admin,
        target: user.userName,
        ip: req.ip ?? null,
        detail: { count: ended, ...(current ? { keptCurrent: true } : {}) },
      });
      res.json({ user: users.publicUser(user), ended });
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

/** The audit's lines of an admin's change to a user: its role, scopes and status, each when it changed. */
async function recordChanges(
  audit: Audit,
  who: { actor: string; target: string; ip: string | null },
  before: users.User,
  after: users.User,
  sessionsEnded: number,
): Promise<void> {
  if (after.role !== before.role) await audit.record({ action: 'role_changed', ...who, detail: { from: before.role, to: after.role } });
  if (after.scope.join(',') !== before.scope.join(',')) {
    await audit.record({ action: 'scope_changed', ...who, detail: { from: before.scope.join(', '), to: after.scope.join(', ') } });
  }
  if (after.disabled !== before.disabled) {
    const detail: AuditDetail<'status_changed'> = after.disabled ? { status: 'disabled', sessionsEnded } : { status: 'enabled' };
    await audit.record({ action: 'status_changed', ...who, detail });
  }
}

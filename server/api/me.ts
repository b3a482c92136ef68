// Signing in (POST /login: a token of a new session) and the signed-in user's own account.
import express, { type Router } from 'express';
import { noAudit } from '../audit/types.ts';
import { INVALID_CREDENTIALS } from '../auth/backend.ts';
import { ApiError } from '../http/errors.ts';
import * as users from '../users/users.ts';
import { loginBody, passwordBody, profileBody } from './schemas.ts';
import { handle, parse, type ApiAuth, type ApiDeps } from './http.ts';
import { IMAGE_MAX_BYTES } from '../../shared/uploads.ts';

/** What these routes use of the API's dependencies. */
type Uses = Pick<ApiDeps, 'audit' | 'backend' | 'currentPasswordGuard' | 'loginGuard' | 'sessions' | 'twoFactor' | 'verify'>;

export function meRoutes(deps: Uses, auth: ApiAuth): Router {
  const { backend } = deps;
  const { authenticated, json, userOf, tokenOf } = auth;
  const audit = deps.audit ?? noAudit;
  const router = express.Router();

  router.post(
    '/login',
    json,
    handle(async (req, res) => {
      const body = parse(loginBody, req.body);
      const ip = req.ip ?? null;
      let answer: { token: string };
      try {
        answer = await deps.loginGuard(req, body.identifier, () => backend.login(body.identifier, body.password));
      } catch (error) {
        // A wrong password (not a refusal by the limits): the account tried is what was typed.
        if (error instanceof ApiError && error.code === INVALID_CREDENTIALS)
          await audit.record({ action: 'sign_in_failed', actor: null, target: body.identifier, ip, detail: { via: 'api' } });
        throw error;
      }
      // A user with 2FA sends the code with the password (401 two_factor_required without it): no token otherwise.
      if (deps.twoFactor) await deps.twoFactor.apiSignIn(req, await deps.verify(answer.token), body.code);
      // An API client's token is a session too: logout elsewhere, a disable or a password change end it.
      await deps.sessions.startForBearer(req, answer.token);
      const { userName } = await deps.verify(answer.token);
      await audit.record({ action: 'sign_in', actor: userName, ip, detail: { via: 'api' } });
      res.json(answer);
    }),
  );

  router.get('/me', authenticated, (_req, res) => {
    res.json(users.sessionUserOf(userOf(res)));
  });

  router.patch(
    '/me',
    authenticated,
    json,
    handle(async (req, res) => {
      res.json(await backend.updateProfile(tokenOf(req), parse(profileBody, req.body)));
    }),
  );

  router.put(
    '/me/avatar',
    authenticated,
    express.raw({ type: () => true, limit: IMAGE_MAX_BYTES }),
    handle(async (req, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      res.json(await backend.setAvatar(tokenOf(req), body, req.get('content-type') ?? ''));
    }),
  );

  router.post(
    '/me/password',
    authenticated,
    json,
    handle(async (req, res) => {
      const body = parse(passwordBody, req.body);
      const { userName } = userOf(res);
      // A wrong current password is a guess: counted, and answered before the new one is judged.
      const answer = await deps.currentPasswordGuard(req, userName, () =>
        backend.changePassword(tokenOf(req), body.currentPassword, body.newPassword),
      );
      await audit.record({ action: 'password_changed', actor: userName, ip: req.ip ?? null, detail: { via: 'api' } });
      res.json(answer);
    }),
  );
  return router;
}

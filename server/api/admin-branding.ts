// Branding of CLI and ORG users in embedded mode (with a CMS it is edited there).
import express, { type Router } from 'express';
import { ApiError } from '../http/errors.ts';
import { BRANDABLE_ROLES, isBrandable } from '../../shared/user.ts';
import * as users from '../users/users.ts';
import { brandingBody } from './schemas.ts';
import { handle, parse, type ApiAuth, type ApiDeps } from './http.ts';
import { IMAGE_MAX_BYTES } from '../../shared/uploads.ts';

/** What these routes use of the API's dependencies. */
type Uses = Pick<ApiDeps, 'branding' | 'brandingInCms' | 'db' | 'logger' | 'uploads'>;

export function adminBrandingRoutes(deps: Uses, auth: ApiAuth): Router {
  const { db } = deps;
  const { authenticated, requireAdmin, json, userOf } = auth;
  const router = express.Router();

  // Branding of CLI and ORG users (embedded mode; with a CMS it is edited there).
  const requireBrandable = async (userName: string) => {
    if (deps.brandingInCms) {
      throw new ApiError(409, 'branding_in_cms', 'Branding is managed in the CMS (the {username}-customs collections), not here');
    }
    const user = await users.findUser(db, userName);
    if (!user) throw new ApiError(404, 'user_not_found', `No user named ${JSON.stringify(userName)}`);
    if (!isBrandable(user.role)) {
      throw new ApiError(
        409,
        'not_brandable',
        `Branding applies to ${BRANDABLE_ROLES.join(' and ')} users; ${user.userName} is ${user.role}`,
      );
    }
    return user;
  };
  router.get(
    '/admin/branding/:userName',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const user = await requireBrandable(String(req.params.userName));
      res.json({ userName: user.userName, branding: await deps.branding.getBranding(user.userName) });
    }),
  );
  router.put(
    '/admin/branding/:userName',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      const user = await requireBrandable(String(req.params.userName));
      const body = parse(brandingBody, req.body);
      const branding = await deps.branding.setBranding(user.userName, { color: body.color });
      deps.logger.info({ admin: userOf(res).userName, userName: user.userName, color: body.color }, 'branding updated');
      res.json({ userName: user.userName, branding });
    }),
  );
  router.put(
    '/admin/branding/:userName/logo',
    authenticated,
    requireAdmin,
    express.raw({ type: () => true, limit: IMAGE_MAX_BYTES }),
    handle(async (req, res) => {
      const user = await requireBrandable(String(req.params.userName));
      const image = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const logo = await deps.uploads.save('branding-logos', image, {
        owner: user.userName,
        uploader: userOf(res).userName,
        replacing: (await deps.branding.getBranding(user.userName))?.logo ?? null,
      });
      const { branding, previous } = await deps.branding.replaceLogo(user.userName, logo);
      await deps.uploads.remove(previous);
      deps.logger.info({ admin: userOf(res).userName, userName: user.userName }, 'branding logo updated');
      res.json({ userName: user.userName, branding });
    }),
  );
  router.delete(
    '/admin/branding/:userName/logo',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const user = await requireBrandable(String(req.params.userName));
      const { branding, previous } = await deps.branding.replaceLogo(user.userName, null);
      await deps.uploads.remove(previous);
      res.json({ userName: user.userName, branding });
    }),
  );
  return router;
}

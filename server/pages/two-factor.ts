// The code asked after a right password of a user with two-factor authentication (/login/code):
// no session until it is right (server/two-factor/forms.ts).
import type { PageAction, PageLoader } from '../render/page-module.ts';

export const loader = (async ({ secondFactorPending }) => ({ data: { pending: secondFactorPending } })) satisfies PageLoader;

export const action: PageAction = async ({ req, res, route, services, next }) => {
  if (!services.forms.twoFactor) return next();
  await services.forms.twoFactor.codePage(req, res, route);
};

// The code asked after a right password of a user with two-factor authentication (/login/code):
// no session until it is right (server/two-factor/forms.ts).
import type { PageAction, PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = { forms: Pick<PageServices['forms'], 'twoFactor'> };

export const loader = (async ({ secondFactorPending }) => ({ data: { pending: secondFactorPending } })) satisfies PageLoader<unknown, Uses>;

export const action: PageAction<Uses> = async ({ req, res, route, services, next }) => {
  if (!services.forms.twoFactor) return next();
  await services.forms.twoFactor.codePage(req, res, route);
};

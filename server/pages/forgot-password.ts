// Forgotten password: the same answer for every identifier (server/account-links/forms.ts).
import type { PageAction, PageLoader } from '../render/page-module.ts';

export const loader = (async ({ services }) => ({
  data: { available: services.accountPages?.resetAvailable ?? false },
})) satisfies PageLoader;

export const action: PageAction = async ({ req, res, route, services, next }) => {
  if (!services.forms.links) return next();
  await services.forms.links.forgotPassword(req, res, route);
};

// Forgotten password: the same answer for every identifier (server/account-links/forms.ts).
import type { PageAction, PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'accountPages'> & { forms: Pick<PageServices['forms'], 'links'> };

export const loader = (async ({ services }) => ({
  data: { available: services.accountPages?.resetAvailable ?? false },
})) satisfies PageLoader<unknown, Uses>;

export const action: PageAction<Uses> = async ({ req, res, route, services, next }) => {
  if (!services.forms.links) return next();
  await services.forms.links.forgotPassword(req, res, route);
};

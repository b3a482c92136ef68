// The signed-in user's two-factor set-up (/profile/twoFactor): turn it on, new recovery codes, turn it off.
import { notFound } from '../http/errors.ts';
import { requireSession, type PageAction, type PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'twoFactor'> & { forms: Pick<PageServices['forms'], 'twoFactor'> };

export const loader = (async (args) => {
  if (!args.services.twoFactor) throw notFound();
  return { data: await args.services.twoFactor.view(requireSession(args).user) };
}) satisfies PageLoader<unknown, Uses>;

export const action: PageAction<Uses> = async ({ req, res, route, session, services, next }) => {
  if (!services.forms.twoFactor) return next();
  if (session) await services.forms.twoFactor.setupPage(req, res, route, session);
};

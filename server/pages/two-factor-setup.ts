// The signed-in user's two-factor set-up (/profile/twoFactor): turn it on, new recovery codes, turn it off.
import { notFound } from '../http/errors.ts';
import { requireSession, type PageAction, type PageLoader } from '../render/page-module.ts';

export const loader = (async (args) => {
  if (!args.services.twoFactor) throw notFound();
  return { data: await args.services.twoFactor.view(requireSession(args).user) };
}) satisfies PageLoader;

export const action: PageAction = async ({ req, res, route, session, services, next }) => {
  if (!services.forms.twoFactor) return next();
  if (session) await services.forms.twoFactor.setupPage(req, res, route, session);
};

// The page an invitation's link opens: the invited user chooses a password and lands signed in.
// The link is the proof, not a session: its form, or why it does not work (404 unknown, 410 spent).
import { notFound } from '../http/errors.ts';
import type { PageAction, PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'accountPages'> & { forms: Pick<PageServices['forms'], 'links'> };

export const loader = (async ({ services, linkToken }) => {
  if (!services.accountPages) throw notFound();
  const { data, status } = await services.accountPages.linkPage('invitation', linkToken);
  return { data, meta: { status } };
}) satisfies PageLoader<unknown, Uses>;

export const action: PageAction<Uses> = async ({ req, res, route, services, next }) => {
  if (!services.forms.links) return next();
  await services.forms.links.invitation(req, res, route);
};

// The page an e-mail change's link opens (sent to the new address): confirming switches the account to it.
// The link is the proof, not a session: its form, or why it does not work (404 unknown, 410 spent).
import { notFound } from '../http/errors.ts';
import type { PageAction, PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'accountPages'> & { forms: Pick<PageServices['forms'], 'links'> };

export const loader = (async ({ services, linkToken }) => {
  if (!services.accountPages) throw notFound();
  const { data, status } = await services.accountPages.linkPage('email_change', linkToken);
  return { data, meta: { status } };
}) satisfies PageLoader<unknown, Uses>;

export const action: PageAction<Uses> = async ({ req, res, route, services, next }) => {
  if (!services.forms.links) return next();
  await services.forms.links.confirmEmail(req, res, route);
};

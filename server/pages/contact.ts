// The contact page: its form's signed fill-time token, and the form itself (server/contact/form.ts).
import type { PageAction, PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'formTokens'> & { forms: Pick<PageServices['forms'], 'contact'> };

export const loader = (async ({ services }) => ({ data: { formToken: services.formTokens.issue() } })) satisfies PageLoader<unknown, Uses>;

export const action: PageAction<Uses> = ({ req, res, route, services }) => services.forms.contact(req, res, route);

// The contact page: its form's signed fill-time token, and the form itself (server/contact/form.ts).
import type { PageAction, PageLoader } from '../render/page-module.ts';

export const loader = (async ({ services }) => ({ data: { formToken: services.formTokens.issue() } })) satisfies PageLoader;

export const action: PageAction = ({ req, res, route, services }) => services.forms.contact(req, res, route);

// A new brief, written in the owner's area (/client/projects/new, /organization/projects/new).
import { noData, type PageAction } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = { forms: Pick<PageServices['forms'], 'projects'> };

export const loader = noData;

export const action: PageAction<Uses> = async ({ req, res, route, session, services }) => {
  if (session) await services.forms.projects.newBrief(req, res, route, session);
};

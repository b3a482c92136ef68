// The expert's area (/expert): their projects and their profile of expertise (its form).
import { hasRole } from '../../shared/user.ts';
import { areaProjects } from '../projects/area.ts';
import { requireSession, type PageAction, type PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'projects'> & { forms: Pick<PageServices['forms'], 'projects'> };

export const loader = (async (args) => {
  const actor = requireSession(args).user;
  const { projects } = args.services;
  // The lists stream when the database is slow (server/render/streamed.ts). An admin may look at
  // the expert area (the role guard lets admins pass): no profile of theirs.
  const lists = areaProjects(projects, actor, args.query);
  const expertise = hasRole(actor, 'CONS') ? await projects.expertise.mine(actor) : null;
  return { data: { lists, expertise } };
}) satisfies PageLoader<unknown, Uses>;

export const action: PageAction<Uses> = async ({ req, res, route, session, services }) => {
  if (session) await services.forms.projects.expertProfile(req, res, route, session);
};

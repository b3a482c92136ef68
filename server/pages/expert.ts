// The expert's area (/expert): their projects and their profile of expertise (its form).
import { hasRole } from '../../shared/user.ts';
import { areaProjects } from '../projects/area.ts';
import { requireSession, type PageAction, type PageLoader } from '../render/page-module.ts';

export const loader = (async (args) => {
  const actor = requireSession(args).user;
  const { projects } = args.services;
  // An admin may look at the expert area (the role guard lets admins pass): no profile of theirs.
  const [list, expertise] = await Promise.all([
    areaProjects(projects, actor, args.query),
    hasRole(actor, 'CONS') ? projects.expertise.mine(actor) : null,
  ]);
  return { data: { ...list, expertise } };
}) satisfies PageLoader;

export const action: PageAction = async ({ req, res, route, session, services }) => {
  if (session) await services.forms.projects.expertProfile(req, res, route, session);
};

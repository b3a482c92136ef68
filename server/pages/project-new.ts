// A new brief, written in the owner's area (/client/projects/new, /organization/projects/new).
import { noData, type PageAction } from '../render/page-module.ts';

export const loader = noData;

export const action: PageAction = async ({ req, res, route, session, services }) => {
  if (session) await services.forms.projects.newBrief(req, res, route, session);
};

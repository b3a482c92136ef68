// The client's area (/client): what waits for them, then their projects.
import { areaProjects } from '../projects/area.ts';
import { requireSession, type PageLoader } from '../render/page-module.ts';

// The lists stream when the database is slow (server/render/streamed.ts).
export const loader = (async (args) => ({
  data: { lists: areaProjects(args.services.projects, requireSession(args).user, args.query) },
})) satisfies PageLoader;

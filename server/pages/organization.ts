// The organisation's area (/organization): what waits for them, then their projects.
import { areaProjects } from '../projects/area.ts';
import { requireSession, type PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'projects'>;

// The lists stream when the database is slow (server/render/streamed.ts).
export const loader = (async (args) => ({
  data: { lists: areaProjects(args.services.projects, requireSession(args).user, args.query) },
})) satisfies PageLoader<unknown, Uses>;

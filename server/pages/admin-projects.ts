// The admin console's projects (/admin/projects): what waits for the company first, then every
// project, filtered and paged by the URL's query (`?status=&practice=&q=&page=`).
import { areaProjects } from '../projects/area.ts';
import { requireSession, type PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'projects'>;

export const loader = (async (args) => {
  const session = requireSession(args);
  // Streams when the database is slow (server/render/streamed.ts).
  const pipeline = areaProjects(args.services.projects, session.user, args.query);
  return { data: { pipeline } };
}) satisfies PageLoader<unknown, Uses>;

// The admin console's branding (/admin/branding): the users as on the users page (`?q=&page=`),
// and `?user=` the one whose editor opens at once (a link from the users page's row menu, which
// searches for that user when no search is given).
import { requireSession, type PageLoader } from '../render/page-module.ts';
import { usersOfQuery } from './admin-users.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'backend'>;

export const loader = (async (args) => {
  requireSession(args);
  const chosen = args.query.get('user')?.trim().slice(0, 100) || null;
  const query = new URLSearchParams(args.query);
  if (chosen && !query.get('q')) query.set('q', chosen);
  return { data: { ...(await usersOfQuery({ ...args, query })), chosen } };
}) satisfies PageLoader<unknown, Uses>;

// The admin console's home (/admin): what waits for the admin — projects waiting for an answer,
// unread contact messages, pending deletion requests — as counts linking to their pages
// (/admin/projects, /admin/inbox, /admin/deletions). Each count is one light read; a count that
// cannot be read (an external API has no deletion requests) is null.
import { requireSession, type PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'account' | 'inbox' | 'projects'>;

/** How many waiting projects the home counts at most ("10 or more"). */
export const WAITING_COUNTED = 10;

export const loader = (async (args) => {
  const { user } = requireSession(args);
  const { projects, inbox, account } = args.services;
  const [waiting, unread, deletions] = await Promise.all([
    projects.projects.waiting(user, WAITING_COUNTED).then((items) => items.length),
    inbox ? inbox.count().then((counts) => counts.unread) : null,
    account?.deletions ? account.deletions.pending({ page: 1, pageSize: 1 }).then((page) => page.total) : null,
  ]);
  return { data: { waiting, waitingMax: WAITING_COUNTED, unread, deletions } };
}) satisfies PageLoader<unknown, Uses>;

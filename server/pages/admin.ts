// The admin console's home (/admin): what waits for the admin — projects waiting for an answer,
// unread contact messages, pending deletion requests — as counts linking to their pages
// (/admin/projects, /admin/inbox, /admin/deletions). Each count is one light read; a count that
// cannot be read (an external API has no deletion requests) is null. Above them, a line for each
// job whose last run failed and one when e-mail is stuck in the outbox (MAIL_STUCK_AFTER_MS,
// docs/operating.md "Metrics"), so that an admin who does not watch /metrics learns of it too.
import { requireSession, type PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'account' | 'inbox' | 'projects' | 'operations'>;

/** How many waiting projects the home counts at most ("10 or more"). */
export const WAITING_COUNTED = 10;

export const loader = (async (args) => {
  const { user } = requireSession(args);
  const { projects, inbox, account, operations } = args.services;
  const [waiting, unread, deletions, failedJobs, stuck] = await Promise.all([
    projects.projects.waiting(user, WAITING_COUNTED).then((items) => items.length),
    inbox ? inbox.count().then((counts) => counts.unread) : null,
    account?.deletions ? account.deletions.pending({ page: 1, pageSize: 1 }).then((page) => page.total) : null,
    operations.failedJobs(),
    operations.stuckMail(),
  ]);
  const stuckMail = stuck ? { count: stuck.count, minutes: Math.floor(stuck.oldestMs / 60_000) } : null;
  return { data: { waiting, waitingMax: WAITING_COUNTED, unread, deletions, failedJobs, stuckMail } };
}) satisfies PageLoader<unknown, Uses>;

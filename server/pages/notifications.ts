// The notification centre's page (docs/decisions/042): the signed-in user's
// notifications a page at a time, newest first (`?before=<id>`: the older ones), each linking to
// its project; marked read one by one or all at once — forms that work without JavaScript.
import { z } from 'zod';
import { cursorOf, idOf } from '../../shared/paging.ts';
import { routePath } from '../../shared/routes.ts';
import { ApiError } from '../http/errors.ts';
import { redirectAfterPost } from '../http/form-answers.ts';
import { requireSession, type PageAction, type PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'notifications'>;

export const NOTIFICATIONS_BEFORE_PARAM = 'before';

export const loader = (async (args) => {
  const session = requireSession(args);
  const before = cursorOf(args.query.get(NOTIFICATIONS_BEFORE_PARAM));
  const service = args.services.notifications;
  const page = service
    ? await service.page(session.user.userName, { before })
    : { items: [], total: 0, pageSize: 0, before, nextBefore: null, unread: 0 };
  return { data: { page } };
}) satisfies PageLoader<unknown, Uses>;

const markForm = z.union([
  z.object({ intent: z.literal('readAll') }),
  z.object({ intent: z.literal('read'), id: z.string().transform((value, ctx) => idOf(value) ?? (ctx.addIssue('not an id'), z.NEVER)) }),
]);

export const action: PageAction<Uses> = async ({ req, res, route, session, services, failWith }) => {
  if (!session || !services.notifications) return;
  const parsed = markForm.safeParse(req.body ?? {});
  const back = routePath('notifications', route);
  if (!parsed.success) {
    return failWith(req, res, 'notifications', new ApiError(400, 'invalid_request', 'Say which notification to mark read'), {});
  }
  const form = parsed.data;
  await services.notifications.markRead(session.user.userName, form.intent === 'readAll' ? 'all' : [form.id]);
  // Where the reader was: the same page of the list.
  const before = cursorOf(new URLSearchParams(req.originalUrl.split('?')[1] ?? '').get(NOTIFICATIONS_BEFORE_PARAM));
  redirectAfterPost(req, res, `${back}?${before ? `before=${before}&` : ''}done=${form.intent}`, form.intent);
};

// The admin console's contact inbox (/admin/inbox): the page of the URL's view and number
// (`?status=new&page=2`), and the message it opens (`&message=12`: opening it marks it read),
// rendered on the server so that the list, its filter and its pager work without JavaScript.
// Its forms — reply, archive or take back, mark unread, delete — are plain posts to the page
// (answered as JSON with JavaScript, with a 303 without it), for admins only.
import { z } from 'zod';
import {
  INBOX_MESSAGE_ANCHOR,
  INBOX_QUERY_PARAMS,
  inboxQuery,
  isInboxView,
  REPLY_MAX_LENGTH,
  type InboxPage,
  type InboxView,
} from '../../shared/contact.ts';
import { idOf, pageSizeOf } from '../../shared/paging.ts';
import { routePath } from '../../shared/routes.ts';
import { hasRole } from '../../shared/user.ts';
import { messageNotFound, replyProblem } from '../contact/replies.ts';
import { ApiError } from '../http/errors.ts';
import { redirectAfterPost } from '../http/form-answers.ts';
import { pageNumber } from '../http/paging.ts';
import { requireSession, type PageAction, type PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'inbox' | 'logger'>;

/** The inbox's forms, by intent. */
export const INBOX_INTENTS = ['reply', 'archive', 'unarchive', 'unread', 'delete'] as const;

function viewOf(value: string | null | undefined): InboxView {
  return isInboxView(value) ? value : 'active';
}

export const loader = (async (args) => {
  requireSession(args);
  const { inbox } = args.services;
  const params = INBOX_QUERY_PARAMS;
  const view = viewOf(args.query.get(params.view));
  const page = pageNumber(args.query, params.page);
  const asked = args.query.get(params.message);
  const id = idOf(asked);
  let found = id === null ? null : await inbox.get(id);
  // Opened: read (the list shows it in bold until then), before the list is read.
  if (found && !found.read) found = (await inbox.setRead(found.id, true)) ?? found;
  const size = { view, pageSize: pageSizeOf('inbox') };
  let list = await inbox.list({ ...size, page });
  // Past the end (the last messages went): the last page.
  const last = Math.max(1, Math.ceil(list.total / list.pageSize));
  if (page > last) list = await inbox.list({ ...size, page: last });
  const open = found
    ? { message: found, replies: await inbox.replies(found.id), confirmDelete: args.query.get(params.confirm) === 'delete' }
    : null;
  const data: InboxPage = { list, view, open, missing: asked !== null && open === null, canReply: inbox.canReply };
  return { data: { inbox: data } };
}) satisfies PageLoader<unknown, Uses>;

const idField = z.string().transform((value, ctx) => idOf(value) ?? (ctx.addIssue('not an id'), z.NEVER));
const inboxForm = z.object({
  intent: z.enum(INBOX_INTENTS),
  id: idField,
  // Where the admin was: the view and page of the list (the form may be posted to the bare path).
  view: z.string().optional(),
  page: z.string().optional(),
  text: z
    .string()
    .max(REPLY_MAX_LENGTH * 2)
    .optional(),
});

export const action: PageAction<Uses> = async ({ req, res, route, session, services, fail, failWith }) => {
  if (!session) return;
  const body = (req.body ?? {}) as Record<string, unknown>;
  const intent = typeof body.intent === 'string' ? body.intent : 'inbox';
  if (!hasRole(session.user, 'ADMIN')) {
    return failWith(req, res, intent, new ApiError(403, 'forbidden', 'Only administrators may do this'), {});
  }
  const parsed = inboxForm.safeParse(body);
  if (!parsed.success)
    return failWith(req, res, intent, new ApiError(400, 'invalid_request', 'Say which message, and what to do with it'), {});
  const form = parsed.data;
  const { inbox } = services;
  const view = viewOf(form.view);
  const page = pageNumber(new URLSearchParams({ page: form.page ?? '1' }));
  // Where the form leaves the admin: the same view and page, the message open or not, what was done.
  const back = (to: { message?: number; done: string }) => {
    const query = new URLSearchParams(inboxQuery({ view, page, message: to.message ?? null }));
    query.set('done', to.done);
    return `${routePath('admin-inbox', route)}?${query.toString()}${to.message ? `#${INBOX_MESSAGE_ANCHOR}` : ''}`;
  };
  try {
    const message = await inbox.get(form.id);
    if (!message) throw messageNotFound(form.id);
    const actor = session.user;
    switch (form.intent) {
      case 'reply': {
        const text = form.text ?? '';
        const problem = replyProblem(text);
        if (problem) {
          return await fail(req, res, 422, {
            form: 'reply',
            values: { text: text.slice(0, REPLY_MAX_LENGTH) },
            error: { code: 'invalid_request', message: 'Check the reply: it is empty or too long', fields: { text: problem } },
          });
        }
        await inbox.reply(message.id, { userName: actor.userName, name: `${actor.name} ${actor.lastName}`.trim() }, text);
        services.logger.info({ admin: actor.userName, messageId: message.id }, 'contact message answered');
        return redirectAfterPost(req, res, back({ message: message.id, done: 'reply' }), 'reply');
      }
      case 'archive':
      case 'unarchive':
        await inbox.setArchived(message.id, form.intent === 'archive');
        return redirectAfterPost(req, res, back({ message: message.id, done: form.intent }), form.intent);
      case 'unread':
        // Back to the list: opening the message again would read it.
        await inbox.setRead(message.id, false);
        return redirectAfterPost(req, res, back({ done: 'unread' }), 'unread');
      case 'delete':
        await inbox.remove(message.id);
        services.logger.info({ admin: actor.userName, messageId: message.id }, 'contact message deleted');
        return redirectAfterPost(req, res, back({ done: 'delete' }), 'delete');
    }
  } catch (error) {
    const values: Record<string, string> = form.intent === 'reply' ? { text: (form.text ?? '').slice(0, REPLY_MAX_LENGTH) } : {};
    return failWith(req, res, form.intent, error, values);
  }
};

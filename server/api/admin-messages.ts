// The admin console's contact inbox: the messages (kept until an admin deletes them), their
// status (new, answered, archived), and the replies sent from the console.
import express, { type Router } from 'express';
import { messageNotFound } from '../contact/replies.ts';
import { idOf } from '../../shared/paging.ts';
import { messagesQuery, messageUpdateBody, replyBody } from './schemas.ts';
import { handle, parse, type ApiAuth, type ApiDeps } from './http.ts';

/** What these routes use of the API's dependencies. */
type Uses = Pick<ApiDeps, 'contact' | 'logger'>;

export function adminMessageRoutes(deps: Uses, auth: ApiAuth): Router {
  const { authenticated, requireAdmin, requireScope, json, userOf } = auth;
  const router = express.Router();
  const { contact } = deps;

  const requireMessage = async (value: unknown) => {
    const id = idOf(String(value));
    const message = id === null ? null : await contact.get(id);
    if (!message) throw messageNotFound(value);
    return message;
  };
  // Reading the inbox: ADMIN, or the scope inbox:read (docs/decisions/053); changing it: ADMIN.
  router.get(
    '/admin/messages',
    authenticated,
    requireScope('inbox:read'),
    handle(async (req, res) => {
      const query = parse(messagesQuery, req.query);
      res.json(
        await contact.list({ page: query.page, pageSize: query.pageSize, unread: query.unread === 'true', view: query.status ?? 'all' }),
      );
    }),
  );
  router.get(
    '/admin/messages/:id',
    authenticated,
    requireScope('inbox:read'),
    handle(async (req, res) => {
      const message = await requireMessage(req.params.id);
      res.json({ message, replies: await contact.replies(message.id) });
    }),
  );
  router.patch(
    '/admin/messages/:id',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      const message = await requireMessage(req.params.id);
      const body = parse(messageUpdateBody, req.body);
      let updated = message;
      if (body.read !== undefined) updated = (await contact.setRead(message.id, body.read)) ?? updated;
      if (body.archived !== undefined) updated = (await contact.setArchived(message.id, body.archived)) ?? updated;
      res.json({ message: updated });
    }),
  );
  // A reply to the sender, by e-mail through the outbox: kept with the message, which is answered.
  router.post(
    '/admin/messages/:id/replies',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      const body = parse(replyBody, req.body);
      const message = await requireMessage(req.params.id);
      const admin = userOf(res);
      const answer = await contact.reply(
        message.id,
        { userName: admin.userName, name: `${admin.name} ${admin.lastName}`.trim() },
        body.text,
      );
      deps.logger.info({ admin: admin.userName, messageId: message.id, replyId: answer.reply.id }, 'contact message answered');
      res.status(201).json(answer);
    }),
  );
  router.delete(
    '/admin/messages/:id',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const message = await requireMessage(req.params.id);
      await contact.remove(message.id);
      deps.logger.info({ admin: userOf(res).userName, messageId: message.id }, 'contact message deleted');
      res.status(204).end();
    }),
  );
  return router;
}

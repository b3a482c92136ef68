// The admin console's contact inbox.
import express, { type Router } from 'express';
import { ApiError } from '../http/errors.ts';
import { messagesQuery, messageUpdateBody } from './schemas.ts';
import { handle, parse, type ApiAuth, type ApiDeps } from './http.ts';

/** What these routes use of the API's dependencies. */
type Uses = Pick<ApiDeps, 'contact' | 'logger'>;

export function adminMessageRoutes(deps: Uses, auth: ApiAuth): Router {
  const { authenticated, requireAdmin, requireScope, json, userOf } = auth;
  const router = express.Router();

  // The contact inbox: messages are kept until an admin deletes them.
  const messageId = (value: unknown) => {
    const id = Number(value);
    if (!Number.isSafeInteger(id) || id < 1) throw new ApiError(404, 'message_not_found', `No message ${JSON.stringify(String(value))}`);
    return id;
  };
  const requireMessage = async (value: unknown) => {
    const message = await deps.contact.get(messageId(value));
    if (!message) throw new ApiError(404, 'message_not_found', `No message ${JSON.stringify(String(value))}`);
    return message;
  };
  // Reading the inbox: ADMIN, or the scope inbox:read (docs/decisions/053); changing it: ADMIN.
  router.get(
    '/admin/messages',
    authenticated,
    requireScope('inbox:read'),
    handle(async (req, res) => {
      const query = parse(messagesQuery, req.query);
      res.json(await deps.contact.list({ page: query.page, pageSize: query.pageSize, unread: query.unread === 'true' }));
    }),
  );
  router.get(
    '/admin/messages/:id',
    authenticated,
    requireScope('inbox:read'),
    handle(async (req, res) => {
      res.json({ message: await requireMessage(req.params.id) });
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
      res.json({ message: await deps.contact.setRead(message.id, body.read) });
    }),
  );
  router.delete(
    '/admin/messages/:id',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const message = await requireMessage(req.params.id);
      await deps.contact.remove(message.id);
      deps.logger.info({ admin: userOf(res).userName, messageId: message.id }, 'contact message deleted');
      res.status(204).end();
    }),
  );
  return router;
}

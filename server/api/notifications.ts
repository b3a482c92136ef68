// The signed-in user's notifications (docs/decisions/042): a page at a time, newest
// first (`before`: older than that id), and marked read one by one or all at once; and the
// user's e-mail preferences. Every user has their own; nobody reads another's.
import express, { type Router } from 'express';
import { z } from 'zod';
import { ID_MAX } from '../../shared/paging.ts';
import { cursorPageQuery } from '../http/paging.ts';
import { mailPreferencesBody } from '../mail/preferences.ts';
import { handle, parse, type ApiAuth, type ApiDeps } from './http.ts';

/** The most ids one request marks read (more: mark all). */
export const MARK_READ_MAX_IDS = 100;

export const markBody = z
  .object({
    ids: z.array(z.number().int().min(1).max(ID_MAX)).min(1).max(MARK_READ_MAX_IDS).optional(),
    all: z.literal(true).optional(),
  })
  .strict()
  .refine((b) => (b.ids === undefined) !== (b.all === undefined), 'give ids (at most 100) or all: true, one of them');

/** What these routes use of the API's dependencies. */
type Uses = Pick<ApiDeps, 'mailPreferences' | 'notifications'>;

export function notificationRoutes(deps: Uses, auth: ApiAuth): Router {
  const { authenticated, json, userOf } = auth;
  const router = express.Router();
  const { notifications } = deps;

  router.get(
    '/notifications',
    authenticated,
    handle(async (req, res) => {
      const { before, pageSize } = parse(cursorPageQuery('notifications'), req.query);
      res.json(await notifications.page(userOf(res).userName, { before: before ?? null, pageSize }));
    }),
  );

  router.post(
    '/notifications/read',
    authenticated,
    json,
    handle(async (req, res) => {
      const body = parse(markBody, req.body);
      const userName = userOf(res).userName;
      const marked = await notifications.markRead(userName, body.all ? 'all' : (body.ids ?? []));
      res.json({ marked, unread: await notifications.unread(userName) });
    }),
  );

  // The user's e-mail preferences (docs/decisions/044): a mode per topic and the days
  // before a due milestone they are reminded; PUT sends all of them.
  router.get(
    '/me/mail-preferences',
    authenticated,
    handle(async (_req, res) => {
      res.set('Cache-Control', 'private, no-store').json(await deps.mailPreferences.get(userOf(res).userName));
    }),
  );

  router.put(
    '/me/mail-preferences',
    authenticated,
    json,
    handle(async (req, res) => {
      const body = parse(mailPreferencesBody, req.body);
      res.json(await deps.mailPreferences.set(userOf(res).userName, body));
    }),
  );

  return router;
}

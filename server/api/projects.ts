// The projects of the private area and the experts' profiles. Every route asks
// the services with the caller as they are now; a project the caller may not see is a 404.
import express, { type Router } from 'express';
import { idOf, SEARCH_MAX_LENGTH } from '../../shared/paging.ts';
import { PRACTICES, type ProjectAction } from '../../shared/projects.ts';
import { ApiError } from '../http/errors.ts';
import { projectId } from '../projects/access.ts';
import { sendDocument } from '../projects/download.ts';
import {
  actionSchema,
  briefSchema,
  expertSchema,
  expertiseSchema,
  listQuerySchema,
  messageSchema,
  milestoneDoneSchema,
  milestoneSchema,
} from '../projects/schemas.ts';
import { z } from 'zod';
import { cursorPageQuery, numberedPageQuery } from '../http/paging.ts';
import { handle, parse, type ApiAuth, type ApiDeps } from './http.ts';

export const historyQuery = cursorPageQuery('history');
export const messagesQuery = cursorPageQuery('messages');
export const documentsQuery = numberedPageQuery('documents');
export const expertsQuery = z.object({
  practice: z.enum(PRACTICES).optional(),
  available: z.enum(['true', 'false']).optional(),
  q: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
  ...numberedPageQuery('experts').shape,
});

function itemId(raw: unknown, what: string): number {
  const id = idOf(typeof raw === 'string' ? raw : '');
  if (id === null) throw new ApiError(404, 'not_found', `No such ${what}`);
  return id;
}

/** The projects: the caller's list, a brief submitted, a project, and a move of its state. */
function projectStateRoutes(router: Router, deps: ApiDeps, auth: ApiAuth) {
  const { authenticated, json, userOf } = auth;
  const { projects } = deps;
  router.get(
    '/projects',
    authenticated,
    handle(async (req, res) => {
      const query = parse(listQuerySchema, req.query);
      res.json(await projects.list(userOf(res), { ...query, waiting: query.waiting === 'true' }));
    }),
  );
  router.post(
    '/projects',
    authenticated,
    json,
    handle(async (req, res) => {
      const brief = parse(briefSchema, req.body);
      const project = await projects.create(userOf(res), brief);
      res.status(201).location(`/api/projects/${project.id}`).json(project);
    }),
  );
  router.get(
    '/projects/:id',
    authenticated,
    handle(async (req, res) => {
      res.json(await projects.get(userOf(res), projectId(req.params.id)));
    }),
  );
  router.patch(
    '/projects/:id',
    authenticated,
    json,
    handle(async (req, res) => {
      const id = projectId(req.params.id);
      const body = parse(actionSchema, req.body);
      res.json(
        await projects.act(userOf(res), id, body.action as ProjectAction, body.proposal, { version: body.version, ip: req.ip ?? null }),
      );
    }),
  );
}

/** A project's team and work: its experts, assigned and removed, and its milestones, added, done and reopened. */
function projectTeamRoutes(router: Router, deps: ApiDeps, auth: ApiAuth) {
  const { authenticated, json, userOf } = auth;
  const { projects } = deps;
  router.post(
    '/projects/:id/experts',
    authenticated,
    json,
    handle(async (req, res) => {
      const id = projectId(req.params.id);
      const { userName } = parse(expertSchema, req.body);
      res.json(await projects.assignExpert(userOf(res), id, userName));
    }),
  );
  router.delete(
    '/projects/:id/experts/:userName',
    authenticated,
    handle(async (req, res) => {
      const id = projectId(req.params.id);
      res.json(await projects.removeExpert(userOf(res), id, String(req.params.userName).slice(0, 100)));
    }),
  );
  router.post(
    '/projects/:id/milestones',
    authenticated,
    json,
    handle(async (req, res) => {
      const id = projectId(req.params.id);
      const milestone = parse(milestoneSchema, req.body);
      res.status(201).json(await projects.addMilestone(userOf(res), id, milestone));
    }),
  );
  router.patch(
    '/projects/:id/milestones/:milestoneId',
    authenticated,
    json,
    handle(async (req, res) => {
      const id = projectId(req.params.id);
      const { done } = parse(milestoneDoneSchema, req.body);
      res.json(await projects.setMilestoneDone(userOf(res), id, itemId(req.params.milestoneId, 'milestone'), done));
    }),
  );
}

/** A project's conversation and record: its messages, its history, its documents (listed, uploaded, downloaded, deleted). */
function projectConversationRoutes(router: Router, deps: ApiDeps, auth: ApiAuth) {
  const { authenticated, json, userOf } = auth;
  const { projects, conversation } = deps;
  router.get(
    '/projects/:id/messages',
    authenticated,
    handle(async (req, res) => {
      const id = projectId(req.params.id);
      res.json(await conversation.messages(userOf(res), id, parse(messagesQuery, req.query)));
    }),
  );
  router.get(
    '/projects/:id/events',
    authenticated,
    handle(async (req, res) => {
      const id = projectId(req.params.id);
      res.json(await projects.history(userOf(res), id, parse(historyQuery, req.query)));
    }),
  );
  router.post(
    '/projects/:id/messages',
    authenticated,
    json,
    handle(async (req, res) => {
      const id = projectId(req.params.id);
      const { body } = parse(messageSchema, req.body);
      res.status(201).json(await conversation.postMessage(userOf(res), id, body));
    }),
  );
  router.get(
    '/projects/:id/documents',
    authenticated,
    handle(async (req, res) => {
      const id = projectId(req.params.id);
      res.json(await conversation.documents(userOf(res), id, parse(documentsQuery, req.query)));
    }),
  );
  router.post(
    '/projects/:id/documents',
    authenticated,
    handle(async (req, res) => {
      // One turn of the process's uploads, then admitted, read and stored as the page form's are.
      res.status(201).json(await deps.documentUploads.receive(userOf(res), projectId(req.params.id), req, res));
    }),
  );
  router.get(
    '/projects/:id/documents/:docId',
    authenticated,
    handle(async (req, res) => {
      const id = projectId(req.params.id);
      const user = userOf(res);
      const doc = await conversation.readDocument(user, id, itemId(req.params.docId, 'document'));
      // Streamed, capped per user and cut off when stalled, as on the pages (projects/download.ts).
      await sendDocument(res, user.userName, doc, deps.downloads);
    }),
  );
  router.delete(
    '/projects/:id/documents/:docId',
    authenticated,
    handle(async (req, res) => {
      const id = projectId(req.params.id);
      await conversation.deleteDocument(userOf(res), id, itemId(req.params.docId, 'document'), { ip: req.ip ?? null });
      res.status(204).end();
    }),
  );
}

/** The experts' profiles: one's own, read and saved, and the directory of experts. */
function expertiseRoutes(router: Router, deps: ApiDeps, auth: ApiAuth) {
  const { authenticated, json, userOf } = auth;
  const { expertise } = deps;
  router.get(
    '/me/expertise',
    authenticated,
    handle(async (_req, res) => {
      res.json(await expertise.mine(userOf(res)));
    }),
  );
  router.put(
    '/me/expertise',
    authenticated,
    json,
    handle(async (req, res) => {
      res.json(await expertise.save(userOf(res), parse(expertiseSchema, req.body)));
    }),
  );
  router.get(
    '/experts',
    authenticated,
    handle(async (req, res) => {
      const query = parse(expertsQuery, req.query);
      res.json(await expertise.experts(userOf(res), { ...query, available: query.available === 'true' }));
    }),
  );
}

export function projectRoutes(deps: ApiDeps, auth: ApiAuth): Router {
  const router = express.Router();
  // In this order, as a request meets them.
  projectStateRoutes(router, deps, auth);
  projectTeamRoutes(router, deps, auth);
  projectConversationRoutes(router, deps, auth);
  expertiseRoutes(router, deps, auth);
  return router;
}

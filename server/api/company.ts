// The signed-in user's company (docs/decisions/041): who is in it; its manager invites,
// removes and promotes colleagues and renames it. The admin's side: the companies, a company's
// people, and moving a user into a company. Every rule is the company service's.
import express, { type Router } from 'express';
import { z } from 'zod';
import { COMPANY_NAME_MAX_LENGTH, COMPANY_ROLES } from '../../shared/company.ts';
import { defaultLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { idOf, SEARCH_MAX_LENGTH } from '../../shared/paging.ts';
import { ownsProjects } from '../../shared/projects.ts';
import { ApiError } from '../http/errors.ts';
import { numberedPageQuery } from '../http/paging.ts';
import { oneLine } from '../http/one-line.ts';
import * as users from '../users/users.ts';
import { handle, parse, type ApiAuth, type ApiDeps } from './http.ts';
import { newUserBody } from './schemas.ts';

/** A company's name: one plain line (http/one-line.ts). */
const companyName = oneLine().min(1, 'is required').max(COMPANY_NAME_MAX_LENGTH);
/** Whom a manager invites, by address; the site makes the user name (docs/decisions/049). */
export const colleagueBody = newUserBody
  .pick({ name: true, lastName: true })
  .extend({
    email: newUserBody.shape.email.unwrap().unwrap(),
    locale: z.enum(LOCALE_CODES as [Locale, ...Locale[]]).optional(),
  })
  .strict();
export const renameBody = z.object({ name: companyName }).strict();
export const companiesQuery = z.object({ q: z.string().max(SEARCH_MAX_LENGTH).optional(), ...numberedPageQuery('companies').shape });
export const moveBody = z
  .object({
    companyId: z.number().int().min(1).optional(),
    newCompany: companyName.optional(),
    role: z.enum(COMPANY_ROLES),
  })
  .strict()
  .refine((b) => (b.companyId === undefined) !== (b.newCompany === undefined), 'give companyId or newCompany, one of them');

/** What these routes use of the API's dependencies. */
type Uses = Pick<ApiDeps, 'companies' | 'db'>;

export function companyRoutes(deps: Uses, auth: ApiAuth): Router {
  const { authenticated, requireAdmin, json, userOf } = auth;
  const router = express.Router();
  const service = deps.companies;

  /** The caller, when they belong to a company (clients and organisations); 404 for the others. */
  const member = (res: express.Response) => {
    const user = userOf(res);
    if (!ownsProjects(user)) throw new ApiError(404, 'not_found', 'Only clients and organisations belong to a company');
    return user;
  };

  router.get(
    '/company',
    authenticated,
    handle(async (req, res) => {
      const { page, pageSize } = parse(numberedPageQuery('members'), req.query);
      res.json(await service.view(member(res), page, pageSize));
    }),
  );

  router.patch(
    '/company',
    authenticated,
    json,
    handle(async (req, res) => {
      const { name } = parse(renameBody, req.body);
      const user = member(res);
      await service.rename(user, name, req.ip ?? null);
      res.json(await service.view(user));
    }),
  );

  router.post(
    '/company/members',
    authenticated,
    json,
    handle(async (req, res) => {
      const { locale, ...colleague } = parse(colleagueBody, req.body);
      // The same answer whether the address has an account or not (docs/decisions/049).
      const invitation = await service.invite(member(res), colleague, locale ?? defaultLocale, req.ip ?? null);
      res.status(201).json({ invitation });
    }),
  );

  router.delete(
    '/company/members/:userName',
    authenticated,
    handle(async (req, res) => {
      await service.remove(member(res), String(req.params.userName), req.ip ?? null);
      res.status(204).end();
    }),
  );

  router.post(
    '/company/members/:userName/manager',
    authenticated,
    handle(async (req, res) => {
      await service.handOver(member(res), String(req.params.userName), req.ip ?? null);
      res.status(204).end();
    }),
  );

  // Admin: every route checks the role on the server.
  router.get(
    '/admin/companies',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      res.json(await service.list(parse(companiesQuery, req.query)));
    }),
  );

  router.get(
    '/admin/companies/:id/members',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const id = idOf(String(req.params.id));
      if (id === null) throw new ApiError(404, 'company_not_found', 'No such company');
      const { page, pageSize } = parse(numberedPageQuery('members'), req.query);
      res.json(await service.members(id, page, pageSize));
    }),
  );

  router.put(
    '/admin/users/:userName/company',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      const body = parse(moveBody, req.body);
      const target = body.companyId !== undefined ? { companyId: body.companyId } : { newName: body.newCompany! };
      const membership = await service.move(userOf(res), String(req.params.userName), target, body.role, req.ip ?? null);
      // The user as the console's list shows them: its row is brought up to date from the answer.
      const user = (await users.findUser(deps.db, String(req.params.userName)))!;
      const company = { id: membership.companyId, name: membership.companyName, role: membership.role };
      res.json({ user: { ...users.publicUser(user), company }, membership });
    }),
  );

  return router;
}

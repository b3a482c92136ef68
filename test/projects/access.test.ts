// Who may see a project: the people of the company that owns it (its manager and its members),
// its assigned experts and admins. Anyone else — another company's people included — gets 404,
// not 403, from every project endpoint, so that a guessed id reveals nothing. One table: every
// role × every project endpoint × manager, member, participant or outsider.
import type { Express } from 'express';
import { beforeAll, describe, expect, test } from 'vitest';
import { membershipOf, moveUser } from '../../server/companies/companies.ts';
import { createTestApp } from '../helpers/app.ts';
import { addUser, loginToken } from '../helpers/users.ts';
import { activeProject, api, PDF, PEOPLE, signInEveryone, type Person, UNLIMITED } from './fixtures.ts';

let app: Express;
/** Everyone's token, and a member of the owner's company ("colleague"). */
let tokens: Record<Person | 'colleague', string>;
let id: number;
let milestoneId: number;
let documentId: number;
beforeAll(async () => {
  const created = await createTestApp(UNLIMITED);
  app = created.app;
  const everyone = await signInEveryone(app, created.db);
  await addUser(created.db, { userName: 'cora', role: 'CLI', name: 'Cora', lastName: 'Colleague' });
  const company = (await membershipOf(created.db.k, PEOPLE.owner.userName))!;
  await moveUser(created.db, 'cora', { companyId: company.companyId }, 'member');
  tokens = { ...everyone, colleague: await loginToken(app, 'cora') };
  id = await activeProject(app, tokens);
  milestoneId = (await api(app, tokens.admin).post(`/projects/${id}/milestones`, { title: 'Kick-off' })).body.milestones[0].id;
  documentId = (await api(app, tokens.owner).upload(`/projects/${id}/documents`, PDF, 'brief.pdf')).body.id;
});

type Call = (who: Person | 'colleague', project: number) => Promise<{ status: number }>;
const ENDPOINTS: Record<string, Call> = {
  'GET /projects/{id}': (who, p) => api(app, tokens[who]).get(`/projects/${p}`),
  // Not a move any participant may make now: 403 (the role may not) or 409 (not from this state).
  'PATCH /projects/{id}': (who, p) => api(app, tokens[who]).patch(`/projects/${p}`, { action: 'accept', version: 1 }),
  'POST /projects/{id}/experts': (who, p) => api(app, tokens[who]).post(`/projects/${p}/experts`, { userName: 'nobody' }),
  'DELETE /projects/{id}/experts/{userName}': (who, p) => api(app, tokens[who]).delete(`/projects/${p}/experts/nobody`),
  'POST /projects/{id}/milestones': (who, p) => api(app, tokens[who]).post(`/projects/${p}/milestones`, { title: `by ${who}` }),
  'PATCH /projects/{id}/milestones/{milestoneId}': (who, p) =>
    api(app, tokens[who]).patch(`/projects/${p}/milestones/${milestoneId}`, { done: false }),
  'GET /projects/{id}/events': (who, p) => api(app, tokens[who]).get(`/projects/${p}/events`),
  'GET /projects/{id}/messages': (who, p) => api(app, tokens[who]).get(`/projects/${p}/messages`),
  'POST /projects/{id}/messages': (who, p) => api(app, tokens[who]).post(`/projects/${p}/messages`, { body: `from ${who}` }),
  'GET /projects/{id}/documents': (who, p) => api(app, tokens[who]).get(`/projects/${p}/documents`),
  'POST /projects/{id}/documents': (who, p) => api(app, tokens[who]).upload(`/projects/${p}/documents`, PDF, `${who}.pdf`),
  'GET /projects/{id}/documents/{docId}': (who, p) => api(app, tokens[who]).get(`/projects/${p}/documents/${documentId}`),
};

// What each participant gets; everyone else (and everyone, for a project that does not exist) gets 404.
// `owner`: the company's manager (who submitted the brief); `colleague`: a member of that company.
const PARTICIPANTS: Record<'admin' | 'owner' | 'colleague' | 'expert', Record<keyof typeof ENDPOINTS, number>> = {
  admin: {
    'GET /projects/{id}': 200,
    'PATCH /projects/{id}': 403,
    'POST /projects/{id}/experts': 422,
    'DELETE /projects/{id}/experts/{userName}': 404,
    'POST /projects/{id}/milestones': 201,
    'PATCH /projects/{id}/milestones/{milestoneId}': 200,
    'GET /projects/{id}/events': 200,
    'GET /projects/{id}/messages': 200,
    'POST /projects/{id}/messages': 201,
    'GET /projects/{id}/documents': 200,
    'POST /projects/{id}/documents': 201,
    'GET /projects/{id}/documents/{docId}': 200,
  },
  owner: {
    'GET /projects/{id}': 200,
    'PATCH /projects/{id}': 409,
    'POST /projects/{id}/experts': 403,
    'DELETE /projects/{id}/experts/{userName}': 403,
    'POST /projects/{id}/milestones': 403,
    'PATCH /projects/{id}/milestones/{milestoneId}': 403,
    'GET /projects/{id}/events': 200,
    'GET /projects/{id}/messages': 200,
    'POST /projects/{id}/messages': 201,
    'GET /projects/{id}/documents': 200,
    'POST /projects/{id}/documents': 201,
    'GET /projects/{id}/documents/{docId}': 200,
  },
  // A member works on the project (messages, documents) and decides nothing: 403 where the manager gets 409.
  colleague: {
    'GET /projects/{id}': 200,
    'PATCH /projects/{id}': 403,
    'POST /projects/{id}/experts': 403,
    'DELETE /projects/{id}/experts/{userName}': 403,
    'POST /projects/{id}/milestones': 403,
    'PATCH /projects/{id}/milestones/{milestoneId}': 403,
    'GET /projects/{id}/events': 200,
    'GET /projects/{id}/messages': 200,
    'POST /projects/{id}/messages': 201,
    'GET /projects/{id}/documents': 200,
    'POST /projects/{id}/documents': 201,
    'GET /projects/{id}/documents/{docId}': 200,
  },
  expert: {
    'GET /projects/{id}': 200,
    'PATCH /projects/{id}': 403,
    'POST /projects/{id}/experts': 403,
    'DELETE /projects/{id}/experts/{userName}': 403,
    'POST /projects/{id}/milestones': 201,
    'PATCH /projects/{id}/milestones/{milestoneId}': 200,
    'GET /projects/{id}/events': 200,
    'GET /projects/{id}/messages': 200,
    'POST /projects/{id}/messages': 201,
    'GET /projects/{id}/documents': 200,
    'POST /projects/{id}/documents': 201,
    'GET /projects/{id}/documents/{docId}': 200,
  },
};
const OUTSIDERS: Person[] = ['otherClient', 'org', 'otherExpert'];

const rows = Object.keys(ENDPOINTS).flatMap((endpoint) => [
  ...(['admin', 'owner', 'colleague', 'expert'] as const).map(
    (who) => [endpoint, who, 'participant', PARTICIPANTS[who][endpoint]!] as const,
  ),
  ...OUTSIDERS.map((who) => [endpoint, who, 'not a participant', 404] as const),
]);

describe('the access table of the projects API', () => {
  test.each(rows)('%s as %s (%s) → %i', async (endpoint, who, _standing, status) => {
    const res = await ENDPOINTS[endpoint]!(who, id);
    expect(res.status).toBe(status);
  });

  test.each(Object.keys(ENDPOINTS))('%s of a project that does not exist is a 404 for an admin too', async (endpoint) => {
    expect((await ENDPOINTS[endpoint]!('admin', id + 1000)).status).toBe(404);
  });

  test("an outsider's 404 is the same answer as for a project that does not exist", async () => {
    const hidden = await api(app, tokens.otherClient).get(`/projects/${id}`);
    const missing = await api(app, tokens.otherClient).get(`/projects/${id + 1000}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(missing.body);
  });

  test('an expert removed from a project no longer sees it', async () => {
    const other = await activeProject(app, tokens);
    expect((await api(app, tokens.expert).get(`/projects/${other}`)).status).toBe(200);
    await api(app, tokens.admin).delete(`/projects/${other}/experts/eva`);
    expect((await api(app, tokens.expert).get(`/projects/${other}`)).status).toBe(404);
    expect((await api(app, tokens.expert).get(`/projects/${other}/documents`)).status).toBe(404);
  });

  test('a document of one project is not reachable through another project the caller sees', async () => {
    const other = await activeProject(app, tokens);
    const res = await api(app, tokens.owner).get(`/projects/${other}/documents/${documentId}`);
    expect(res.status).toBe(404);
  });
});

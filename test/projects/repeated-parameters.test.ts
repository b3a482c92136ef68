// A query parameter is given once, everywhere parameters are read (server/http/query-once.ts):
// `?version=1&version=2` is a 400 naming it, in the same words on the API and on the documents,
// never a document made from one of the two values.
import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, expect, test } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { signIn } from '../my-account/helpers.ts';
import { activeProject, PEOPLE, signInEveryone, type Person, UNLIMITED } from './fixtures.ts';

let app: Express;
let tokens: Record<Person, string>;
let id: number;
beforeAll(async () => {
  const created = await createTestApp(UNLIMITED);
  app = created.app;
  tokens = await signInEveryone(app, created.db);
  id = await activeProject(app, tokens);
});

test.each([
  ['/api/projects?status=brief&status=active', 'status'],
  ['/api/projects?page=1&page=2', 'page'],
  ['/api/projects?q=a&q=b', 'q'],
  ['/api/admin/audit?to=2026-01-01&to=2026-01-02', 'to'],
  ['/api/notifications?before=5&before=6', 'before'],
  // An operation that reads no parameter refuses one given twice all the same.
  ['/api/me?x=1&x=2', 'x'],
])('the API refuses a parameter given twice with a 400 naming it: %s', async (path, name) => {
  const res = await request(app).get(path).set('Authorization', `Bearer ${tokens.admin}`);
  expect(res.status).toBe(400);
  expect(res.body.error).toEqual({
    code: 'invalid_request',
    message: `Invalid request: ${name} must be given once, not repeated.`,
    fields: { [name]: `${name} must be given once, not repeated` },
  });
});

test('an operation on one project refuses a parameter given twice too: GET /api/projects/{id}?version=1&version=2', async () => {
  const res = await request(app).get(`/api/projects/${id}?version=1&version=2`).set('Authorization', `Bearer ${tokens.owner}`);
  expect(res.status).toBe(400);
  expect(res.body.error.fields).toEqual({ version: 'version must be given once, not repeated' });
});

test.each([
  [(project: number) => `/en/documents/projects/${project}/proposal.pdf?version=1&version=2`, 'owner', 'version'],
  [(project: number) => `/en/documents/projects/${project}/report.pdf?x=1&x=2`, 'owner', 'x'],
  [() => '/en/documents/contact-messages.pdf?page=1&page=2', 'admin', 'page'],
  [() => '/en/documents/users.pdf?page=1&page=2', 'admin', 'page'],
] as const)('a document refuses a parameter given twice with a 400 naming it, in the API’s words (%#)', async (path, who, name) => {
  const cookie = await signIn(app, PEOPLE[who].userName);
  const res = await request(app).get(path(id)).set('Cookie', cookie);
  expect(res.status).toBe(400);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  expect(res.text).toBe(`Bad query parameter ${name}: ${name} must be given once, not repeated`);
});

test('the proposal given once is still the document: ?version=1 is v1', async () => {
  const cookie = await signIn(app, PEOPLE.owner.userName);
  const res = await request(app).get(`/en/documents/projects/${id}/proposal.pdf?version=1`).set('Cookie', cookie).buffer(true);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
});

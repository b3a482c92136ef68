// The permission check by the user's scope (docs/specification.md §5.6; docs/decisions/053): ADMIN may do all
// of it by its role; anyone else may read what a scope they carry now grants, and nothing else.
// Decided on the server, endpoint by endpoint, from the user as they are at the request.
import express from 'express';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, expect, test } from 'vitest';
import { run as opsCli } from '../scripts/user.ts';
import { isPermitted, SCOPES, type Role, type Scope } from '../shared/user.ts';
import { createTestApp, ORIGIN } from './helpers/app.ts';
import { addUser, loginToken } from './helpers/users.ts';

test.each([
  { role: 'ADMIN', scope: [], permitted: SCOPES },
  { role: 'ADMIN', scope: ['inbox:read'], permitted: SCOPES },
  { role: 'CLI', scope: [], permitted: [] },
  { role: 'CLI', scope: ['reports:read'], permitted: ['reports:read'] },
  { role: 'ORG', scope: ['inbox:read', 'audit:read'], permitted: ['inbox:read', 'audit:read'] },
  { role: 'CONS', scope: ['audit:read'], permitted: ['audit:read'] },
  // A role an external API invented, and scopes this site does not know: nothing but what is listed.
  { role: 'AUDITOR', scope: ['reports:read', 'reports:write', 'admin'], permitted: ['reports:read'] },
] as const)('a $role user with the scopes $scope is permitted exactly $permitted', ({ role, scope, permitted }) => {
  const user = { role, scope: [...scope] };
  expect(SCOPES.filter((s) => isPermitted(user, s))).toEqual(permitted);
});

test('nobody signed in is permitted anything', () => {
  for (const scope of SCOPES) expect(isPermitted(null, scope)).toBe(false);
});

const PASSWORD = 'correct horse battery';

/** Who asks: their role and scopes in the database. */
const PEOPLE = [
  { userName: 'ada', role: 'ADMIN', scope: [] },
  { userName: 'carla', role: 'CLI', scope: [] },
  { userName: 'rita', role: 'CLI', scope: ['reports:read'] },
  { userName: 'ines', role: 'ORG', scope: ['inbox:read'] },
  { userName: 'aldo', role: 'CONS', scope: ['audit:read'] },
] as const satisfies readonly { userName: string; role: Role; scope: readonly Scope[] }[];

/** What a scope gates, and what stays ADMIN's whatever the scopes (the inbox's changes, the users' list). */
const ENDPOINTS = [
  { name: 'GET /api/admin/audit', scope: 'audit:read', path: () => '/api/admin/audit' },
  { name: 'GET /api/admin/messages', scope: 'inbox:read', path: () => '/api/admin/messages' },
  { name: 'GET /api/admin/messages/{id}', scope: 'inbox:read', path: (id: number) => `/api/admin/messages/${id}` },
  { name: 'PATCH /api/admin/messages/{id}', scope: null, path: (id: number) => `/api/admin/messages/${id}`, patch: { read: true } },
  { name: 'GET /api/admin/users', scope: null, path: () => '/api/admin/users' },
  { name: 'GET /en/documents/users.pdf', scope: 'reports:read', path: () => '/en/documents/users.pdf', pdf: true },
  { name: 'GET /en/documents/contact-messages.pdf', scope: 'reports:read', path: () => '/en/documents/contact-messages.pdf', pdf: true },
] as const;

const site = await (async () => {
  const { app, db, contactStore } = await createTestApp();
  for (const person of PEOPLE) await addUser(db, { ...person, scope: [...person.scope], password: PASSWORD });
  const message = await contactStore.add(
    { name: 'Lucía', email: 'lucia@example.com', subject: 'Hola', message: 'Un mensaje de prueba.', locale: 'es', ip: null },
    false,
  );
  const tokens = new Map<string, string>();
  const cookies = new Map<string, string>();
  for (const person of PEOPLE) {
    tokens.set(person.userName, await loginToken(app, person.userName, PASSWORD));
    const signedIn = await request(app)
      .post('/en/login')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ identifier: person.userName, password: PASSWORD });
    cookies.set(person.userName, String(signedIn.headers['set-cookie']).split(';')[0]!);
  }
  return { app, db, messageId: message.id, tokens, cookies };
})();

/** The endpoint asked by `userName`: the API with their Bearer token, a document with their session. */
function ask(endpoint: (typeof ENDPOINTS)[number], userName: string) {
  const path = endpoint.path(site.messageId);
  if ('pdf' in endpoint) return request(site.app).get(path).set('Cookie', site.cookies.get(userName)!);
  const bearer = `Bearer ${site.tokens.get(userName)!}`;
  if ('patch' in endpoint) return request(site.app).patch(path).set('Authorization', bearer).send(endpoint.patch);
  return request(site.app).get(path).set('Authorization', bearer);
}

test.each(
  ENDPOINTS.flatMap((endpoint) =>
    PEOPLE.map((person) => ({ ...person, endpoint, label: endpoint.name, scopes: person.scope.join(', ') || 'none' })),
  ),
)('$label as $role with the scopes: $scopes', async ({ userName, role, scope, endpoint }) => {
  const allowed = role === 'ADMIN' || (endpoint.scope !== null && (scope as readonly string[]).includes(endpoint.scope));
  const res = await ask(endpoint, userName);
  expect(res.status, JSON.stringify(res.body ?? res.text)).toBe(allowed ? 200 : 403);
  if (!allowed && !('pdf' in endpoint)) expect((res.body as { error: { code: string } }).error.code).toBe('forbidden');
  if (allowed && 'pdf' in endpoint) expect(res.headers['content-type']).toBe('application/pdf');
});

test('a scope granted or taken away counts from the next request of a session already open, as the database has it then', async () => {
  const admin = `Bearer ${site.tokens.get('ada')!}`;
  const carla = `Bearer ${site.tokens.get('carla')!}`;
  const inbox = () => request(site.app).get('/api/admin/messages').set('Authorization', carla);
  expect((await inbox()).status).toBe(403);

  const granted = await request(site.app)
    .patch('/api/admin/users/carla')
    .set('Authorization', admin)
    .send({ scope: ['inbox:read'] });
  expect(granted.status).toBe(200);
  expect(granted.body.user.scope).toEqual(['inbox:read']);
  expect((await inbox()).status).toBe(200);

  const taken = await request(site.app).patch('/api/admin/users/carla').set('Authorization', admin).send({ scope: [] });
  expect(taken.body.user.scope).toEqual([]);
  expect((await inbox()).status).toBe(403);
});

test.each([
  { what: 'a scope the site does not know', scope: ['inbox:write'] },
  { what: 'a scope that is not a string', scope: [7] },
])('PATCH /api/admin/users/{userName} with $what answers 400 naming the field and changes nothing', async ({ scope }) => {
  const res = await request(site.app)
    .patch('/api/admin/users/rita')
    .set('Authorization', `Bearer ${site.tokens.get('ada')!}`)
    .send({ scope });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('invalid_request');
  expect(Object.keys(res.body.error.fields as object)).toEqual(['scope.0']);
  const rita = await request(site.app).get('/en/documents/contact-messages.pdf').set('Cookie', site.cookies.get('rita')!);
  expect(rita.status).toBe(200);
});

test('only an administrator changes scopes: a holder of every scope may not give one to themselves', async () => {
  const res = await request(site.app)
    .patch('/api/admin/users/aldo')
    .set('Authorization', `Bearer ${site.tokens.get('aldo')!}`)
    .send({ scope: [...SCOPES] });
  expect(res.status).toBe(403);
});

test('npm run user -- set-scope refuses a scope the site does not know, naming it and the ones it knows', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'scopes-ops-'));
  await expect(opsCli(['set-scope', '--userName', 'rita', '--scope', 'reports:read,inbox:write'], dataDir, () => {})).rejects.toThrow(
    'Unknown scope "inbox:write": use one of reports:read, inbox:read, audit:read',
  );
});

// With an external API the scopes are its token's: the sign-in's answer decides.
const api = express();
api.use(express.json());
api.post('/v1/login', async (req, res) => {
  const userName = String((req.body as { identifier?: unknown }).identifier);
  const scope = userName === 'auditor' ? ['reports:read'] : [];
  const token = await new SignJWT({ name: 'Up', lastName: 'Stream', userName, role: 'AUDITOR', avatar: null, scope })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('upstream-shared-secret-that-is-long-enough'));
  res.json({ token });
});
const upstream = api.listen(0, '127.0.0.1');
await new Promise((resolve) => upstream.once('listening', resolve));
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

test.each([
  { userName: 'auditor', scope: ['reports:read'], status: 200 },
  { userName: 'visitor', scope: [], status: 403 },
])(
  'with an external API, the token of $userName (scope $scope) downloads the contact-messages report: $status',
  async ({ userName, status }) => {
    const { app } = await createTestApp({
      API_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`,
      API_JWT_SECRET: 'upstream-shared-secret-that-is-long-enough',
    });
    const signedIn = await request(app)
      .post('/en/login')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ identifier: userName, password: 'any' });
    const cookie = String(signedIn.headers['set-cookie']).match(/auth\._token\.local=[^;]+/)![0];
    const res = await request(app).get('/en/documents/contact-messages.pdf').set('Cookie', cookie);
    expect(res.status).toBe(status);
  },
);

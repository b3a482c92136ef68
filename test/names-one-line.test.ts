// Every person's name, company's name and title is one plain line, at every door that takes one
// (shared/validation.ts's singleLine, through server/http/one-line.ts in every schema and form):
// line breaks and control characters become a space — a name is never a forged "BCC: …" line in
// an e-mail — and bidirectional controls are removed, so "Invoice ‮gnp.exe" cannot show as
// "Invoice exe.png". A description keeps its line breaks.
import request from 'supertest';
import { expect, test } from 'vitest';
import { deriveKey } from '../server/auth/keys.ts';
import { createFormTokens } from '../server/contact/form-token.ts';
import { singleLine } from '../shared/validation.ts';
import { createTestApp, ORIGIN, TEST_SESSION_SECRET } from './helpers/app.ts';
import { addUser, DEFAULT_PASSWORD, loginToken } from './helpers/users.ts';

const FORGED = 'Ana\r\nBCC: victim@example.com';
const SPOOFED = 'Invoice \u202Egnp.exe';
const ISOLATED = 'Acme\u2067\u2066 S.L.\u2069\u200F\u200E\u061C';

test.each([
  [FORGED, 'Ana BCC: victim@example.com'],
  ['Ana \n\n  Ruiz', 'Ana Ruiz'],
  ['Ana\tRuiz', 'Ana Ruiz'],
  ['Ana\u0000\u0007\u001B\u007F\u0085Ruiz', 'Ana Ruiz'],
  ['Ana\u2028Ruiz\u2029', 'Ana Ruiz '],
  [SPOOFED, 'Invoice gnp.exe'],
  ['\u202A\u202B\u202C\u202D\u202E', ''],
  [ISOLATED, 'Acme S.L.'],
  ['Zoë Ñúñez-Łukasz 李 محمد', 'Zoë Ñúñez-Łukasz 李 محمد'],
])('singleLine(%j) is %j: controls and line breaks a space, bidirectional controls gone, letters of every script kept', (given, kept) => {
  expect(singleLine(given)).toBe(kept);
});

async function site() {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'ada', role: 'ADMIN' });
  await addUser(db, { userName: 'carla', role: 'CLI', email: 'carla@example.com' });
  const tokens = { admin: await loginToken(app, 'ada'), client: await loginToken(app, 'carla') };
  const as = (token: string) => ({
    post: (path: string, body: object) => request(app).post(`/api${path}`).set('Authorization', `Bearer ${token}`).send(body),
    patch: (path: string, body: object) => request(app).patch(`/api${path}`).set('Authorization', `Bearer ${token}`).send(body),
    put: (path: string, body: object) => request(app).put(`/api${path}`).set('Authorization', `Bearer ${token}`).send(body),
    get: (path: string) => request(app).get(`/api${path}`).set('Authorization', `Bearer ${token}`),
  });
  return { app, db, admin: as(tokens.admin), client: as(tokens.client) };
}

const BRIEF = { description: 'Line one.\nLine two.', practice: 'data' };

test('the API keeps every name, company name and title one plain line, and a description its line breaks', async () => {
  const { admin, client } = await site();
  expect((await client.patch('/me', { name: FORGED, lastName: SPOOFED })).body.user).toMatchObject({
    name: 'Ana BCC: victim@example.com',
    lastName: 'Invoice gnp.exe',
  });
  expect((await admin.post('/admin/users', { userName: 'bea', name: FORGED, lastName: ISOLATED, role: 'CLI' })).body.user).toMatchObject({
    name: 'Ana BCC: victim@example.com',
    lastName: 'Acme S.L.',
  });
  expect((await client.patch('/company', { name: ISOLATED })).body.companyName).toBe('Acme S.L.');
  expect((await admin.put('/admin/users/bea/company', { newCompany: FORGED, role: 'manager' })).body.membership.companyName).toBe(
    'Ana BCC: victim@example.com',
  );
  const created = await client.post('/projects', { ...BRIEF, title: SPOOFED, organisation: FORGED });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body).toMatchObject({
    title: 'Invoice gnp.exe',
    description: 'Line one.\nLine two.',
    organisation: 'Ana BCC: victim@example.com',
  });
  const milestone = await admin.post(`/projects/${created.body.id}/milestones`, { title: `Kick-off\n${SPOOFED}` });
  expect(milestone.status, JSON.stringify(milestone.body)).toBe(201);
  expect(JSON.stringify(milestone.body)).toContain('"title":"Kick-off Invoice gnp.exe"');
});

test('a name that is nothing but controls is an empty name: refused as required, not stored blank', async () => {
  const { client } = await site();
  const res = await client.patch('/me', { name: '\u202E\r\n\u2066', lastName: 'Ruiz' });
  expect(res.status).toBe(400);
  expect(res.body.error.fields).toHaveProperty('name');
  const brief = await client.post('/projects', { ...BRIEF, title: '\u200F\n' });
  expect(brief.status).toBe(400);
  expect(brief.body.error.fields).toEqual({ title: 'validation.required' });
});

test('the page forms keep names, company names and titles one plain line too: profile, team, new brief, contact', async () => {
  const { app, db } = await site();
  const agent = request.agent(app);
  const form = (path: string, fields: Record<string, string>) => agent.post(path).set('Origin', ORIGIN).type('form').send(fields);
  expect((await form('/en/login', { identifier: 'carla', password: DEFAULT_PASSWORD })).status).toBe(303);

  expect((await form('/en/profile', { name: FORGED, lastName: SPOOFED })).status).toBe(303);
  expect(await db.k.selectFrom('users').select(['name', 'last_name']).where('user_name', '=', 'carla').executeTakeFirst()).toEqual({
    name: 'Ana BCC: victim@example.com',
    last_name: 'Invoice gnp.exe',
  });

  expect((await form('/en/profile', { intent: 'renameCompany', companyName: ISOLATED })).status).toBe(303);
  expect(
    (await form('/en/profile', { intent: 'inviteColleague', name: FORGED, lastName: SPOOFED, email: 'nuevo@example.com' })).status,
  ).toBe(303);
  const people = await db.k.selectFrom('users').select(['name', 'last_name']).where('email', '=', 'nuevo@example.com').executeTakeFirst();
  expect(people).toEqual({ name: 'Ana BCC: victim@example.com', last_name: 'Invoice gnp.exe' });
  expect((await db.k.selectFrom('companies').select('name').execute()).map((c) => c.name)).toContain('Acme S.L.');

  const brief = await form('/en/client/projects/new', { ...BRIEF, title: SPOOFED, organisation: ISOLATED });
  expect(brief.status).toBe(303);
  expect(await db.k.selectFrom('projects').select(['title', 'organisation', 'description']).executeTakeFirst()).toEqual({
    title: 'Invoice gnp.exe',
    organisation: 'Acme S.L.',
    description: 'Line one.\nLine two.',
  });

  const contactTokens = createFormTokens(deriveKey(TEST_SESSION_SECRET, 'contact form v1'), () => Date.now() - 10_000);
  const contact = await request(app)
    .post('/en/Contact')
    .set('Origin', ORIGIN)
    .type('form')
    .send({
      formToken: contactTokens.issue(),
      name: FORGED,
      email: 'lucia@example.com',
      subject: `Hello\r\nBCC: x@example.com ${SPOOFED}`,
      message: 'First line.\nSecond line.',
      consent: 'yes',
    });
  expect(contact.status).toBe(303);
  expect(await db.k.selectFrom('contact_messages').select(['name', 'subject', 'message']).executeTakeFirst()).toEqual({
    name: 'Ana BCC: victim@example.com',
    subject: 'Hello BCC: x@example.com Invoice gnp.exe',
    message: 'First line.\nSecond line.',
  });
});

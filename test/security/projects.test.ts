// Attacks on the projects of the private area (docs/decisions/013): guessing ids, flooding briefs,
// messages and documents, files that lie about what they are, replayed moves, posts from
// another site. Each answer is the right status with nothing stored half-way.
import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, expect, test } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { activeProject, api, BRIEF, PDF, signInEveryone, type Person } from '../projects/fixtures.ts';

let app: Express;
let db: Db;
let tokens: Record<Person, string>;
beforeAll(async () => {
  const created = await createTestApp({ PROJECT_MESSAGES_PER_MINUTE: '5', PROJECT_UPLOADS_PER_MINUTE: '2' });
  app = created.app;
  db = created.db;
  tokens = await signInEveryone(app, db);
});

const count = async (table: 'projects' | 'project_messages' | 'project_documents') =>
  Number(
    (
      await db.k
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

test('an outsider walking the ids learns nothing: every answer is the same 404', async () => {
  const id = await activeProject(app, tokens);
  const bodies = new Set<string>();
  for (let guess = 1; guess <= id + 20; guess++) {
    const res = await api(app, tokens.otherClient).get(`/projects/${guess}`);
    expect(res.status).toBe(404);
    bodies.add(JSON.stringify(res.body));
  }
  expect(bodies.size).toBe(1);
});

test('briefs past PROJECT_BRIEFS_PER_HOUR answer 429 with Retry-After, and none is stored', async () => {
  const limited = await createTestApp({ PROJECT_BRIEFS_PER_HOUR: '3' });
  const t = await signInEveryone(limited.app, limited.db);
  const owner = api(limited.app, t.org);
  for (let i = 0; i < 3; i++) expect((await owner.post('/projects', BRIEF)).status).toBe(201);
  const refused = await owner.post('/projects', BRIEF);
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe('too_many_briefs');
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  const stored = await limited.db.k
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  expect(Number(stored.n)).toBe(3);
  // Another user is not held back by the first one's limit.
  expect((await api(limited.app, t.owner).post('/projects', BRIEF)).status).toBe(201);
});

test('messages past PROJECT_MESSAGES_PER_MINUTE answer 429, and none is stored', async () => {
  const id = await activeProject(app, tokens);
  const expert = api(app, tokens.expert);
  for (let i = 0; i < 5; i++) expect((await expert.post(`/projects/${id}/messages`, { body: `m${i}` })).status).toBe(201);
  const before = await count('project_messages');
  const refused = await expert.post(`/projects/${id}/messages`, { body: 'one more' });
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe('too_many_messages');
  expect(await count('project_messages')).toBe(before);
});

test('uploads past PROJECT_UPLOADS_PER_MINUTE are refused before the file is read', async () => {
  const id = await activeProject(app, tokens);
  const owner = api(app, tokens.owner);
  for (let i = 0; i < 2; i++) expect((await owner.upload(`/projects/${id}/documents`, PDF, `d${i}.pdf`)).status).toBe(201);
  const before = await count('project_documents');
  const big = Buffer.concat([PDF, Buffer.alloc(9 * 1024 * 1024)]);
  const refused = await owner.upload(`/projects/${id}/documents`, big, 'big.pdf');
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe('too_many_uploads');
  expect(await count('project_documents')).toBe(before);
});

test('a file that lies about its type, a broken multipart body and two files at once', async () => {
  const id = await activeProject(app, tokens);
  const expert = api(app, tokens.expert);
  const html = await expert.upload(`/projects/${id}/documents`, Buffer.from('<html><script>alert(1)</script></html>'), 'report.pdf');
  expect(html.status).toBe(415);
  const broken = await request(app)
    .post(`/api/projects/${id}/documents`)
    .set('Authorization', `Bearer ${tokens.expert}`)
    .set('Content-Type', 'multipart/form-data; boundary=xyz')
    .send(
      Buffer.from('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 and then the body just stops'),
    );
  expect(broken.status).toBe(400);
  const before = await count('project_documents');
  const two = await request(app)
    .post(`/api/projects/${id}/documents`)
    .set('Authorization', `Bearer ${tokens.admin}`)
    .attach('file', PDF, 'first.pdf')
    .attach('file', PDF, 'second.pdf');
  expect(two.status).toBe(201);
  expect(two.body.name).toBe('first.pdf');
  expect(await count('project_documents')).toBe(before + 1);
});

test('a replayed move is refused the second time; the history records it once', async () => {
  const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
  await api(app, tokens.admin).patch(`/projects/${id}`, { action: 'send_proposal', proposal: { scope: 'A', fee: 1, timeline: 'B' } });
  expect((await api(app, tokens.owner).patch(`/projects/${id}`, { action: 'accept', version: 1 })).status).toBe(200);
  const again = await api(app, tokens.owner).patch(`/projects/${id}`, { action: 'accept', version: 1 });
  expect(again.status).toBe(409);
  const events = (await api(app, tokens.owner).get(`/projects/${id}/events`)).body.items.filter((e: { to: string }) => e.to === 'active');
  expect(events).toHaveLength(1);
});

test('a project form posted from another site is refused, and nothing changes', async () => {
  const id = await activeProject(app, tokens);
  const login = await request(app)
    .post('/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: 'acme', password: 'correct horse battery' });
  const cookie = ([] as string[])
    .concat(login.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('auth._token.local='))!
    .split(';')[0]!;
  const before = await count('project_messages');
  const res = await request(app)
    .post(`/client/projects/${id}`)
    .set('Cookie', cookie)
    .set('Origin', 'https://evil.example')
    .type('form')
    .send({ intent: 'message', body: 'forged' });
  expect(res.status).toBe(403);
  expect(await count('project_messages')).toBe(before);
});

test('huge inputs: a 1 MB JSON brief is a 413, a 100-character id a 404, a 10,000-character search a 400', async () => {
  const huge = await api(app, tokens.otherClient).post('/projects', { ...BRIEF, description: 'x'.repeat(1024 * 1024) });
  expect(huge.status).toBe(413);
  expect((await api(app, tokens.admin).get(`/projects/${'9'.repeat(100)}`)).status).toBe(404);
  expect((await api(app, tokens.admin).get(`/projects?q=${'a'.repeat(10_000)}`)).status).toBe(400);
});

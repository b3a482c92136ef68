// "Your data": a signed-in user downloads everything the site holds about them as one JSON file
// — their own data and nobody else's, no secrets — written as it is read, so that a user with
// ten thousand messages never costs the server more than a page of rows and a chunk of text.
import { once } from 'node:events';
import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { expect, test } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { EXPORTS_PER_HOUR } from '../../server/my-account/download.ts';
import { EXPORT_CHUNK_CHARS, EXPORT_PAGE_ROWS, writeAccountData } from '../../server/my-account/export.ts';
import type { Db } from '../../server/db/index.ts';
import { findUser, sessionUserOf } from '../../server/users/users.ts';
import { ORIGIN } from '../helpers/app.ts';
import { activeProject, api, PDF, PEOPLE, signInEveryone, UNLIMITED } from '../projects/fixtures.ts';
import { appWithAudit, manyMessages, SAFARI_MAC, signIn } from './helpers.ts';

async function engagement() {
  const ctx = await appWithAudit(UNLIMITED);
  const tokens = await signInEveryone(ctx.app, ctx.db);
  const id = await activeProject(ctx.app, tokens);
  await api(ctx.app, tokens.owner).post(`/projects/${id}/messages`, { body: 'Carla writes: the figures of shop 7 are late.' });
  await api(ctx.app, tokens.expert).post(`/projects/${id}/messages`, { body: 'Eva writes: the first dashboard is ready.' });
  await api(ctx.app, tokens.owner).upload(`/projects/${id}/documents`, PDF, 'sales-2026.pdf');
  await api(ctx.app, tokens.admin).post(`/projects/${id}/milestones`, { title: 'First dashboard', dueDate: '2027-01-15' });
  // A project of another client, and a contact message from the owner's address.
  await api(ctx.app, tokens.otherClient).post('/projects', {
    title: 'Globex secret plan',
    description: 'Nobody else may read this one.',
    practice: 'digital',
  });
  await ctx.db.k
    .insertInto('contact_messages')
    .values({
      name: 'Carla',
      email: 'CARLA@acme.example',
      subject: 'A question',
      message: 'Do you work with shops?',
      locale: 'en',
      consent_at: new Date().toISOString(),
      ip: '203.0.113.9',
      read: 0,
      notify_status: 'none',
      notify_attempts: 0,
      notify_error: null,
      created_at: new Date().toISOString(),
    })
    .execute();
  const cookie = await signIn(ctx.app, PEOPLE.owner.userName, SAFARI_MAC);
  return { ...ctx, tokens, id, cookie };
}

test('the download is a JSON attachment, never cached, in the three locale forms; signed out it goes to login', async () => {
  const { app, cookie } = await engagement();
  for (const path of ['/documents/my-data.json', '/es/documents/my-data.json', '/en/documents/my-data.json']) {
    const res = await request(app).get(path).set('Cookie', cookie);
    expect(res.status, path).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="my-data-acme-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers['cache-control']).toBe('private, no-store, no-transform');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(() => JSON.parse(res.text)).not.toThrow();
  }
  const anonymous = await request(app).get('/en/documents/my-data.json');
  expect(anonymous.status).toBe(302);
  expect(anonymous.headers.location).toBe('/en/login');
});

test("the export holds the user's profile, sessions, projects with milestones and history, messages, documents and contact messages — and is recorded", async () => {
  const { app, cookie, id, audit } = await engagement();
  const data = JSON.parse((await request(app).get('/en/documents/my-data.json').set('Cookie', cookie)).text);
  expect(data.format).toBe(1);
  expect(data.profile).toMatchObject({ userName: 'acme', name: 'Carla', lastName: 'Acme', email: 'carla@acme.example', role: 'CLI' });
  expect(data.lastUsedLocale).toMatchObject({ locale: 'en' });
  // The API sign-in and this browser's.
  expect(data.sessions).toHaveLength(2);
  expect(data.sessions.filter((s: { thisSession: boolean }) => s.thisSession)).toHaveLength(1);
  expect(data.sessions).toContainEqual(expect.objectContaining({ device: { browser: 'Safari', os: 'macOS' }, thisSession: true }));
  expect(data.projects).toHaveLength(1);
  const [project] = data.projects;
  expect(project).toMatchObject({ id, relation: 'owner', title: 'Data platform for the sales team', state: 'active' });
  expect(project.milestones).toEqual([expect.objectContaining({ title: 'First dashboard', dueDate: '2027-01-15' })]);
  expect(project.events.map((e: { kind: string }) => e.kind)).toEqual(
    expect.arrayContaining(['created', 'proposal', 'state', 'expert_added']),
  );
  expect(data.messages).toEqual([expect.objectContaining({ projectId: id, body: 'Carla writes: the figures of shop 7 are late.' })]);
  expect(data.documents).toEqual([expect.objectContaining({ projectId: id, name: 'sales-2026.pdf', bytes: PDF.length })]);
  expect(data.contactMessages).toEqual([expect.objectContaining({ subject: 'A question', email: 'CARLA@acme.example' })]);
  expect(data.expertProfile).toBeNull();
  expect(data.deletionRequest).toBeNull();
  expect(audit).toContainEqual(expect.objectContaining({ action: 'data_exported', actor: 'acme' }));
});

test("the export holds the user's notifications, their e-mail preferences and whether they have a calendar address — never the address", async () => {
  const { app, tokens, cookie } = await engagement();
  const before = JSON.parse((await request(app).get('/en/documents/my-data.json').set('Cookie', cookie)).text);
  // Never chose: everything at once; no calendar address.
  expect(before.mailPreferences).toBeNull();
  expect(before.calendarFeed).toBeNull();
  // The expert's message of the engagement is a notification of the owner's (without the expert's words).
  expect(before.notifications).toContainEqual(
    expect.objectContaining({
      kind: 'message_posted',
      actor: 'Eva Expert',
      detail: {},
    }),
  );
  const chosen = await api(app, tokens.owner).put('/me/mail-preferences', {
    messages: 'digest',
    states: 'immediate',
    milestones: 'never',
    documents: 'immediate',
    reminders: 'digest',
    reminderDays: 5,
  });
  expect(chosen.status).toBe(200);
  const calendar = await request(app)
    .post('/en/profile')
    .set('Cookie', cookie)
    .set('Origin', ORIGIN)
    .type('form')
    .send({ intent: 'calendarCreate' });
  expect(calendar.status).toBe(303);
  const text = (await request(app).get('/en/documents/my-data.json').set('Cookie', cookie)).text;
  const data = JSON.parse(text);
  expect(data.mailPreferences).toMatchObject({ messages: 'digest', milestones: 'never', reminders: 'digest', reminderDays: 5 });
  expect(data.calendarFeed).toEqual({ createdAt: expect.any(String) });
  expect(text).not.toContain('.ics');
});

test("the export holds nothing of another user's, and no secret: no password hash, no token, no session id, no file's bytes", async () => {
  const { app, db, cookie } = await engagement();
  const text = (await request(app).get('/en/documents/my-data.json').set('Cookie', cookie)).text;
  expect(text).not.toContain('Globex secret plan');
  expect(text).not.toContain('Eva writes');
  expect(text).not.toContain('globex');
  const secrets = [
    ...(await db.k.selectFrom('users').select('password_hash as s').execute()),
    ...(await db.k.selectFrom('sessions').select('api_token as s').execute()),
    ...(await db.k.selectFrom('sessions').select('token_digest as s').execute()),
    ...(await db.k.selectFrom('sessions').select('id as s').execute()),
  ].map((r) => r.s);
  expect(secrets.length).toBeGreaterThan(10);
  for (const secret of secrets) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/password_?hash|passwordHash|api_?token|"token"/i);
  expect(text).not.toContain('%PDF');
});

test("an expert's export holds the projects they work on and their expert profile", async () => {
  const { app, tokens, id } = await engagement();
  await api(app, tokens.expert).put('/me/expertise', {
    practices: ['data'],
    bio: 'Dashboards and data platforms.',
    dayRate: 600,
    availability: 'available',
  });
  const cookie = await signIn(app, PEOPLE.expert.userName);
  const data = JSON.parse((await request(app).get('/documents/my-data.json').set('Cookie', cookie)).text);
  expect(data.projects).toEqual([expect.objectContaining({ id, relation: 'expert' })]);
  expect(data.messages).toEqual([expect.objectContaining({ body: 'Eva writes: the first dashboard is ready.' })]);
  expect(data.expertProfile).toMatchObject({ bio: 'Dashboards and data platforms.', dayRate: 600, practices: ['data'] });
});

/** A database whose every query's row count is watched (a Kysely plugin on the same connection). */
function watched(db: Db): { db: Db; largestResult: () => number } {
  let largest = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      largest = Math.max(largest, args.result.rows.length);
      return args.result;
    },
  };
  return { db: { ...db, k: db.k.withPlugin(plugin) }, largestResult: () => largest };
}

test('a user with 10,000 messages: every query reads at most one page of rows, and the document is written in bounded chunks', async () => {
  const { db, id } = await engagement();
  await manyMessages(db, id, 10_000);
  const { db: watchedDb, largestResult } = watched(db);
  const chunks: number[] = [];
  let text = '';
  const user = sessionUserOf((await findUser(db, 'acme'))!);
  await writeAccountData({ db: watchedDb, builtIn: true, siteName: 'Test' }, user, null, async (chunk) => {
    chunks.push(chunk.length);
    text += chunk;
  });
  const data = JSON.parse(text);
  expect(data.messages).toHaveLength(10_001);
  expect(new Set(data.messages.map((m: { id: number }) => m.id)).size).toBe(10_001);
  expect(largestResult()).toBeLessThanOrEqual(EXPORT_PAGE_ROWS);
  expect(text.length).toBeGreaterThan(2_000_000);
  expect(chunks.length).toBeGreaterThan(20);
  // A chunk is what gathered up to the threshold plus at most one row.
  expect(Math.max(...chunks)).toBeLessThan(EXPORT_CHUNK_CHARS + 20_000);
});

test('the download streams: chunked, without a Content-Length (nothing holds the whole document), in many parts', async () => {
  const { app, db, id, cookie } = await engagement();
  await manyMessages(db, id, 10_000);
  const parts: number[] = [];
  const res = await request(app)
    .get('/en/documents/my-data.json')
    .set('Cookie', cookie)
    .set('Accept-Encoding', 'identity')
    .buffer(true)
    .parse((response, done) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        parts.push(chunk.length);
        body += chunk;
      });
      response.on('end', () => done(null, body));
    });
  expect(res.status).toBe(200);
  expect(res.headers['content-length']).toBeUndefined();
  expect(res.headers['transfer-encoding']).toBe('chunked');
  expect(parts.length).toBeGreaterThan(10);
  expect(JSON.parse(res.body as string).messages).toHaveLength(10_001);
});

test('the download is gzipped by the handler itself for a client that takes gzip (not by the global compression), and is the same JSON', async () => {
  const { app, db, id, cookie } = await engagement();
  await manyMessages(db, id, 2_000);
  // Straight over HTTP: supertest would unzip the body before the test saw it.
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const zipped = await new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      get(
        {
          port,
          host: '127.0.0.1',
          path: '/en/documents/my-data.json',
          headers: { Cookie: cookie, 'Accept-Encoding': 'gzip, deflate, br' },
        },
        (response) => {
          const parts: Buffer[] = [];
          response.on('data', (chunk: Buffer) => parts.push(chunk));
          response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(parts) }));
        },
      ).on('error', reject);
    });
    // gzip even though br is offered first: compression() would have chosen br.
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
    const data = JSON.parse(gunzipSync(zipped.body).toString('utf8'));
    expect(data.messages).toHaveLength(2_001);
  } finally {
    server.close();
  }
  const plain = await request(app).get('/en/documents/my-data.json').set('Cookie', cookie).set('Accept-Encoding', 'identity');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(JSON.parse(plain.text).messages).toHaveLength(2_001);
});

test('the download answers GET only: a POST to it is not allowed (405)', async () => {
  const { app, cookie } = await engagement();
  const res = await request(app).post('/en/documents/my-data.json').set('Origin', ORIGIN).set('Cookie', cookie);
  expect(res.status).toBe(405);
});

test('a user may download their data 10 times an hour: the next is 429 with Retry-After, and is not recorded', async () => {
  const { app, cookie, audit } = await engagement();
  for (let i = 0; i < EXPORTS_PER_HOUR; i++)
    expect((await request(app).get('/en/documents/my-data.json').set('Cookie', cookie)).status).toBe(200);
  const refused = await request(app).get('/en/documents/my-data.json').set('Cookie', cookie);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(refused.text).toMatch(/try again in \d+ seconds/);
  // A browser that followed the link gets a page in the language of the link, the wait in words.
  const page = await request(app).get('/documents/my-data.json').set('Cookie', cookie).set('Accept', 'text/html');
  expect(page.status).toBe(429);
  expect(page.text).toContain('<html lang="es">');
  expect(page.text).toMatch(/Has descargado tus datos varias veces en la última hora\. Vuelve a intentarlo dentro de \d+ minutos\./);
  expect(audit.filter((entry) => entry.action === 'data_exported')).toHaveLength(EXPORTS_PER_HOUR);
  // A HEAD makes nothing and counts nothing.
  const head = await request(app).head('/en/documents/my-data.json').set('Cookie', cookie);
  expect(head.status).toBe(200);
  expect(head.headers['content-disposition']).toMatch(/^attachment; filename="my-data-acme-/);
});

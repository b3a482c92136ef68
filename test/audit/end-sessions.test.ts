// An admin ends every session of a user (DELETE /api/admin/users/{userName}/sessions): on every
// instance, the user's next request is signed out (page or API); nobody else's session is touched;
// the audit log says who did it.
import type { Express } from 'express';
import request from 'supertest';
import { expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { SESSION_CACHE_MS } from '../../server/auth/session-store.ts';
import { createLogger } from '../../server/base/logger.ts';
import { createTestApp, ORIGIN, reopenableTestDatabase, testConfig } from '../helpers/app.ts';
import { addUser, DEFAULT_PASSWORD, loginToken } from '../helpers/users.ts';
import { scaled } from '../helpers/time-scale.ts';

async function site() {
  const created = await createTestApp();
  for (const [userName, role] of [
    ['ada', 'ADMIN'],
    ['pat', 'CLI'],
    ['carla', 'CLI'],
  ] as const)
    await addUser(created.db, { userName, role });
  return created;
}

async function cookieOf(app: Express, identifier: string): Promise<string> {
  const res = await request(app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier, password: DEFAULT_PASSWORD });
  expect(res.status).toBe(303);
  return String(res.headers['set-cookie']).split(';')[0]!;
}

/** Whether a browser with this cookie is signed in (its area's page, or a redirect to log in). */
async function pageStatus(app: Express, cookie: string, path: string): Promise<number> {
  return (await request(app).get(path).set('Cookie', cookie)).status;
}

const endSessions = (app: Express, userName: string, auth: { token?: string; cookie?: string }) => {
  let req = request(app)
    .delete(`/api/admin/users/${encodeURIComponent(userName)}/sessions`)
    .set('Origin', ORIGIN);
  if (auth.token) req = req.set('Authorization', `Bearer ${auth.token}`);
  if (auth.cookie) req = req.set('Cookie', auth.cookie);
  return req;
};

test("after an admin ends a user's sessions, the user's cookie and token no longer work; other users are untouched", async () => {
  const { app, audit, close } = await site();
  const [patCookie, patToken, carlaCookie, adaToken] = await Promise.all([
    cookieOf(app, 'pat'),
    loginToken(app, 'pat'),
    cookieOf(app, 'carla'),
    loginToken(app, 'ada'),
  ]);
  expect(await pageStatus(app, patCookie, '/en/client')).toBe(200);

  const res = await endSessions(app, 'PAT', { token: adaToken });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ user: { userName: 'pat', role: 'CLI', disabled: false }, ended: 2 });

  // The next request of the user is signed out: the page sends them to log in and clears the cookie.
  const page = await request(app).get('/en/client').set('Cookie', patCookie);
  expect(page.status).toBe(302);
  expect(page.headers.location).toBe('/en/login');
  expect(String(page.headers['set-cookie'])).toMatch(/auth\._token\.local=;/);
  expect((await request(app).get('/api/me').set('Authorization', `Bearer ${patToken}`)).status).toBe(401);
  // Nobody else is signed out.
  expect(await pageStatus(app, carlaCookie, '/en/client')).toBe(200);
  expect((await request(app).get('/api/me').set('Authorization', `Bearer ${adaToken}`)).status).toBe(200);
  // The user's password still works: they sign in again.
  expect(await pageStatus(app, await cookieOf(app, 'pat'), '/en/client')).toBe(200);

  const [entry] = (await audit.list({ action: 'sessions_ended' }, { page: 1, pageSize: 5 })).items;
  expect(entry).toMatchObject({ actor: 'ada', target: 'pat', detail: { count: 2 } });
  await close();
});

test("ending a user's sessions signs them out on every instance (another process on the same database)", async () => {
  const open = await reopenableTestDatabase();
  const logger = createLogger('silent');
  const config = testConfig();
  const one = await createApp({ config, logger, db: await open(), mail: { background: false } });
  const other = await createApp({ config, logger, db: await open(), mail: { background: false } });
  try {
    await addUser(one.db, { userName: 'ada', role: 'ADMIN' });
    await addUser(one.db, { userName: 'pat', role: 'CLI' });
    const patCookie = await cookieOf(other.app, 'pat');
    expect(await pageStatus(other.app, patCookie, '/client')).toBe(200);
    expect((await endSessions(one.app, 'pat', { token: await loginToken(one.app, 'ada') })).status).toBe(200);
    // The other instance forgets what it kept of the session within SESSION_CACHE_MS (and its change feed's delay).
    await expect
      .poll(() => pageStatus(other.app, patCookie, '/client'), { timeout: scaled(SESSION_CACHE_MS + 2_000), interval: 100 })
      .toBe(302);
  } finally {
    await one.close();
    await other.close();
  }
});

test('an admin ending their own sessions keeps the one in use: the console goes on working, the others end', async () => {
  const { app, close } = await site();
  const browser = await cookieOf(app, 'ada');
  const elsewhere = await loginToken(app, 'ada');
  const res = await endSessions(app, 'ada', { cookie: browser });
  expect(res.status).toBe(200);
  expect(res.body.ended).toBe(1);
  expect(await pageStatus(app, browser, '/en/admin')).toBe(200);
  expect((await request(app).get('/api/me').set('Authorization', `Bearer ${elsewhere}`)).status).toBe(401);
  await close();
});

test('ending the sessions of a user who does not exist answers 404 user_not_found', async () => {
  const { app, close } = await site();
  const res = await endSessions(app, 'ghost', { token: await loginToken(app, 'ada') });
  expect(res.status).toBe(404);
  expect(res.body.error.code).toBe('user_not_found');
  await close();
});

test('only admins end sessions: another role gets 403 and the sessions stay; signed out gets 401', async () => {
  const { app, audit, close } = await site();
  const patCookie = await cookieOf(app, 'pat');
  const forbidden = await endSessions(app, 'pat', { token: await loginToken(app, 'carla') });
  expect(forbidden.status).toBe(403);
  expect(forbidden.body.error.code).toBe('forbidden');
  const signedOut = await endSessions(app, 'pat', {});
  expect(signedOut.status).toBe(401);
  expect(await pageStatus(app, patCookie, '/client')).toBe(200);
  expect((await audit.list({ action: 'sessions_ended' }, { page: 1, pageSize: 5 })).total).toBe(0);
  await close();
});

test('a cross-site request cannot end sessions with the admin’s cookie (CSRF)', async () => {
  const { app, close } = await site();
  const [adaCookie, patCookie] = await Promise.all([cookieOf(app, 'ada'), cookieOf(app, 'pat')]);
  const res = await request(app).delete('/api/admin/users/pat/sessions').set('Origin', 'https://evil.example').set('Cookie', adaCookie);
  expect(res.status).toBe(403);
  expect(await pageStatus(app, patCookie, '/client')).toBe(200);
  await close();
});

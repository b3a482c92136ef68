// Findings 1 (high) and 6 (low): a session cookie outlives what it was issued for. An admin who
// was demoted, disabled, whose password was changed or who signed out replays the cookie they
// kept; every private answer (pages, page data, PDFs, the API) must decide on the user as they
// are now, not on the role sealed in the cookie at login.
import type { Express } from 'express';
import request from 'supertest';
import { expect, test } from 'vitest';
import { endSessionsOf, SESSION_CACHE_MS } from '../../server/auth/session-store.ts';
import { createUser, setDisabled, setPassword, setRole } from '../../server/users/users.ts';
import type { Db } from '../../server/db/index.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';

const PASSWORD = 'correct horse battery';

async function signIn(app: Express, identifier: string): Promise<string> {
  const res = await request(app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier, password: PASSWORD });
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('auth._token.local='));
  expect(cookie, `sign-in of ${identifier}`).toBeDefined();
  return cookie!.split(';')[0]!;
}

async function setup() {
  const { app, db } = await createTestApp();
  await createUser(db, { userName: 'eve', password: PASSWORD, role: 'ADMIN', name: 'Eve', lastName: 'Admin' });
  await createUser(db, { userName: 'boss', password: PASSWORD, role: 'ADMIN', name: 'Boss', lastName: 'Admin' });
  return { app, db, cookie: await signIn(app, 'eve') };
}

/** Another admin's change to eve through the admin API, answered at once on this instance. */
async function byBoss(app: Express, body: Record<string, unknown>): Promise<void> {
  const boss = await signIn(app, 'boss');
  const res = await request(app).patch('/api/admin/users/eve').set('Origin', ORIGIN).set('Cookie', boss).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** What each change does to eve, made the way the site makes it (admin console, ops CLI, logout). */
const CHANGES: { change: string; apply: (ctx: { app: Express; db: Db; cookie: string }) => Promise<void>; signedOut: boolean }[] = [
  { change: 'demoted to CLI', apply: ({ app }) => byBoss(app, { role: 'CLI' }), signedOut: false },
  { change: 'disabled', apply: ({ app }) => byBoss(app, { disabled: true }), signedOut: true },
  {
    // As the ops CLI does it, from another process: every instance sees it within a second.
    change: 'disabled from the command line',
    apply: async ({ db }) => {
      await setDisabled(db, 'eve', true);
      await endSessionsOf(db, 'eve');
      await new Promise((resolve) => setTimeout(resolve, SESSION_CACHE_MS + 100));
    },
    signedOut: true,
  },
  {
    change: 'whose password was changed',
    apply: async ({ db }) => {
      // Tokens are dated to the second: a change in a later second than the sign-in.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await setPassword(db, 'eve', 'another long passphrase');
    },
    signedOut: true,
  },
  {
    change: 'who signed out',
    apply: async ({ app, cookie }) => {
      const res = await request(app).post('/logout').set('Origin', ORIGIN).set('Cookie', cookie);
      expect(res.status).toBe(303);
    },
    signedOut: true,
  },
];

test.each(CHANGES)('an admin $change cannot read the contact inbox or the users report with the cookie they kept', async ({ apply }) => {
  const ctx = await setup();
  // Before: the cookie opens the reports.
  const before = await request(ctx.app).get('/documents/contact-messages.pdf').set('Cookie', ctx.cookie);
  expect(before.status).toBe(200);
  await apply(ctx);
  for (const path of ['/documents/contact-messages.pdf', '/en/documents/users.pdf', '/es/documents/contact-messages.pdf']) {
    const res = await request(ctx.app).get(path).set('Cookie', ctx.cookie);
    expect(res.headers['content-type'] ?? '', path).not.toContain('application/pdf');
    expect([302, 403], path).toContain(res.status);
  }
  for (const path of ['/api/admin/messages', '/api/admin/users']) {
    const res = await request(ctx.app).get(path).set('Cookie', ctx.cookie);
    expect([401, 403], path).toContain(res.status);
  }
});

test.each(CHANGES)('an admin $change no longer gets /admin, its page data or the API as an admin', async ({ apply, signedOut }) => {
  const ctx = await setup();
  await apply(ctx);
  const page = await request(ctx.app).get('/en/admin').set('Cookie', ctx.cookie);
  expect(page.status).toBe(302);
  expect(page.headers.location).toBe(signedOut ? '/en/login' : '/en/client');
  const data = await request(ctx.app).get('/_data').query({ path: '/en/admin' }).set('Cookie', ctx.cookie);
  expect(data.body).toMatchObject({ kind: 'redirect', to: signedOut ? '/en/login' : '/en/client' });
  const me = await request(ctx.app).get('/api/me').set('Cookie', ctx.cookie);
  if (signedOut) expect(me.status).toBe(401);
  else expect(me.body).toMatchObject({ userName: 'eve', role: 'CLI' });
});

test.each(CHANGES.filter((c) => c.signedOut))(
  'a user $change keeps no private page, not even /changePassword or their own profile PDF, and the cookie is cleared',
  async ({ apply }) => {
    const ctx = await setup();
    await apply(ctx);
    for (const path of ['/profile', '/changePassword', '/en/changePassword', '/documents/my-profile.pdf']) {
      const res = await request(ctx.app).get(path).set('Cookie', ctx.cookie);
      expect(res.status, path).toBe(302);
      expect(res.headers.location, path).toMatch(/\/login$/);
      expect(String(res.headers['set-cookie']), path).toMatch(/auth\._token\.local=;/);
    }
    // A form posted with the kept cookie is not taken either.
    const post = await request(ctx.app)
      .post('/en/changePassword')
      .set('Origin', ORIGIN)
      .set('Cookie', ctx.cookie)
      .type('form')
      .send({ currentPassword: PASSWORD, newPassword: 'attacker passphrase 1', confirmPassword: 'attacker passphrase 1' });
    expect(post.status).toBe(303);
    expect(post.headers.location).toBe('/en/login');
  },
);

test('the navbar shows the user as they are now (name and role), not as sealed at sign-in', async () => {
  const { app, db, cookie } = await setup();
  await setRole(db, 'eve', 'CONS');
  const res = await request(app).get('/en/expert').set('Cookie', cookie);
  expect(res.status).toBe(200);
  expect(res.text).toContain('"role":"CONS"');
  expect(res.text).not.toContain('"role":"ADMIN"');
});

test('signing out ends only that session: the same user signed in elsewhere stays signed in', async () => {
  const { app } = await setup();
  const phone = await signIn(app, 'boss');
  await new Promise((resolve) => setTimeout(resolve, 1100)); // tokens differ by their issue time
  const laptop = await signIn(app, 'boss');
  expect(laptop).not.toBe(phone);
  await request(app).post('/logout').set('Origin', ORIGIN).set('Cookie', laptop);
  expect((await request(app).get('/en/admin').set('Cookie', laptop)).status).toBe(302);
  expect((await request(app).get('/en/admin').set('Cookie', phone)).status).toBe(200);
});

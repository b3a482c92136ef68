// ADMIN_REQUIRE_2FA=true: an administrator signed in without two-factor authentication is sent
// to the set-up page and can use nothing else — every other page leads there (in its locale
// form), page data too, the API answers 403 two_factor_setup_required — until it is on. Other
// roles are not asked; logging out still works.
import request from 'supertest';
import { createTestApp } from '../helpers/app.ts';
import { expect, test } from 'vitest';
import { browser, DEFAULT_PASSWORD, post, secretOnPage, setUpTwoFactor, signInWithPassword, totp, twoFactorSite } from './helpers.ts';

const REQUIRED = { ADMIN_REQUIRE_2FA: 'true' };

async function signedInAdmin(env: Record<string, string> = REQUIRED) {
  const site = await twoFactorSite(
    [
      { userName: 'ada', role: 'ADMIN' },
      { userName: 'carla', role: 'CLI' },
    ],
    env,
  );
  const agent = browser(site.app);
  const login = await signInWithPassword(agent, 'ada', '/en');
  return { ...site, agent, login };
}

test('an administrator without 2FA who signs in is sent to the set-up page, which says why', async () => {
  const { agent, login } = await signedInAdmin();
  expect(login.status).toBe(303);
  const home = await agent.get(login.headers.location as string);
  expect(home.status).toBe(302);
  expect(home.headers.location).toBe('/en/profile/twoFactor');
  const page = await agent.get('/en/profile/twoFactor');
  expect(page.status).toBe(200);
  expect(page.text).toContain('Administrators must use two-step verification. Turn it on to continue');
  expect(page.text).toContain('class="two-factor-secret"');
});

test.each([
  ['/', '/profile/twoFactor'],
  ['/admin', '/profile/twoFactor'],
  ['/es/admin', '/es/profile/twoFactor'],
  ['/en/admin', '/en/profile/twoFactor'],
  ['/en/profile', '/en/profile/twoFactor'],
  ['/changePassword', '/profile/twoFactor'],
  ['/en/blog', '/en/profile/twoFactor'],
  ['/client', '/profile/twoFactor'],
  ['/en/admin/projects/1', '/en/profile/twoFactor'],
  ['/documents/my-profile.pdf', '/profile/twoFactor'],
])('until then, %s leads to %s', async (path, to) => {
  const { agent } = await signedInAdmin();
  const res = await agent.get(path);
  expect(res.status).toBe(302);
  expect(res.headers.location).toBe(to);
  expect(res.headers['cache-control']).toBe('private, no-store');
});

test('until then, page data answers the redirect, the API 403 two_factor_setup_required, other forms lead to the set-up page; logout works', async () => {
  const { agent, app } = await signedInAdmin();
  const data = await agent.get('/_data?path=%2Fen%2Fadmin');
  expect(data.body).toEqual({ kind: 'redirect', to: '/en/profile/twoFactor', status: 302 });
  expect((await agent.get('/_data?path=%2Fen%2Fprofile%2FtwoFactor')).body.kind).toBe('payload');
  const api = await agent.get('/api/admin/users');
  expect(api.status).toBe(403);
  expect(api.body.error.code).toBe('two_factor_setup_required');
  const form = await post(agent, '/en/profile', { name: 'Ada', lastName: 'L' }, true);
  expect(form.body).toEqual({ ok: true, redirect: '/en/profile/twoFactor' });
  const logout = await post(agent, '/en/logout', {});
  expect(logout.headers.location).toBe('/en');
  expect((await agent.get('/en/admin')).headers.location).toBe('/en/login');
  // The API's own sign-in refuses the administrator a token.
  const token = await request(app).post('/api/login').send({ identifier: 'ada', password: DEFAULT_PASSWORD });
  expect(token.status).toBe(403);
  expect(token.body.error.code).toBe('two_factor_setup_required');
});

test('once 2FA is on, the administrator uses the site again (and signs in with a code from then on)', async () => {
  const { agent, app } = await signedInAdmin();
  const secret = secretOnPage((await agent.get('/en/profile/twoFactor')).text);
  const on = await post(agent, '/en/profile/twoFactor', { action: 'enable', code: totp(secret) }, true);
  expect(on.status).toBe(200);
  expect((await agent.get('/en/admin')).status).toBe(200);
  expect((await agent.get('/api/admin/users')).status).toBe(200);
  const page = await agent.get('/en/profile/twoFactor');
  expect(page.text).toContain('Administrators must keep two-step verification on.');
  expect(page.text).not.toContain('name="password"');
  const next = browser(app);
  expect((await signInWithPassword(next, 'ada', '/en')).headers.location).toBe('/en/login/code');
});

test('an administrator may not turn 2FA off while it is required (403 two_factor_required)', async () => {
  const site = await twoFactorSite([{ userName: 'ada', role: 'ADMIN' }], REQUIRED);
  const agent = browser(site.app);
  const { recoveryCodes } = await setUpTwoFactor(agent, 'ada');
  const off = await post(agent, '/profile/twoFactor', { action: 'disable', password: DEFAULT_PASSWORD, code: recoveryCodes[0]! }, true);
  expect(off.status).toBe(403);
  expect(off.body.form.error.code).toBe('two_factor_required');
  expect(await site.db.k.selectFrom('two_factor').select('enabled_at').execute()).toHaveLength(1);
});

test('other roles are not asked to set 2FA up, and without ADMIN_REQUIRE_2FA administrators are not either', async () => {
  const { app } = await signedInAdmin();
  const client = browser(app);
  const login = await signInWithPassword(client, 'carla', '/en');
  expect(login.headers.location).toBe('/en/client');
  expect((await client.get('/en/client')).status).toBe(200);
  const { agent } = await signedInAdmin({});
  expect((await agent.get('/en/admin')).status).toBe(200);
});

test('an API token an administrator got before 2FA was required is refused (403 two_factor_setup_required) once it is', async () => {
  const before = await twoFactorSite([{ userName: 'ada', role: 'ADMIN' }]);
  const token = await request(before.app).post('/api/login').send({ identifier: 'ada', password: DEFAULT_PASSWORD });
  expect(token.status).toBe(200);
  const { app } = await createTestApp(REQUIRED, { db: before.db });
  const me = await request(app).get('/api/me').set('Authorization', `Bearer ${token.body.token}`);
  expect(me.status).toBe(403);
  expect(me.body.error.code).toBe('two_factor_setup_required');
});

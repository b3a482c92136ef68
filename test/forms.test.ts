import request from 'supertest';
import { expect, test } from 'vitest';
import { createUser } from '../server/users/users.ts';
import { createTestApp, ORIGIN } from './helpers/app.ts';

const PASSWORD = 'correct horse battery';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

async function appWithUser(env?: Record<string, string>) {
  const { app, db } = await createTestApp(env);
  await createUser(db, { userName: 'pat', password: PASSWORD, role: 'CONS', name: 'Pat', lastName: 'Lee', email: 'pat@example.com' });
  return app;
}

function sessionCookie(res: request.Response): string {
  const cookie = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('auth._token.local=') && !c.startsWith('auth._token.local=;'));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0]!;
}

async function signedIn(app: Awaited<ReturnType<typeof appWithUser>>, password = PASSWORD) {
  const res = await request(app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier: 'pat', password });
  expect(res.status).toBe(303);
  return sessionCookie(res);
}

test('the login form is posted to its own URL in every locale form', async () => {
  const app = await appWithUser();
  for (const [path, home] of [
    ['/login', '/expert'],
    ['/es/login', '/es/expert'],
    ['/en/login', '/en/expert'],
  ]) {
    const page = await request(app).get(path!);
    expect(page.text).toMatch(new RegExp(`<form class="form"[^>]* action="${path}" method="post">`));
    expect(page.text).toMatch(/name="identifier"[^>]*/);
    expect(page.text).toMatch(/<input(?=[^>]*id="login-password")(?=[^>]*name="password")(?=[^>]*type="password")/);
    const res = await request(app).post(path!).set('Origin', ORIGIN).type('form').send({ identifier: 'PAT', password: PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(home);
  }
});

test('login with empty fields answers 400 naming both fields, in the page without JavaScript', async () => {
  const app = await appWithUser();
  const res = await request(app).post('/en/login').set('Origin', ORIGIN).type('form').send({ identifier: '', password: '' });
  expect(res.status).toBe(400);
  expect(res.text).toContain('id="login-identifier-error"');
  expect(res.text).toContain('id="login-password-error"');
  expect(res.text).toContain('This field is required.');
});

test('after repeated failures the login answers 429 with Retry-After, even with the right password', async () => {
  const app = await appWithUser({ LOGIN_MAX_FAILURES_PER_IDENTIFIER_IP: '3' });
  for (let i = 0; i < 3; i++) {
    const res = await request(app)
      .post('/en/login')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ identifier: 'pat', password: `wrong-${i}` });
    expect(res.status).toBe(401);
  }
  const blocked = await request(app).post('/en/login').set('Origin', ORIGIN).type('form').send({ identifier: 'pat', password: PASSWORD });
  expect(blocked.status).toBe(429);
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  expect(blocked.text).toMatch(/Too many failed attempts\. Try again in \d+ (?:seconds|minutes)\./);
});

test('the login limit also counts per IP across accounts', async () => {
  const app = await appWithUser({ LOGIN_MAX_FAILURES_PER_IP: '3' });
  for (const identifier of ['a1', 'a2', 'a3']) {
    await request(app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier, password: 'wrong-password' });
  }
  const blocked = await request(app)
    .post('/login')
    .set('Origin', ORIGIN)
    .set('Accept', 'application/json')
    .send({ identifier: 'pat', password: PASSWORD });
  expect(blocked.status).toBe(429);
  expect(blocked.body.form.error.code).toBe('too_many_attempts');
});

test('profile edit: POST then 303, and the same session shows the new name', async () => {
  const app = await appWithUser();
  const cookie = await signedIn(app);
  const res = await request(app)
    .post('/en/profile')
    .set('Origin', ORIGIN)
    .set('Cookie', cookie)
    .type('form')
    .send({ name: 'Patricia', lastName: 'Lee Gómez' });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/profile?saved=profile');
  const page = await request(app).get('/en/profile?saved=profile').set('Cookie', cookie);
  expect(page.text).toContain('navbar-user-name">Patricia<!-- --> <!-- -->Lee Gómez');
  expect(page.text).toContain('Your profile has been saved.');
  expect(page.text).toContain('value="Patricia"');
});

test('profile edit refuses an empty name with a field message and keeps what was typed', async () => {
  const app = await appWithUser();
  const cookie = await signedIn(app);
  const res = await request(app)
    .post('/en/profile')
    .set('Origin', ORIGIN)
    .set('Cookie', cookie)
    .type('form')
    .send({ name: '  ', lastName: 'Kept' });
  expect(res.status).toBe(422);
  expect(res.text).toContain('id="profile-name-error"');
  expect(res.text).toContain('value="Kept"');
});

test('avatar upload with a wrong type is refused (415) and a PNG is accepted and served with nosniff', async () => {
  const app = await appWithUser();
  const cookie = await signedIn(app);
  const gif = await request(app)
    .post('/en/profile')
    .set('Origin', ORIGIN)
    .set('Cookie', cookie)
    .set('Accept', 'application/json')
    .set('Content-Type', 'image/png')
    .send(Buffer.from('GIF89a fake image'));
  expect(gif.status).toBe(415);
  expect(gif.body.form.error.fields.avatar).toBe('validation.imageType');

  const ok = await request(app)
    .post('/en/profile')
    .set('Origin', ORIGIN)
    .set('Cookie', cookie)
    .set('Accept', 'application/json')
    .set('Content-Type', 'image/png')
    .send(PNG);
  expect(ok.status).toBe(200);
  expect(ok.body).toEqual({ ok: true, redirect: '/en/profile?saved=avatar', success: 'avatar' });
  const page = await request(app).get('/en/profile').set('Cookie', cookie);
  const src = /navbar-user-button"[^>]*><img src="(\/api\/avatars\/[a-f0-9]+\.png)"/.exec(page.text)?.[1];
  expect(src).toBeDefined();
  const image = await request(app).get(src!);
  expect(image.status).toBe(200);
  expect(image.headers['content-type']).toBe('image/png');
  expect(image.headers['x-content-type-options']).toBe('nosniff');
});

test('an avatar over 1 MB is refused with 413', async () => {
  const app = await appWithUser();
  const cookie = await signedIn(app);
  const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
  const res = await request(app)
    .post('/profile')
    .set('Origin', ORIGIN)
    .set('Cookie', cookie)
    .set('Accept', 'application/json')
    .set('Content-Type', 'image/png')
    .send(big);
  expect(res.status).toBe(413);
});

test('password change: at least 10 characters, not the user name, confirmed; then this session goes on and the others end', async () => {
  const app = await appWithUser();
  const cookie = await signedIn(app);
  const elsewhere = await signedIn(app);
  const post = (body: Record<string, string>) =>
    request(app).post('/en/changePassword').set('Origin', ORIGIN).set('Cookie', cookie).type('form').send(body);

  const short = await post({ currentPassword: PASSWORD, newPassword: 'short', confirmPassword: 'short' });
  expect(short.status).toBe(422);
  expect(short.text).toContain('The password needs at least 10 characters.');
  const userName = await post({ currentPassword: PASSWORD, newPassword: 'PAT', confirmPassword: 'PAT' });
  expect(userName.status).toBe(422);
  const differ = await post({ currentPassword: PASSWORD, newPassword: 'a new passphrase', confirmPassword: 'another one!!' });
  expect(differ.text).toContain('The two new passwords do not match.');
  const wrong = await post({ currentPassword: 'not my password', newPassword: 'a new passphrase', confirmPassword: 'a new passphrase' });
  expect(wrong.status).toBe(422);
  expect(wrong.text).toContain('The current password is not correct.');

  const ok = await post({ currentPassword: PASSWORD, newPassword: 'a new passphrase', confirmPassword: 'a new passphrase' });
  expect(ok.status).toBe(303);
  expect(ok.headers.location).toBe('/en/changePassword?saved=password');
  // This browser stays signed in with the cookie it has; the session signed in elsewhere ends.
  expect((await request(app).get('/en/profile').set('Cookie', cookie)).status).toBe(200);
  expect((await request(app).get('/en/profile').set('Cookie', elsewhere)).status).toBe(302);
  const old = await request(app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier: 'pat', password: PASSWORD });
  expect(old.status).toBe(401);
  await signedIn(app, 'a new passphrase');
});

test('a form post without a session goes to login', async () => {
  const app = await appWithUser();
  const res = await request(app).post('/en/profile').set('Origin', ORIGIN).type('form').send({ name: 'X', lastName: 'Y' });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/login');
});

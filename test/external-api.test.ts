import { SignJWT } from 'jose';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, expect, test } from 'vitest';
import { createTestApp, ORIGIN } from './helpers/app.ts';

// A small upstream API started by the test: the contract of docs/openapi.json, HS256 tokens, and
// no GET /me (the specification's API has no user-fetch call).
const SHARED_SECRET = 'upstream-shared-secret-that-is-long-enough';
const key = new TextEncoder().encode(SHARED_SECRET);
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
let refuseTokens = false;

async function tokenFor(userName: string, role: string) {
  // "kc" signs in like a Keycloak user: its tokens carry a `sid` claim of the upstream's own, the
  // same for every sign-in of its browser session.
  const sid = userName === 'kc' ? { sid: 'upstream-login-session-1' } : {};
  return new SignJWT({ name: 'Up', lastName: 'Stream', userName, role, avatar: null, scope: ['reports:read'], ...sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1h')
    .sign(key);
}

const upstream: Server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', async () => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'POST' && req.url === '/v1/login') {
      const { identifier, password } = JSON.parse(body || '{}') as { identifier?: string; password?: string };
      if (password !== 'upstream-password') return send(401, { error: { code: 'bad_credentials', message: 'nope' } });
      return send(200, { token: await tokenFor(identifier ?? 'x', identifier === 'boss' ? 'ADMIN' : 'CLI') });
    }
    if (refuseTokens) return send(401, { error: { code: 'unauthorized', message: 'expired' } });
    if (req.method === 'POST' && req.url === '/v1/me/password') {
      const { currentPassword } = JSON.parse(body || '{}') as { currentPassword?: string };
      if (currentPassword !== 'upstream-password') {
        return send(422, {
          error: { code: 'wrong_current_password', message: 'no', fields: { currentPassword: 'validation.wrongCurrentPassword' } },
        });
      }
      return send(200, {});
    }
    if (req.url?.startsWith('/v1/admin/users')) return send(200, { items: [], total: 0, page: 1, pageSize: 20 });
    if (req.url === '/v1/echo') return send(200, { ok: true });
    return send(404, { error: { code: 'not_found', message: 'no' } });
  });
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const API_URL = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

const { app } = await createTestApp({ API_URL, API_JWT_SECRET: SHARED_SECRET });

async function signIn(identifier: string, password = 'upstream-password') {
  return request(app).post('/en/login').set('Origin', ORIGIN).type('form').send({ identifier, password });
}
function sessionCookie(res: request.Response) {
  return ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('auth._token.local='))!
    .split(';')[0]!;
}

test('login posts to {API_URL}/login and signs in with the token it answers', async () => {
  const res = await signIn('carla');
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/client');
  const call = seen.find((c) => c.url === '/v1/login');
  expect(call?.method).toBe('POST');
  expect(call?.headers.authorization).toBeUndefined();
  const page = await request(app).get('/en/client').set('Cookie', sessionCookie(res));
  expect(page.status).toBe(200);
  expect(page.text).toContain('navbar-user-name">Up<!-- --> <!-- -->Stream');
});

test('an upstream token’s own `sid` claim is not taken for the site’s session id: two sign-ins are two sessions, ended apart', async () => {
  const first = sessionCookie(await signIn('kc'));
  const second = sessionCookie(await signIn('kc'));
  expect((await request(app).get('/en/client').set('Cookie', first)).status).toBe(200);
  expect((await request(app).get('/en/client').set('Cookie', second)).status).toBe(200);
  await request(app).post('/en/logout').set('Origin', ORIGIN).set('Cookie', first);
  expect((await request(app).get('/en/client').set('Cookie', first)).status).toBe(302);
  expect((await request(app).get('/en/client').set('Cookie', second)).status).toBe(200);
});

test('an upstream refusal is the same invalid-credentials message', async () => {
  const res = await signIn('carla', 'wrong');
  expect(res.status).toBe(401);
  expect(res.text).toContain('Incorrect user name or password.');
});

test('a token that does not verify with API_JWT_SECRET is refused (502), no session', async () => {
  const { app: strict } = await createTestApp({ API_URL, API_JWT_SECRET: 'a-different-secret-that-is-long-enough-xx' });
  const res = await request(strict)
    .post('/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: 'carla', password: 'upstream-password' });
  expect(res.status).toBe(502);
  expect(res.headers['set-cookie'] ?? []).not.toEqual(expect.arrayContaining([expect.stringMatching(/^auth\._token\.local=[^;]/)]));
});

test('/api/* is proxied with the session Bearer token; the browser Authorization and cookies are not forwarded', async () => {
  const cookie = sessionCookie(await signIn('carla'));
  seen.length = 0;
  const res = await request(app).get('/api/echo').set('Cookie', `${cookie}; other=1`).set('Authorization', 'Bearer forged-by-the-browser');
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('private, no-store');
  const call = seen.find((c) => c.url === '/v1/echo')!;
  expect(call.headers.authorization).toMatch(/^Bearer eyJ/);
  expect(call.headers.authorization).not.toContain('forged');
  expect(call.headers.cookie).toBeUndefined();
});

test('an upstream 401 clears the session and sends the user to login with the path remembered', async () => {
  const cookie = sessionCookie(await signIn('boss'));
  refuseTokens = true;
  try {
    // The users page asks the upstream API for its list.
    const res = await request(app).get('/en/admin/users').set('Cookie', cookie);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/en/login');
    const set = String(res.headers['set-cookie']);
    expect(set).toMatch(/auth\._token\.local=;/);
    expect(set).toContain('auth.redirect=%2Fen%2Fadmin%2Fusers');
    const api = await request(app).get('/api/echo').set('Cookie', cookie);
    expect(api.status).toBe(401);
    expect(String(api.headers['set-cookie'])).toMatch(/auth\._token\.local=;/);
  } finally {
    refuseTokens = false;
  }
});

test('change password with an external API: the current password is checked first (as a sign-in), and guesses are counted', async () => {
  const { app: site } = await createTestApp({ API_URL, API_JWT_SECRET: SHARED_SECRET, PASSWORD_CHANGE_MAX_FAILURES_PER_ACCOUNT: '2' });
  const signedIn = await request(site)
    .post('/en/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: 'dana', password: 'upstream-password' });
  const cookie = sessionCookie(signedIn);
  const post = (body: Record<string, string>) =>
    request(site).post('/en/changePassword').set('Origin', ORIGIN).set('Cookie', cookie).set('Accept', 'application/json').send(body);
  const newPassword = 'a brand new passphrase';

  seen.length = 0;
  const probe = await post({ currentPassword: 'a guess', newPassword: 'short', confirmPassword: 'short' });
  expect(probe.status).toBe(422);
  expect(probe.body.form.error.code).toBe('wrong_current_password');
  // The contract has no password check: the site signs in as the session's user (its token's
  // user name: no user-fetch call exists) to make one.
  expect(seen.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /v1/login']);
  expect(JSON.parse(seen[0]!.body) as unknown).toEqual({ identifier: 'dana', password: 'a guess' });
  const rightBadNew = await post({ currentPassword: 'upstream-password', newPassword: 'short', confirmPassword: 'short' });
  expect(rightBadNew.body.form.error).toMatchObject({ code: 'invalid_password', fields: { newPassword: 'validation.passwordTooShort' } });
  const guess = await post({ currentPassword: 'another guess', newPassword, confirmPassword: newPassword });
  expect(guess.body.form.error.code).toBe('wrong_current_password');
  // Two guesses (PASSWORD_CHANGE_MAX_FAILURES_PER_ACCOUNT): the third attempt is refused here.
  seen.length = 0;
  const refused = await post({ currentPassword: 'upstream-password', newPassword, confirmPassword: newPassword });
  expect(refused.status).toBe(429);
  expect(refused.body.form.error.code).toBe('too_many_attempts');
  expect(seen).toEqual([]);
});

test('external API down: login answers 503 with a clear message', async () => {
  const { app: orphan } = await createTestApp({ API_URL: 'http://127.0.0.1:9/v1', API_JWT_SECRET: SHARED_SECRET });
  const res = await request(orphan).post('/en/login').set('Origin', ORIGIN).type('form').send({ identifier: 'carla', password: 'x' });
  expect(res.status).toBe(503);
  expect(res.text).toContain('The sign-in service is not available right now');
  const proxied = await request(orphan).get('/api/echo');
  expect(proxied.status).toBe(503);
  expect(proxied.body.error.code).toBe('api_unavailable');
});

test('with an external API the private area still does its work: a client writes a brief on its page, the admin sees it in the pipeline, outsiders get the 404', async () => {
  const client = sessionCookie(await signIn('acme-upstream'));
  const admin = sessionCookie(await signIn('boss'));
  const other = sessionCookie(await signIn('someone-else'));
  const posted = await request(app)
    .post('/client/projects/new')
    .set('Cookie', client)
    .set('Origin', ORIGIN)
    .type('form')
    .send({ title: 'Upstream brief', description: 'Written with the API elsewhere.', practice: 'compliance' });
  expect(posted.status).toBe(303);
  const path = posted.headers.location as string;
  expect(path).toMatch(/^\/client\/projects\/\d+\?done=created#project-notice$/);
  const mine = await request(app).get(path).set('Cookie', client);
  expect(mine.status).toBe(200);
  expect(mine.text).toContain('Upstream brief');
  const pipeline = await request(app).get('/admin/projects').set('Cookie', admin);
  expect(pipeline.text).toContain('Upstream brief');
  expect((await request(app).get(path.split('?')[0]!).set('Cookie', other)).status).toBe(404);
});

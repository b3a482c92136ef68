import request from 'supertest';
import { randomBytes } from 'node:crypto';
import { decodeJwt, SignJWT } from 'jose';
import { expect, onTestFinished, test, vi } from 'vitest';
import { createUser } from '../server/users/users.ts';
import { createSessionCodec } from '../server/auth/session-cookie.ts';
import { hmacVerifier, TOKEN_ISSUER } from '../server/auth/tokens.ts';
import { createTestApp, ORIGIN, TEST_SESSION_SECRET } from './helpers/app.ts';

const PASSWORD = 'correct horse battery';
const codec = createSessionCodec(TEST_SESSION_SECRET);

// One app with a user per role, signed in once through the real login form.
const { app, db } = await createTestApp();
const ROLE_USERS = { ADMIN: 'ada', CLI: 'carla', ORG: 'olga', CONS: 'elena' } as const;
for (const [role, userName] of Object.entries(ROLE_USERS)) {
  await createUser(db, { userName, password: PASSWORD, role: role as keyof typeof ROLE_USERS, name: userName, lastName: 'Test' });
}

function sessionCookieOf(res: request.Response): string {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = cookies.find((c) => c.startsWith('auth._token.local='));
  if (!cookie) throw new Error(`no session cookie in ${JSON.stringify(cookies)}`);
  return cookie.split(';')[0]!;
}

async function signIn(identifier: string, password = PASSWORD, path = '/login') {
  return request(app).post(path).set('Origin', ORIGIN).type('form').send({ identifier, password });
}

const cookies: Record<string, string> = {};
for (const [role, userName] of Object.entries(ROLE_USERS)) cookies[role] = sessionCookieOf(await signIn(userName));

/**
 * A session for a role this site does not know: only an external API can send one (the built-in
 * API's users have known roles, and its sessions are checked against them), so these requests go
 * to the site in external-API mode (API_URL; the pages asked for here call no API).
 */
const EXTERNAL_SECRET = 'x'.repeat(40);
const { app: externalApp, db: externalDb } = await createTestApp({ API_URL: 'http://127.0.0.1:9/v1', API_JWT_SECRET: EXTERNAL_SECRET });

/** A session of the external API's user "gus" with the role GUEST, as a sign-in there would make it. */
async function cookieForUnknownRole(): Promise<string> {
  const exp = Math.floor(Date.now() / 1000) + 600;
  const token = await new SignJWT({ name: 'Gus', lastName: 'Guest', userName: 'gus', role: 'GUEST', avatar: null, scope: [] })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(EXTERNAL_SECRET));
  const id = randomBytes(32).toString('base64url');
  const at = new Date().toISOString();
  await externalDb.k
    .insertInto('sessions')
    .values({
      id,
      user_name: 'gus',
      created_at: at,
      last_seen_at: at,
      expires_at: exp,
      user_agent: null,
      ip: null,
      api_token: token,
      token_digest: id,
    })
    .execute();
  return `auth._token.local=${await codec.seal({ id, exp })}`;
}

const FORMS = [
  { form: 'unprefixed', prefix: '' },
  { form: '/es', prefix: '/es' },
  { form: '/en', prefix: '/en' },
] as const;
// The admin console's pages (docs/decisions/039) are guarded like /admin itself.
const CONSOLE = ['admin/projects', 'admin/users', 'admin/inbox', 'admin/audit', 'admin/deletions', 'admin/branding'] as const;
const AREAS = ['admin', 'client', 'organization', 'expert', ...CONSOLE] as const;
const everyConsolePage = (expected: string | 200) => Object.fromEntries(CONSOLE.map((page) => [page, expected]));
// The role rule: ADMIN passes everywhere; CLI, ORG, CONS are confined to their area.
const EXPECTED: Record<string, Record<(typeof AREAS)[number], string | 200>> = {
  ADMIN: { admin: 200, client: 200, organization: 200, expert: 200, ...everyConsolePage(200) },
  CLI: { admin: '/client', client: 200, organization: '/client', expert: '/client', ...everyConsolePage('/client') },
  ORG: {
    admin: '/organization',
    client: '/organization',
    organization: 200,
    expert: '/organization',
    ...everyConsolePage('/organization'),
  },
  CONS: { admin: '/expert', client: '/expert', organization: '/expert', expert: 200, ...everyConsolePage('/expert') },
  GUEST: { admin: '/', client: '/', organization: '/', expert: '/', ...everyConsolePage('/') },
  'signed out': { admin: '/login', client: '/login', organization: '/login', expert: '/login', ...everyConsolePage('/login') },
} as unknown as Record<string, Record<(typeof AREAS)[number], string | 200>>;

const ROLE_AREA_CASES = Object.entries(EXPECTED).flatMap(([role, areas]) =>
  AREAS.flatMap((area) => FORMS.map(({ form, prefix }) => ({ role, area, form, prefix, expected: areas[area] }))),
);

test.each(ROLE_AREA_CASES)('role $role on /$area ($form form) → $expected', async ({ role, area, prefix, expected }) => {
  const cookie = role === 'signed out' ? '' : role === 'GUEST' ? await cookieForUnknownRole() : cookies[role]!;
  const res = await request(role === 'GUEST' ? externalApp : app)
    .get(`${prefix}/${area}`)
    .set('Cookie', cookie);
  if (expected === 200) {
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
  } else {
    expect(res.status).toBe(302);
    // Redirects keep the current locale form (/en/admin for a CLI user → /en/client).
    expect(res.headers.location).toBe(expected === '/' ? prefix || '/' : `${prefix}${expected}`);
  }
});

test.each([
  ['CLI', '/client'],
  ['ORG', '/organization'],
  ['CONS', '/expert'],
])('home sends a signed-in %s user to their area %s', async (role, area) => {
  for (const prefix of ['', '/es', '/en']) {
    const res = await request(app)
      .get(prefix || '/')
      .set('Cookie', cookies[role]!);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(prefix + area);
  }
});

test('home stays home for ADMIN and unknown roles', async () => {
  expect((await request(app).get('/en').set('Cookie', cookies.ADMIN!)).status).toBe(200);
  expect(
    (
      await request(app)
        .get('/en')
        .set('Cookie', await cookieForUnknownRole())
    ).status,
  ).toBe(200);
});

test.each(FORMS)('the guest guard sends a signed-in user from login to home ($form form)', async ({ prefix }) => {
  const res = await request(app).get(`${prefix}/login`).set('Cookie', cookies.ADMIN!);
  expect(res.status).toBe(302);
  expect(res.headers.location).toBe(prefix || '/');
});

test('login answers 303 to the role home in the same locale form and sets the sealed session cookies', async () => {
  const res = await signIn('carla', PASSWORD, '/en/login');
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/client');
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const session = cookies.find((c) => c.startsWith('auth._token.local='))!;
  expect(session).toMatch(/HttpOnly/i);
  expect(session).toMatch(/SameSite=Lax/i);
  expect(session).not.toMatch(/Secure/); // plain HTTP here; Secure under HTTPS
  expect(cookies.some((c) => c.startsWith('auth.strategy=local'))).toBe(true);
  expect(cookies.some((c) => /^auth\._refresh_token\.local=;/.test(c))).toBe(true);
  // Sealed: the cookie is an encrypted JWE, not a readable JWT.
  const value = decodeURIComponent(session.split(';')[0]!.split('=')[1]!);
  expect(value.split('.')).toHaveLength(5);
  expect(() => decodeJwt(value)).toThrow();
});

test('the session cookie is Secure under HTTPS (behind a trusted proxy)', async () => {
  const { app: proxied, db: proxiedDb } = await createTestApp({ TRUST_PROXY: 'loopback' });
  await createUser(proxiedDb, { userName: 'sam', password: PASSWORD, role: 'CLI', name: 'Sam', lastName: 'S' });
  const res = await request(proxied)
    .post('/login')
    .set('Origin', ORIGIN)
    .set('X-Forwarded-Proto', 'https')
    .type('form')
    .send({ identifier: 'sam', password: PASSWORD });
  expect(res.status).toBe(303);
  expect(String(res.headers['set-cookie'])).toMatch(/auth\._token\.local=[^;]+;.*Secure/);
});

test('unknown user and wrong password give the same message, and the form keeps the identifier', async () => {
  const unknown = await signIn('nobody', 'whatever-password', '/en/login');
  const wrong = await signIn('carla', 'wrong-password', '/en/login');
  expect(unknown.status).toBe(401);
  expect(wrong.status).toBe(401);
  const message = (html: string) => /<p class="form-error" role="alert">([^<]+)<\/p>/.exec(html)?.[1];
  expect(message(unknown.text)).toBe('Incorrect user name or password.');
  expect(message(wrong.text)).toBe(message(unknown.text));
  expect(wrong.text).toContain('value="carla"');
});

test('with JavaScript the login answers JSON without a redirect', async () => {
  const ok = await request(app)
    .post('/en/login')
    .set('Origin', ORIGIN)
    .set('Accept', 'application/json')
    .send({ identifier: 'olga', password: PASSWORD });
  expect(ok.status).toBe(200);
  expect(ok.body).toEqual({ ok: true, redirect: '/en/organization' });
  const bad = await request(app)
    .post('/en/login')
    .set('Origin', ORIGIN)
    .set('Accept', 'application/json')
    .send({ identifier: 'olga', password: 'nope' });
  expect(bad.status).toBe(401);
  expect(bad.body).toMatchObject({ ok: false, form: { form: 'login', error: { code: 'invalid_credentials' } } });
});

test('login refuses a cross-site post (CSRF)', async () => {
  const res = await request(app)
    .post('/login')
    .set('Origin', 'https://evil.example')
    .type('form')
    .send({ identifier: 'carla', password: PASSWORD });
  expect(res.status).toBe(403);
  expect(res.headers['set-cookie']).toBeUndefined();
});

test('the remembered path is restored after login (round trip)', async () => {
  const first = await request(app).get('/en/profile?tab=1');
  expect(first.status).toBe(302);
  expect(first.headers.location).toBe('/en/login');
  const remembered = ([] as string[]).concat(first.headers['set-cookie'] ?? []).find((c) => c.startsWith('auth.redirect='))!;
  expect(remembered).toMatch(/HttpOnly/i);
  const res = await request(app)
    .post('/en/login')
    .set('Origin', ORIGIN)
    .set('Cookie', remembered.split(';')[0]!)
    .type('form')
    .send({ identifier: 'carla', password: PASSWORD });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/profile?tab=1');
});

test('a hostile remembered path is ignored: the role home instead', async () => {
  const res = await request(app)
    .post('/login')
    .set('Origin', ORIGIN)
    .set('Cookie', `auth.redirect=${encodeURIComponent('//evil.com')}`)
    .type('form')
    .send({ identifier: 'carla', password: PASSWORD });
  expect(res.headers.location).toBe('/client');
});

test('a tampered session cookie counts as signed out and is cleared', async () => {
  const [name, value] = cookies.CLI!.split('=') as [string, string];
  const tampered = `${name}=${value.slice(0, -4)}${value.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
  const res = await request(app).get('/client').set('Cookie', tampered);
  expect(res.status).toBe(302);
  expect(res.headers.location).toBe('/login');
  expect(String(res.headers['set-cookie'])).toMatch(/auth\._token\.local=;/);
});

test('an expired session counts as signed out', async () => {
  const expired = await codec.seal({ id: 'a'.repeat(43), exp: Math.floor(Date.now() / 1000) - 10 });
  const res = await request(app).get('/client').set('Cookie', `auth._token.local=${expired}`);
  expect(res.status).toBe(302);
  expect(res.headers.location).toBe('/login');
});

test('a session sealed with another secret is refused', async () => {
  const other = createSessionCodec('another-secret-that-is-long-enough-0123456');
  // Even the id of a real session, sealed with another secret, opens nothing.
  const forged = await other.seal({ id: 'a'.repeat(43), exp: Math.floor(Date.now() / 1000) + 600 });
  const res = await request(app).get('/admin').set('Cookie', `auth._token.local=${forged}`);
  expect(res.status).toBe(302);
});

test('the navbar of a signed-in user shows name, last name, avatar (default), My Profile and Log-Out', async () => {
  const res = await request(app).get('/en/client').set('Cookie', cookies.CLI!);
  // The avatar and the name are the button of a disclosure that holds My Profile and Log-Out.
  expect(res.text).toMatch(
    /<details class="navbar-user"><summary class="navbar-user-button" title="carla Test"><img src="\/avatar-default.svg"/,
  );
  expect(res.text).toContain('<span class="navbar-user-name">carla<!-- --> <!-- -->Test</span>');
  expect(res.text).toContain('src="/avatar-default.svg"');
  expect(res.text).toContain('href="/en/profile"');
  expect(res.text).toMatch(
    /<form noValidate="" action="\/en\/logout" method="post"><button type="submit" class="link-button">Log-Out<\/button>/,
  );
  expect(res.text.slice(0, res.text.indexOf('__BOOT__'))).not.toContain('Private Area');
});

test('logout clears the cookies and lands on / of the current locale', async () => {
  for (const [path, home] of [
    ['/logout', '/'],
    ['/es/logout', '/es'],
    ['/en/logout', '/en'],
  ] as const) {
    // Logout ends the session on the server too: each round signs in afresh.
    const res = await request(app)
      .post(path)
      .set('Origin', ORIGIN)
      .set('Cookie', sessionCookieOf(await signIn('carla')));
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(home);
    const set = String(res.headers['set-cookie']);
    expect(set).toMatch(/auth\._token\.local=;/);
    expect(set).toMatch(/auth\.strategy=;/);
  }
});

test('logout refuses a cross-site post', async () => {
  const res = await request(app).post('/logout').set('Origin', 'https://evil.example').set('Cookie', cookies.CLI!);
  expect(res.status).toBe(403);
});

test('private pages and API answers are never cached', async () => {
  expect((await request(app).get('/en/profile').set('Cookie', cookies.CLI!)).headers['cache-control']).toBe('private, no-store');
  expect((await request(app).get('/en/blog').set('Cookie', cookies.CLI!)).headers['cache-control']).toBe('private, no-store');
  expect((await request(app).get('/api/me').set('Cookie', cookies.CLI!)).headers['cache-control']).toBe('private, no-store');
});

test('client navigations get the same guard redirects from /_data, and the remembered path', async () => {
  const res = await request(app).get('/_data').query({ path: '/en/admin' }).set('Cookie', cookies.CLI!);
  expect(res.body).toEqual({ kind: 'redirect', to: '/en/client', status: 302 });
  const out = await request(app).get('/_data').query({ path: '/en/profile' });
  expect(out.body).toEqual({ kind: 'redirect', to: '/en/login', status: 302 });
  expect(String(out.headers['set-cookie'])).toContain('auth.redirect=%2Fen%2Fprofile');
});

test('no token reaches the browser: an API answer with a token is kept in the session on the server, the cookie stays the same', async () => {
  const res = await request(app)
    .patch('/api/me')
    .set('Cookie', cookies.CONS!)
    .set('Origin', ORIGIN)
    .send({ name: 'Elena', lastName: 'Nueva' });
  expect(res.status).toBe(200);
  expect(res.body.token).toBeUndefined();
  expect(res.body.user.lastName).toBe('Nueva');
  expect(String(res.headers['set-cookie'] ?? '')).not.toContain('auth._token.local=');
  const page = await request(app).get('/en/expert').set('Cookie', cookies.CONS!);
  expect(page.text).toContain('Nueva');
  expect(page.text).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ/); // no JWT anywhere in the page
});

test('a token issued before a password change stops working', async () => {
  // The app's clock is the test's (timers and sockets stay real): tokens carry whole seconds, so
  // the change comes a second after the token instead of the test sleeping one.
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => void vi.useRealTimers());
  const { app: fresh, db: freshDb } = await createTestApp();
  await createUser(freshDb, { userName: 'tom', password: PASSWORD, role: 'CLI', name: 'Tom', lastName: 'T' });
  const login = await request(fresh).post('/api/login').send({ identifier: 'tom', password: PASSWORD });
  const old = login.body.token as string;
  vi.setSystemTime(Date.now() + 1_100);
  const changed = await request(fresh)
    .post('/api/me/password')
    .set('Authorization', `Bearer ${old}`)
    .send({ currentPassword: PASSWORD, newPassword: 'a brand new passphrase' });
  expect(changed.status).toBe(200);
  expect((await request(fresh).get('/api/me').set('Authorization', `Bearer ${old}`)).status).toBe(401);
  expect((await request(fresh).get('/api/me').set('Authorization', `Bearer ${changed.body.token}`)).status).toBe(200);
});

test("a disabled admin's next request is refused although their session and the console's lists were kept", async () => {
  const { app: fresh, db: freshDb } = await createTestApp();
  await createUser(freshDb, { userName: 'eve', password: PASSWORD, role: 'ADMIN', name: 'Eve', lastName: 'Admin' });
  await createUser(freshDb, { userName: 'boss', password: PASSWORD, role: 'ADMIN', name: 'Boss', lastName: 'Admin' });
  const signInTo = async (identifier: string) =>
    sessionCookieOf(await request(fresh).post('/login').set('Origin', ORIGIN).type('form').send({ identifier, password: PASSWORD }));
  const eve = await signInTo('eve');
  // Twice: the session, its token and the console's lists are kept by now.
  for (let i = 0; i < 2; i++) expect((await request(fresh).get('/admin').set('Cookie', eve)).status).toBe(200);
  const disabled = await request(fresh)
    .patch('/api/admin/users/eve')
    .set('Origin', ORIGIN)
    .set('Cookie', await signInTo('boss'))
    .send({ disabled: true });
  expect(disabled.status).toBe(200);
  const page = await request(fresh).get('/admin').set('Cookie', eve);
  expect(page.status).toBe(302);
  expect(page.headers.location).toMatch(/\/login$/);
  expect((await request(fresh).get('/api/admin/users').set('Cookie', eve)).status).toBe(401);
});

test('an API token of a session kept by the process is refused at once when an admin ends the session', async () => {
  const { app: fresh, db: freshDb } = await createTestApp();
  await createUser(freshDb, { userName: 'tess', password: PASSWORD, role: 'CLI', name: 'Tess', lastName: 'T' });
  await createUser(freshDb, { userName: 'boss', password: PASSWORD, role: 'ADMIN', name: 'Boss', lastName: 'Admin' });
  const tokenOf = async (identifier: string) =>
    (await request(fresh).post('/api/login').send({ identifier, password: PASSWORD })).body.token as string;
  const token = await tokenOf('tess');
  for (let i = 0; i < 2; i++) expect((await request(fresh).get('/api/me').set('Authorization', `Bearer ${token}`)).status).toBe(200);
  const ended = await request(fresh)
    .delete('/api/admin/users/tess/sessions')
    .set('Authorization', `Bearer ${await tokenOf('boss')}`);
  expect(ended.status).toBe(200);
  expect((await request(fresh).get('/api/me').set('Authorization', `Bearer ${token}`)).status).toBe(401);
});

test('a token remembered once verified is refused when it expires', async () => {
  let clock = Date.now();
  const key = new TextEncoder().encode('k'.repeat(40));
  const verify = hmacVerifier(key, TOKEN_ISSUER, () => clock);
  const exp = Math.floor(clock / 1000) + 60;
  const token = await new SignJWT({ userName: 'ana', role: 'CLI' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(TOKEN_ISSUER)
    .setExpirationTime(exp)
    .sign(key);
  expect((await verify(token)).userName).toBe('ana');
  clock = exp * 1000;
  await expect(verify(token)).rejects.toThrow(/expired/);
  // Remembered claims are shared: nobody can change them.
  clock = Date.now();
  const claims = await hmacVerifier(key, TOKEN_ISSUER)(token);
  expect(() => (claims.scope as string[]).push('admin')).toThrow(TypeError);
});

test('a session forgotten while a request was reading it is not kept: the next request reads it again', async () => {
  const { app: fresh, db: freshDb, sessions } = await createTestApp();
  await createUser(freshDb, { userName: 'tim', password: PASSWORD, role: 'CLI', name: 'Tim', lastName: 'T' });
  const cookie = sessionCookieOf(
    await request(fresh).post('/login').set('Origin', ORIGIN).type('form').send({ identifier: 'tim', password: PASSWORD }),
  );
  const { id } = (await codec.unseal(decodeURIComponent(cookie.slice('auth._token.local='.length))))!;
  // A read begins; the row goes (as another process ends it) and this process is told, before the read is done.
  const reading = sessions.current(id);
  const deleting = freshDb.k.deleteFrom('sessions').where('id', '=', id).execute();
  sessions.forgetUser('tim');
  await reading;
  await deleting;
  expect(await sessions.current(id)).toBeNull();
});

// Signing in with two-factor authentication, as a browser does it (with and without
// JavaScript): the password alone makes no session, the code page asks for the second factor,
// wrong codes are counted and limited, a code counts once, a recovery code counts once, and a
// sign-in left waiting expires. Time is moved with a fake Date (codes, limits and the challenge
// read Date.now); timers and sockets stay real.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { ORIGIN } from '../helpers/app.ts';
import {
  browser,
  post,
  sessionCookieSet,
  setUpTwoFactor,
  signInWithPassword,
  totp,
  twoFactorSite,
  wrongCode,
  type Agent,
} from './helpers.ts';

const STEP = 30_000;
const MINUTE = 60_000;
/** The middle of a 30-second step: codes of "now" stay the same for 15 s either way. */
let t0: number;
/** Puts the clock `steps` time steps after t0 (plus `ms`). */
const at = (steps: number, ms = 0) => vi.setSystemTime(t0 + steps * STEP + ms);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  t0 = Math.floor(Date.now() / STEP) * STEP + STEP / 2;
  vi.setSystemTime(t0);
});

afterEach(() => {
  vi.useRealTimers();
});

/** A site with carla (CLI), who has turned 2FA on (at t0) and signed out. */
async function siteWithTwoFactorUser(env: Record<string, string> = {}) {
  const site = await twoFactorSite([{ userName: 'carla', role: 'CLI' }], env);
  const setup = browser(site.app);
  const { secret, recoveryCodes } = await setUpTwoFactor(setup, 'carla');
  await post(setup, '/logout', {});
  return { ...site, secret, recoveryCodes };
}

async function sessionsOf(site: Awaited<ReturnType<typeof siteWithTwoFactorUser>>, userName: string) {
  return site.db.k.selectFrom('sessions').select('id').where('user_name', '=', userName).execute();
}

/** Signs in with the password, then posts `code` on the code page. */
async function signIn(agent: Agent, code: string, options: { prefix?: string; json?: boolean } = {}) {
  const password = await signInWithPassword(agent, 'carla', options.prefix ?? '');
  expect(password.status).toBe(303);
  return post(agent, `${options.prefix ?? ''}/login/code`, { code }, options.json);
}

test.each([
  { form: 'unprefixed', prefix: '' },
  { form: '/es', prefix: '/es' },
  { form: '/en', prefix: '/en' },
])(
  'the password alone of a user with 2FA makes no session: 303 to the code page ($form form) with a sealed, five-minute challenge cookie',
  async ({ prefix }) => {
    const site = await siteWithTwoFactorUser();
    const agent = browser(site.app);
    const res = await signInWithPassword(agent, 'carla', prefix);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${prefix}/login/code`);
    expect(sessionCookieSet(res)).toBe(false);
    expect(await sessionsOf(site, 'carla')).toEqual([]);
    const challenge = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('auth.two_factor='))!;
    expect(challenge).toMatch(/Max-Age=300;/);
    expect(challenge).toMatch(/HttpOnly/);
    // Sealed: nothing of the user or the token can be read from it.
    const value = decodeURIComponent(challenge.split(';')[0]!.split('=')[1]!);
    expect(value.split('.')).toHaveLength(5);
    expect(value).not.toContain('carla');
    // A private page is still a sign-in away.
    expect((await agent.get(`${prefix}/profile`)).headers.location).toBe(`${prefix}/login`);
    // The code page asks for the code.
    const page = await agent.get(`${prefix}/login/code`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="code"');
    expect(page.text).toContain('autoComplete="one-time-code"');
  },
);

test('the right code after the password signs in (a session row, the cookie) and lands in the role’s area', async () => {
  const site = await siteWithTwoFactorUser();
  at(1);
  const agent = browser(site.app);
  const res = await signIn(agent, totp(site.secret), { prefix: '/en' });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/client');
  expect(sessionCookieSet(res)).toBe(true);
  expect(res.headers['set-cookie']).toEqual(expect.arrayContaining([expect.stringMatching(/^auth\.two_factor=;/)]));
  expect(await sessionsOf(site, 'carla')).toHaveLength(1);
  expect((await agent.get('/en/profile')).status).toBe(200);
  expect(site.audit.entries).toContainEqual(
    expect.objectContaining({ action: 'sign_in', actor: 'carla', detail: { secondFactor: 'totp' } }),
  );
});

test('the remembered path survives the code page: after the code the user lands where they wanted to go', async () => {
  const site = await siteWithTwoFactorUser();
  at(1);
  const agent = browser(site.app);
  const wanted = await agent.get('/en/client/projects/new?from=mail');
  expect(wanted.headers.location).toBe('/en/login');
  const res = await signIn(agent, totp(site.secret), { prefix: '/en' });
  expect(res.headers.location).toBe('/en/client/projects/new?from=mail');
});

test('with JavaScript the code page is answered as JSON: the redirect on success, the form’s error otherwise', async () => {
  const site = await siteWithTwoFactorUser();
  at(1);
  const agent = browser(site.app);
  await signInWithPassword(agent, 'carla');
  const wrong = await post(agent, '/login/code', { code: wrongCode(site.secret) }, true);
  expect(wrong.status).toBe(401);
  expect(wrong.body).toEqual({
    ok: false,
    form: {
      form: 'twoFactor',
      values: {},
      error: { code: 'wrong_two_factor_code', message: 'The code is not correct', fields: { code: 'validation.wrongTwoFactorCode' } },
    },
  });
  const right = await post(agent, '/login/code', { code: totp(site.secret) }, true);
  expect(right.status).toBe(200);
  expect(right.body).toEqual({ ok: true, redirect: '/client' });
});

test('without JavaScript a wrong code shows the code page again with the error (401), and the sign-in still waits', async () => {
  const site = await siteWithTwoFactorUser();
  at(1);
  const agent = browser(site.app);
  await signInWithPassword(agent, 'carla', '/es');
  const wrong = await post(agent, '/es/login/code', { code: wrongCode(site.secret) });
  expect(wrong.status).toBe(401);
  expect(wrong.text).toContain('El código no es correcto.');
  expect(wrong.text).toContain('aria-invalid="true"');
  const right = await post(agent, '/es/login/code', { code: totp(site.secret) });
  expect(right.status).toBe(303);
  expect(right.headers.location).toBe('/es/client');
});

test('a malformed code is refused with a field error and is not counted as a guess', async () => {
  const site = await siteWithTwoFactorUser({ TWO_FACTOR_MAX_FAILURES: '2' });
  at(1);
  const agent = browser(site.app);
  await signInWithPassword(agent, 'carla');
  for (const code of ['', '12345', 'abc', '1234567', 'not-a-recovery-code!']) {
    const res = await post(agent, '/login/code', { code }, true);
    expect(res.status, code).toBe(401);
    expect(res.body.form.error.fields, code).toEqual({ code: 'validation.twoFactorCode' });
  }
  expect((await post(agent, '/login/code', { code: totp(site.secret) }, true)).status).toBe(200);
});

test('wrong codes are counted per account: five wrong, then 429 with Retry-After, even for the right code and from another address, until the window ends', async () => {
  const site = await siteWithTwoFactorUser({ TRUST_PROXY: 'loopback' });
  at(1);
  const attacker = browser(site.app);
  await signInWithPassword(attacker, 'carla');
  const wrong = wrongCode(site.secret);
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++)
    statuses.push((await post(attacker, '/login/code', { code: wrong }).set('X-Forwarded-For', '203.0.113.9')).status);
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  const refused = await post(attacker, '/login/code', { code: totp(site.secret) }, true).set('X-Forwarded-For', '203.0.113.9');
  expect(refused.status).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
  expect(refused.body.form.error).toMatchObject({ code: 'too_many_attempts' });
  // The owner elsewhere, with the password and a right code, waits too: the account is what is guessed.
  const owner = browser(site.app);
  await signInWithPassword(owner, 'carla').set('X-Forwarded-For', '198.51.100.7');
  const ownerTry = await post(owner, '/login/code', { code: totp(site.secret) }, true).set('X-Forwarded-For', '198.51.100.7');
  expect(ownerTry.status).toBe(429);
  expect(site.audit.entries.filter((e) => e.action === 'two_factor_failed')).toHaveLength(5);
  // After the window (LOGIN_WINDOW_MINUTES, 15) the right code works again.
  vi.setSystemTime(t0 + 16 * MINUTE);
  const later = browser(site.app);
  await signInWithPassword(later, 'carla');
  expect((await post(later, '/login/code', { code: totp(site.secret) }, true)).status).toBe(200);
});

test('wrong codes are counted per address too: one address cannot spread its guesses over many accounts', async () => {
  const site = await twoFactorSite(
    [
      { userName: 'carla', role: 'CLI' },
      { userName: 'olga', role: 'ORG' },
    ],
    { LOGIN_MAX_FAILURES_PER_IP: '3' },
  );
  const secrets: Record<string, string> = {};
  for (const userName of ['carla', 'olga']) {
    const agent = browser(site.app);
    secrets[userName] = (await setUpTwoFactor(agent, userName)).secret;
    await post(agent, '/logout', {});
  }
  at(1);
  const statuses: number[] = [];
  for (const userName of ['carla', 'olga', 'carla', 'olga']) {
    const agent = browser(site.app);
    await signInWithPassword(agent, userName);
    statuses.push((await post(agent, '/login/code', { code: wrongCode(secrets[userName]!) })).status);
  }
  expect(statuses).toEqual([401, 401, 401, 429]);
});

test('a code counts once: the same code cannot sign in again within its window, nor an older one after it', async () => {
  const site = await siteWithTwoFactorUser();
  at(2);
  const code = totp(site.secret);
  const first = browser(site.app);
  expect((await signIn(first, code)).status).toBe(303);
  await post(first, '/logout', {});
  const replay = browser(site.app);
  const again = await signIn(replay, code, { json: true });
  expect(again.status).toBe(401);
  expect(again.body.form.error.code).toBe('two_factor_code_used');
  // The code of the step before is within the drift allowed, but older than the one used.
  const older = await post(replay, '/login/code', { code: totp(site.secret, t0 + STEP) }, true);
  expect(older.body.form.error.code).toBe('two_factor_code_used');
  expect(site.audit.entries).toContainEqual(
    expect.objectContaining({
      action: 'two_factor_failed',
      actor: null,
      target: 'carla',
      detail: expect.objectContaining({ reason: 'replayed' }),
    }),
  );
  // The next step's code works.
  at(3);
  expect((await post(replay, '/login/code', { code: totp(site.secret) }, true)).status).toBe(200);
});

test.each([
  { drift: -2, accepted: false },
  { drift: -1, accepted: true },
  { drift: 1, accepted: true },
  { drift: 2, accepted: false },
])('a phone whose clock is $drift step(s) off: accepted $accepted (one step of drift either way)', async ({ drift, accepted }) => {
  const site = await siteWithTwoFactorUser();
  at(10);
  const agent = browser(site.app);
  const res = await signIn(agent, totp(site.secret, t0 + (10 + drift) * STEP), { json: true });
  expect(res.status).toBe(accepted ? 200 : 401);
});

test('a recovery code signs in once (any case, with or without its hyphen); used again it is refused', async () => {
  const site = await siteWithTwoFactorUser();
  const code = site.recoveryCodes[3]!;
  expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  const first = browser(site.app);
  const res = await signIn(first, ` ${code.replace('-', '').toUpperCase()} `);
  expect(res.status).toBe(303);
  expect(site.audit.entries).toContainEqual(
    expect.objectContaining({ action: 'recovery_code_used', actor: 'carla', detail: { purpose: 'sign_in', left: 9 } }),
  );
  await post(first, '/logout', {});
  const second = browser(site.app);
  const again = await signIn(second, code, { json: true });
  expect(again.status).toBe(401);
  expect(again.body.form.error.code).toBe('wrong_two_factor_code');
  // Another one still works.
  expect((await post(second, '/login/code', { code: site.recoveryCodes[4]! }, true)).status).toBe(200);
});

test('a sign-in left waiting more than five minutes has expired: the code is refused with a clear message, and the page says so', async () => {
  const site = await siteWithTwoFactorUser();
  const agent = browser(site.app);
  await signInWithPassword(agent, 'carla', '/en');
  vi.setSystemTime(t0 + 5 * MINUTE + 1000);
  const late = await post(agent, '/en/login/code', { code: totp(site.secret) });
  expect(late.status).toBe(401);
  expect(late.text).toContain('This sign-in has expired or was not started. Sign in again with your password.');
  expect(late.text).toContain('href="/en/login"');
  expect(sessionCookieSet(late)).toBe(false);
  const json = await post(agent, '/en/login/code', { code: totp(site.secret) }, true);
  expect(json.body.form.error.code).toBe('two_factor_expired');
});

test('the code page without a waiting sign-in says the sign-in expired or was not started; a forged cookie is no sign-in', async () => {
  const site = await siteWithTwoFactorUser();
  const page = await browser(site.app).get('/login/code');
  expect(page.status).toBe(200);
  expect(page.text).toContain('Este acceso ha caducado o no se ha iniciado.');
  expect(page.text).not.toContain('name="code"');
  const forged = await browser(site.app)
    .post('/login/code')
    .set('Origin', ORIGIN)
    .set('Cookie', 'auth.two_factor=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC')
    .set('Accept', 'application/json')
    .type('form')
    .send({ code: totp(site.secret) });
  expect(forged.status).toBe(401);
  expect(forged.body.form.error.code).toBe('two_factor_expired');
});

test('a waiting sign-in is taken once: the cookie of a finished sign-in makes no second session', async () => {
  const site = await siteWithTwoFactorUser();
  at(1);
  const agent = browser(site.app);
  const password = await signInWithPassword(agent, 'carla');
  const stolen = ([] as string[])
    .concat(password.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('auth.two_factor='))
    ?.split(';')[0];
  expect(stolen).toBeDefined();
  expect((await post(agent, '/login/code', { code: totp(site.secret) })).status).toBe(303);
  at(2);
  const replay = await browser(site.app)
    .post('/login/code')
    .set('Origin', ORIGIN)
    .set('Cookie', stolen!)
    .set('Accept', 'application/json')
    .type('form')
    .send({ code: totp(site.secret) });
  expect(replay.status).toBe(401);
  expect(replay.body.form.error.code).toBe('two_factor_expired');
  expect(await sessionsOf(site, 'carla')).toHaveLength(1);
});

test('a user without 2FA signs in with the password alone, as before', async () => {
  const site = await twoFactorSite([{ userName: 'olga', role: 'ORG' }]);
  const res = await signInWithPassword(browser(site.app), 'olga', '/en');
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/organization');
  expect(sessionCookieSet(res)).toBe(true);
});

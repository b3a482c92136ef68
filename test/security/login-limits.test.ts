// Attacks on the password limits (docs/decisions/009-login-limits.md): each test sends what an
// attacker would send and checks what must come back. Client addresses are simulated as behind
// the site's reverse proxy: TRUST_PROXY=loopback and X-Forwarded-For. Time is moved with a fake
// Date (the counters' windows read Date.now); timers and sockets stay real.
import type { Express } from 'express';
import request from 'supertest';
import { afterEach, expect, test, vi } from 'vitest';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';

const OWNER_IP = '198.51.100.7';
const ATTACKER_IP = '203.0.113.66';
/** The attacker's n-th address (a botnet). */
const botIp = (n: number) => `192.0.2.${n + 1}`;
const MINUTE = 60_000;
const NEW_PASSWORD = 'a brand new passphrase';

afterEach(() => {
  vi.useRealTimers();
});

/** The site with the defaults of the limits, behind a trusted proxy, and one user: ana. */
async function site(): Promise<Express> {
  const { app, db } = await createTestApp({ TRUST_PROXY: 'loopback' });
  await addUser(db, { userName: 'ana', role: 'CLI', name: 'Ana', lastName: 'Owner', email: 'ana@example.com' });
  return app;
}

function apiLogin(app: Express, ip: string, identifier: string, password: string) {
  return request(app).post('/api/login').set('X-Forwarded-For', ip).send({ identifier, password });
}

/** The login page's form as a browser without JavaScript posts it. */
function pageLogin(app: Express, ip: string, identifier: string, password: string) {
  return request(app).post('/en/login').set('X-Forwarded-For', ip).set('Origin', ORIGIN).type('form').send({ identifier, password });
}

function retryAfter(res: request.Response): number {
  expect(res.headers['retry-after'], 'Retry-After').toMatch(/^\d+$/);
  return Number(res.headers['retry-after']);
}

async function statusesOf(answers: Promise<request.Response>[]): Promise<number[]> {
  const statuses: number[] = [];
  // One after the other, as the counters see them.
  for (const answer of answers) statuses.push((await answer).status);
  return statuses;
}

/* Finding 1: anyone could lock any account out --------------------------------------------- */

test('an attacker failing 50 times from one address does not stop the owner signing in from another; the address is refused until its window ends, however long it keeps trying', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const start = Date.now();
  const app = await site();
  const statuses: number[] = [];
  for (let i = 0; i < 50; i++) statuses.push((await apiLogin(app, ATTACKER_IP, 'ana', `guess number ${i}`)).status);
  // Five guesses for 'ana' from this address, then 429 for it.
  expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
  expect(new Set(statuses.slice(5))).toEqual(new Set([429]));

  // The owner, from her own address and with her password, signs in: API and page (no JS).
  expect((await apiLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD)).status).toBe(200);
  const page = await pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD);
  expect(page.status).toBe(303);
  expect(page.headers.location).toBe('/en/client');

  // The attacker keeps trying every minute: the wait only counts down, it is never extended...
  let previous = Infinity;
  for (let minute = 1; minute < 15; minute++) {
    vi.setSystemTime(start + minute * MINUTE);
    const refused = await apiLogin(app, ATTACKER_IP, 'ana', `guess at minute ${minute}`);
    expect(refused.status).toBe(429);
    expect(retryAfter(refused)).toBeLessThan(previous);
    expect(retryAfter(refused)).toBeLessThanOrEqual(15 * 60 - minute * 60);
    previous = retryAfter(refused);
  }
  // ...and 15 minutes after the first failure the window is over: five more guesses, no more.
  vi.setSystemTime(start + 15 * MINUTE + 1000);
  expect(await statusesOf(Array.from({ length: 6 }, (_, i) => apiLogin(app, ATTACKER_IP, 'ana', `next guess ${i}`)))).toEqual([
    401, 401, 401, 401, 401, 429,
  ]);
});

test('an attacker failing from many addresses slows the identifier to one attempt per 30 s until the window ends; the owner waits at most that, then gets in', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const start = Date.now();
  const app = await site();
  // Ten addresses × five wrong passwords: 50 failures on 'ana', all answered 401.
  for (let n = 0; n < 10; n++) {
    const statuses = await statusesOf(Array.from({ length: 5 }, (_, i) => apiLogin(app, botIp(n), 'ana', `guess ${n}.${i}`)));
    expect(statuses, `address ${botIp(n)}`).toEqual([401, 401, 401, 401, 401]);
  }
  // From now on one attempt per 30 s is checked, from wherever it comes.
  expect((await apiLogin(app, botIp(10), 'ana', 'guess 10.0')).status).toBe(401);
  const paced = await apiLogin(app, botIp(11), 'ana', 'guess 11.0');
  expect(paced.status).toBe(429);
  expect(retryAfter(paced)).toBeGreaterThan(0);
  expect(retryAfter(paced)).toBeLessThanOrEqual(30);

  // The owner, from her address, is told the same short wait; after it, her password works.
  const owner = await pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD);
  expect(owner.status).toBe(429);
  expect(retryAfter(owner)).toBeLessThanOrEqual(30);
  expect(owner.text).toMatch(/Too many failed attempts\. Try again in \d+ (?:seconds|minutes)\./);
  vi.setSystemTime(start + retryAfter(owner) * 1000);
  expect((await pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD)).status).toBe(303);

  // The attack goes on, one guess every 30 s from fresh addresses: each is checked, none gains more.
  for (let step = 2; step < 30; step++) {
    vi.setSystemTime(start + step * 30_000);
    expect((await apiLogin(app, botIp(10 + step), 'ana', `paced guess ${step}`)).status).toBe(401);
    expect((await apiLogin(app, botIp(10 + step), 'ana', `second paced guess ${step}`)).status).toBe(429);
  }
  // The slow-down ends with its window, 15 minutes after the first failure: it was not extended.
  vi.setSystemTime(start + 15 * MINUTE + 1000);
  expect(await statusesOf([apiLogin(app, botIp(50), 'ana', 'fresh window 1'), apiLogin(app, botIp(51), 'ana', 'fresh window 2')])).toEqual([
    401, 401,
  ]);
});

/* Finding 2: the limiter told which user name an e-mail belongs to ------------------------- */

test('failures on the e-mail do not make the user name answer 429, from one address or from many', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const app = await site();
  // One address: five wrong passwords on the e-mail refuse the e-mail (in any case) there...
  expect(await statusesOf(Array.from({ length: 5 }, (_, i) => apiLogin(app, ATTACKER_IP, 'ana@example.com', `guess ${i}`)))).toEqual([
    401, 401, 401, 401, 401,
  ]);
  expect((await apiLogin(app, ATTACKER_IP, ' Ana@Example.COM ', 'guess 5')).status).toBe(429);
  // ...but the user name answers just as a name that belongs to nobody.
  const userName = await apiLogin(app, ATTACKER_IP, 'ana', 'guess 6');
  const nobody = await apiLogin(app, ATTACKER_IP, 'nobody', 'guess 7');
  expect([userName.status, userName.body]).toEqual([nobody.status, nobody.body]);
  expect(userName.status).toBe(401);

  // Many addresses: 50 failures slow the e-mail down, and the same 50 failures slow down an
  // e-mail that names no account: the slow-down tells neither who exists nor who is whom.
  for (const [identifier, first] of [
    ['ana@example.com', 0],
    ['nadie@example.com', 20],
  ] as const) {
    const from = identifier === 'ana@example.com' ? 1 : 0; // the e-mail already has five failures
    for (let n = first + from; n < first + 10; n++) {
      const statuses = await statusesOf(Array.from({ length: 5 }, (_, i) => apiLogin(app, botIp(n), identifier, `guess ${n}.${i}`)));
      expect(statuses, `${identifier} from ${botIp(n)}`).toEqual([401, 401, 401, 401, 401]);
    }
  }
  const answers = [];
  for (const identifier of ['ana@example.com', 'nadie@example.com']) {
    answers.push([
      (await apiLogin(app, botIp(40), identifier, 'one more')).status,
      (await apiLogin(app, botIp(41), identifier, 'and another')).status,
    ]);
  }
  expect(answers).toEqual([
    [401, 429],
    [401, 429],
  ]);
  // And the user name, from a fresh address, is not slowed by what the e-mail went through.
  expect((await apiLogin(app, botIp(42), 'ana', 'a guess on the user name')).status).toBe(401);
});

/* Finding 3: the current password could be guessed without limit through change password ---- */

/** Ana's session cookie and API token, as an attacker who stole them holds them. */
async function stolenSession(app: Express) {
  const page = await pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD);
  expect(page.status).toBe(303);
  const cookie = ([] as string[])
    .concat(page.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('auth._token.local=') && !c.startsWith('auth._token.local=;'))!
    .split(';')[0]!;
  const token = (await apiLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD)).body.token as string;
  return { cookie, token };
}

function pageChange(app: Express, ip: string, cookie: string, body: Record<string, string>, json = false) {
  const req = request(app).post('/en/changePassword').set('X-Forwarded-For', ip).set('Origin', ORIGIN).set('Cookie', cookie);
  return json ? req.set('Accept', 'application/json').send(body) : req.type('form').send(body);
}

/** The API's change of password: the page's fields but the confirmation, which the API does not take. */
function apiChange(app: Express, ip: string, token: string, body: Record<string, string>) {
  const { confirmPassword: _confirm, ...fields } = body;
  return request(app).post('/api/me/password').set('X-Forwarded-For', ip).set('Authorization', `Bearer ${token}`).send(fields);
}

test('guessing the current password through change password is limited to 5 per window, on the page and the API together', async () => {
  const app = await site();
  const { cookie, token } = await stolenSession(app);
  const guess = (n: number) => ({ currentPassword: `guess number ${n}`, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
  for (let n = 0; n < 3; n++) {
    const res = await pageChange(app, ATTACKER_IP, cookie, guess(n));
    expect(res.status).toBe(422);
    expect(res.text).toContain('The current password is not correct.');
  }
  for (let n = 3; n < 5; n++) expect((await apiChange(app, ATTACKER_IP, token, guess(n))).body.error.code).toBe('wrong_current_password');

  // The sixth is refused, even the right password, on the page and the API, from any address.
  const right = { currentPassword: DEFAULT_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD };
  const page = await pageChange(app, ATTACKER_IP, cookie, right);
  expect(page.status).toBe(429);
  expect(retryAfter(page)).toBeGreaterThan(0);
  expect(retryAfter(page)).toBeLessThanOrEqual(15 * 60);
  expect(page.text).toMatch(/Too many failed attempts\. Try again in \d+ (?:seconds|minutes)\./);
  const withJs = await pageChange(app, botIp(1), cookie, right, true);
  expect(withJs.status).toBe(429);
  expect(withJs.body.form.error).toMatchObject({ code: 'too_many_attempts', retryAfter: expect.any(Number) });
  const api = await apiChange(app, botIp(2), token, right);
  expect(api.status).toBe(429);
  expect(api.body.error.code).toBe('too_many_attempts');
  expect(retryAfter(api)).toBeGreaterThan(0);

  // Nothing was changed: the old password still signs in, the new one does not.
  expect((await apiLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD)).status).toBe(200);
  expect((await apiLogin(app, OWNER_IP, 'ana', NEW_PASSWORD)).status).toBe(401);
});

test('a wrong current password is answered before the new password is checked, and every such probe counts', async () => {
  const app = await site();
  const { cookie, token } = await stolenSession(app);
  // A guess with a new password that could never be accepted: the guess is what gets answered.
  const page = await pageChange(app, ATTACKER_IP, cookie, { currentPassword: 'guess one', newPassword: 'short', confirmPassword: 'other' });
  expect(page.status).toBe(422);
  expect(page.text).toContain('The current password is not correct.');
  expect(page.text).not.toContain('The password needs at least 10 characters.');
  expect(page.text).not.toContain('The two new passwords do not match.');
  const withJs = await pageChange(
    app,
    ATTACKER_IP,
    cookie,
    { currentPassword: 'guess two', newPassword: NEW_PASSWORD, confirmPassword: 'other' },
    true,
  );
  expect(withJs.status).toBe(422);
  expect(withJs.body.form.error).toMatchObject({
    code: 'wrong_current_password',
    fields: { currentPassword: 'validation.wrongCurrentPassword' },
  });
  const api = await apiChange(app, ATTACKER_IP, token, { currentPassword: 'guess three', newPassword: 'short' });
  expect(api.status).toBe(422);
  expect(api.body.error.code).toBe('wrong_current_password');

  // The right current password with a bad new one: only then is the new one judged (not a guess).
  const rightBadNew = await pageChange(app, ATTACKER_IP, cookie, {
    currentPassword: DEFAULT_PASSWORD,
    newPassword: 'short',
    confirmPassword: 'short',
  });
  expect(rightBadNew.status).toBe(422);
  expect(rightBadNew.text).toContain('The password needs at least 10 characters.');
  expect(rightBadNew.text).not.toContain('The current password is not correct.');

  // Five probes were five guesses: the sixth attempt is refused, whatever its new password.
  for (const probe of ['guess four', 'guess five']) {
    expect((await apiChange(app, ATTACKER_IP, token, { currentPassword: probe, newPassword: 'ana' })).body.error.code).toBe(
      'wrong_current_password',
    );
  }
  const refused = await pageChange(app, ATTACKER_IP, cookie, {
    currentPassword: DEFAULT_PASSWORD,
    newPassword: NEW_PASSWORD,
    confirmPassword: NEW_PASSWORD,
  });
  expect(refused.status).toBe(429);
  expect(retryAfter(refused)).toBeGreaterThan(0);
});

/* Amendment (docs/decisions/009): ten addresses still locked a user name out — device cookies --- */

/** The device cookie a sign-in answered (auth.device=…), or null. */
function deviceCookieOf(res: request.Response): string | null {
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('auth.device='));
  return cookie ? cookie.split(';')[0]! : null;
}

/** The request as the browser holding the cookie sends it (a browser's POST carries its Origin). */
function withCookie(req: request.Test, cookie: string | null) {
  return cookie ? req.set('Cookie', cookie).set('Origin', ORIGIN) : req;
}

/** Twelve addresses × five wrong passwords: the identifier is paced; then the attacker takes the slot that just opened. */
async function botnetAttack(app: Express, identifier = 'ana') {
  for (let n = 0; n < 12; n++) {
    for (let i = 0; i < 5; i++) await apiLogin(app, botIp(n), identifier, `guess ${n}.${i}`);
  }
  // The pace's one slot, spent by the attacker: everyone else is told to wait.
  expect([401, 429]).toContain((await apiLogin(app, botIp(12), identifier, 'slot grab')).status);
  expect((await apiLogin(app, botIp(13), identifier, 'paced')).status).toBe(429);
}

test('after an attack from 12 addresses paces the user name, the owner signs in at once from the browser she signed in with before; a browser that never did is paced', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const app = await site();
  const before = await pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD);
  expect(before.status).toBe(303);
  const device = deviceCookieOf(before);
  expect(device).toMatch(/^auth\.device=[A-Za-z0-9_.~-]+$/);
  expect(String(before.headers['set-cookie'])).toMatch(/auth\.device=[^;]+;.*HttpOnly/i);

  await botnetAttack(app);

  // Her browser: in at once, by the page form and by the API, however often the attacker takes the slot.
  for (let round = 0; round < 3; round++) {
    expect((await apiLogin(app, botIp(20 + round), 'ana', `slot grab ${round}`)).status).toBeGreaterThanOrEqual(400);
    const page = await withCookie(pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD), device);
    expect(page.status, `round ${round}`).toBe(303);
    expect(page.headers.location).toBe('/en/client');
  }
  expect((await withCookie(apiLogin(app, '198.51.100.99', 'ana', DEFAULT_PASSWORD), device)).status).toBe(200);
  // A browser without the cookie, even from her address, waits like everyone else.
  const fresh = await pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD);
  expect(fresh.status).toBe(429);
  expect(retryAfter(fresh)).toBeLessThanOrEqual(30);
});

test('an attacker sharing the owner’s address (one NAT) who exhausts its limits does not keep her browser out', async () => {
  const app = await site();
  const device = deviceCookieOf(await pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD));
  // From her address: five on "ana" (its lockout there) and fifteen on other names (the address's twenty).
  for (let i = 0; i < 5; i++) await apiLogin(app, OWNER_IP, 'ana', `guess ${i}`);
  for (let i = 0; i < 15; i++) await apiLogin(app, OWNER_IP, `someone${i}`, `guess ${i}`);
  expect((await apiLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD)).status).toBe(429);
  expect((await withCookie(pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD), device)).status).toBe(303);
});

test('a device cookie counts only for the identifier it was given for, and a forged or altered one counts for nothing', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const { app, db } = await createTestApp({ TRUST_PROXY: 'loopback' });
  await addUser(db, { userName: 'ana', role: 'CLI', email: 'ana@example.com' });
  await addUser(db, { userName: 'bob', role: 'CLI', email: 'bob@example.com' });
  const anaDevice = deviceCookieOf(await pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD))!;
  await botnetAttack(app, 'bob');
  // Ana's cookie says nothing about "bob", nor about her own e-mail (an identifier of its own).
  expect((await withCookie(pageLogin(app, OWNER_IP, 'bob', DEFAULT_PASSWORD), anaDevice)).status).toBe(429);
  await botnetAttack(app, 'ana@example.com');
  expect((await withCookie(pageLogin(app, OWNER_IP, 'ana@example.com', DEFAULT_PASSWORD), anaDevice)).status).toBe(429);
  // Altered (the id of another browser with ana's tag), or made up: ignored.
  await botnetAttack(app, 'ana');
  const [id, tag] = anaDevice.slice('auth.device='.length).split('.') as [string, string];
  for (const forged of [`auth.device=${'A'.repeat(22)}.${tag}`, `auth.device=${id}.${'B'.repeat(22)}`, 'auth.device=ana']) {
    expect((await withCookie(pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD), forged)).status, forged).toBe(429);
  }
  expect((await withCookie(pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD), anaDevice)).status).toBe(303);
});

test('a stolen device cookie gives its thief five guesses, from any number of addresses together, then 429 for that cookie only', async () => {
  const app = await site();
  const stolen = deviceCookieOf(await pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD));
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) statuses.push((await withCookie(apiLogin(app, botIp(i), 'ana', `guess ${i}`), stolen)).status);
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  // The owner, on another browser, is untouched (those guesses never reached the identifier's counts).
  expect((await pageLogin(app, OWNER_IP, 'ana', DEFAULT_PASSWORD)).status).toBe(303);
});

// POST /api/login of a user with two-factor authentication (docs/openapi.json): the code comes
// with the password as `code`; without it the answer is 401 two_factor_required and no token.
import request from 'supertest';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { browser, setUpTwoFactor, totp, twoFactorSite, wrongCode, DEFAULT_PASSWORD } from './helpers.ts';

const STEP = 30_000;
let t0: number;
const at = (steps: number) => vi.setSystemTime(t0 + steps * STEP);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  t0 = Math.floor(Date.now() / STEP) * STEP + STEP / 2;
  vi.setSystemTime(t0);
});

afterEach(() => {
  vi.useRealTimers();
});

async function siteWithTwoFactorUser() {
  const site = await twoFactorSite([
    { userName: 'carla', role: 'CLI' },
    { userName: 'olga', role: 'ORG' },
  ]);
  const { secret, recoveryCodes } = await setUpTwoFactor(browser(site.app), 'carla');
  return { ...site, secret, recoveryCodes };
}

const login = (app: Parameters<typeof request>[0], body: Record<string, string>) =>
  request(app)
    .post('/api/login')
    .send({ password: DEFAULT_PASSWORD, ...body });

test('without a code, a user with 2FA gets 401 two_factor_required and no token (no session is made)', async () => {
  const site = await siteWithTwoFactorUser();
  const before = await site.db.k.selectFrom('sessions').select('id').execute();
  const res = await login(site.app, { identifier: 'carla' });
  expect(res.status).toBe(401);
  expect(res.body.error.code).toBe('two_factor_required');
  expect(res.body.token).toBeUndefined();
  expect(await site.db.k.selectFrom('sessions').select('id').execute()).toEqual(before);
  // A wrong password is still just a wrong password (nothing said about 2FA).
  const wrongPassword = await login(site.app, { identifier: 'carla', password: 'not the password', code: totp(site.secret) });
  expect(wrongPassword.body.error.code).toBe('invalid_credentials');
});

test('with the right code the answer is a token that works; a wrong code is 401 wrong_two_factor_code', async () => {
  const site = await siteWithTwoFactorUser();
  at(1);
  const wrong = await login(site.app, { identifier: 'carla', code: wrongCode(site.secret) });
  expect(wrong.status).toBe(401);
  expect(wrong.body.error.code).toBe('wrong_two_factor_code');
  const right = await login(site.app, { identifier: 'carla', code: totp(site.secret) });
  expect(right.status).toBe(200);
  const me = await request(site.app).get('/api/me').set('Authorization', `Bearer ${right.body.token}`);
  expect(me.status).toBe(200);
  expect(me.body.userName).toBe('carla');
});

test('a code used once is refused the second time (401 two_factor_code_used); a recovery code works once', async () => {
  const site = await siteWithTwoFactorUser();
  at(1);
  const code = totp(site.secret);
  expect((await login(site.app, { identifier: 'carla', code })).status).toBe(200);
  const replay = await login(site.app, { identifier: 'carla', code });
  expect(replay.status).toBe(401);
  expect(replay.body.error.code).toBe('two_factor_code_used');
  expect((await login(site.app, { identifier: 'carla', code: site.recoveryCodes[0]! })).status).toBe(200);
  expect((await login(site.app, { identifier: 'carla', code: site.recoveryCodes[0]! })).status).toBe(401);
});

test('wrong codes on the API count against the same limit: five, then 429 with Retry-After', async () => {
  const site = await siteWithTwoFactorUser();
  at(1);
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await login(site.app, { identifier: 'carla', code: wrongCode(site.secret) })).status);
  const refused = await login(site.app, { identifier: 'carla', code: totp(site.secret) });
  expect(statuses).toEqual([401, 401, 401, 401, 401]);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
});

test('a user without 2FA signs in with the password alone (a code sent along is ignored)', async () => {
  const site = await siteWithTwoFactorUser();
  expect((await login(site.app, { identifier: 'olga' })).status).toBe(200);
  expect((await login(site.app, { identifier: 'olga', code: '123456' })).status).toBe(200);
});

test('a code longer than any code is a 400 naming the field', async () => {
  const site = await siteWithTwoFactorUser();
  const res = await login(site.app, { identifier: 'carla', code: '1'.repeat(41) });
  expect(res.status).toBe(400);
  expect(res.body.error.fields).toHaveProperty('code');
});

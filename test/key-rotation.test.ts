// Key rotation (docs/decisions/051): SESSION_SECRETS lists the secrets newest first; what the site
// seals or signs uses the first, what it opens or verifies takes any. So whatever was made with
// the old secret — a session cookie, an API token, an unsubscribe link, a calendar address, a
// contact form's token, a device cookie, a two-factor secret — keeps working after the new one is
// put first, and stops once the old one is taken out; a two-factor secret is sealed again with
// the newest when it is used, so it survives that. Three sites on one database, one per step.
import request from 'supertest';
import { expect, onTestFinished, test, vi } from 'vitest';
import type { Request, Response } from 'express';
import { createDeviceCookies, DEVICE_COOKIE } from '../server/auth/device-cookie.ts';
import { deriveKey, deriveKeyBytes } from '../server/auth/keys.ts';
import { createSessionCodec } from '../server/auth/session-cookie.ts';
import { loadConfig } from '../server/base/config.ts';
import { createFormTokens } from '../server/contact/form-token.ts';
import { unsubscribePath } from '../server/mail/unsubscribe-links.ts';
import { secretBox } from '../server/two-factor/secrets.ts';
import { ORIGIN, createTestApp, reopenableTestDatabase, TEST_ENGINE } from './helpers/app.ts';
import { addUser, loginToken } from './helpers/users.ts';
import { postProfile, signIn } from './my-account/helpers.ts';
import { browser, post, setUpTwoFactor, signInWithPassword, totp } from './two-factor/helpers.ts';

const STEP = 30_000;
const OLD = 'the-old-session-secret-long-enough-000001';
const NEW = 'the-new-session-secret-long-enough-000002';

/** The three steps of a rotation, as the environment of each. */
const BEFORE = { SESSION_SECRET: OLD };
const ROTATED = { SESSION_SECRET: '', SESSION_SECRETS: `${NEW},${OLD}` };
const OLD_REMOVED = { SESSION_SECRET: '', SESSION_SECRETS: NEW };

type Site = Awaited<ReturnType<typeof createTestApp>>;

/** One database, and a site on it for each step asked (each closed when the test ends). */
async function rotation() {
  const open = await reopenableTestDatabase();
  return async (env: Record<string, string>): Promise<Site> => {
    const site = await createTestApp(env, { db: await open() });
    onTestFinished(() => site.close());
    return site;
  };
}

type Made = { check: (site: Site) => Promise<boolean> };

/** What the site made with the old secret, and how another site shows it still counts (true) or not. */
const MADE_WITH_THE_OLD_SECRET: { what: string; make: (site: Site) => Promise<Made> }[] = [
  {
    what: 'a session cookie',
    async make(site) {
      const cookie = await signIn(site.app, 'ana');
      return { check: async (other) => (await request(other.app).get('/api/me').set('Cookie', cookie)).status === 200 };
    },
  },
  {
    what: "a built-in API's token",
    async make(site) {
      const token = await loginToken(site.app, 'ana');
      return { check: async (other) => (await request(other.app).get('/api/me').set('Authorization', `Bearer ${token}`)).status === 200 };
    },
  },
  {
    what: 'an unsubscribe link',
    async make(site) {
      const user = await site.db.k
        .selectFrom('users')
        .select(['id', 'created_at'])
        .where('user_name', '=', 'ana')
        .executeTakeFirstOrThrow();
      const path = unsubscribePath(
        site.mail.unsubscribeKeys[0]!,
        { userName: 'ana', id: Number(user.id), createdAt: user.created_at },
        'messages',
      );
      return { check: async (other) => (await request(other.app).get(path)).status === 200 };
    },
  },
  {
    what: 'a calendar address',
    async make(site) {
      const cookie = await signIn(site.app, 'ana');
      expect((await postProfile(site.app, cookie, { intent: 'calendarCreate' })).status).toBe(303);
      const data = await request(site.app).get('/_data').query({ path: '/en/profile' }).set('Cookie', cookie);
      const path = (data.body.payload.state.data.calendar.url as string).slice(ORIGIN.length);
      return { check: async (other) => (await request(other.app).get(path)).status === 200 };
    },
  },
  {
    what: "a contact form's token",
    async make() {
      // A form the site of the old secret showed ten seconds ago (a person's pace); a fresh one for each post (a token sends one message).
      const formToken = () => createFormTokens(deriveKey(OLD, 'contact form v1'), () => Date.now() - 10_000).issue();
      const form = {
        name: 'Lucía',
        email: 'lucia@example.com',
        subject: 'Hola',
        message: 'A message long enough to count.',
        consent: 'yes',
      };
      return {
        check: async (other) => {
          const answer = await request(other.app)
            .post('/en/Contact')
            .set('Origin', ORIGIN)
            .type('form')
            .send({ ...form, formToken: formToken() });
          return answer.status === 303 && answer.headers.location === '/en/Contact?sent=1';
        },
      };
    },
  },
];

test.each(MADE_WITH_THE_OLD_SECRET)(
  `$what made with the old secret opens after the rotation (SESSION_SECRETS=new,old) and not once the old one is removed (${TEST_ENGINE})`,
  async ({ make }) => {
    const site = await rotation();
    const before = await site(BEFORE);
    await addUser(before.db, { userName: 'ana', role: 'CLI' });
    const made = await make(before);
    expect(await made.check(before)).toBe(true);
    expect(await made.check(await site(ROTATED))).toBe(true);
    expect(await made.check(await site(OLD_REMOVED))).toBe(false);
  },
);

test(`what a rotated site makes is made with the newest secret: it opens once the old one is removed (${TEST_ENGINE})`, async () => {
  const site = await rotation();
  const rotated = await site(ROTATED);
  await addUser(rotated.db, { userName: 'ana', role: 'CLI' });
  const cookie = await signIn(rotated.app, 'ana');
  const token = await loginToken(rotated.app, 'ana');
  const removed = await site(OLD_REMOVED);
  expect((await request(removed.app).get('/api/me').set('Cookie', cookie)).status).toBe(200);
  expect((await request(removed.app).get('/api/me').set('Authorization', `Bearer ${token}`)).status).toBe(200);
});

test(`a two-factor secret sealed with the old secret is sealed again with the newest when it is used, and still opens once the old one is removed (${TEST_ENGINE})`, async () => {
  // A code counts once: each step signs in at a later 30-second step (codes read Date.now).
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => void vi.useRealTimers());
  const t0 = Math.floor(Date.now() / STEP) * STEP + STEP / 2;
  vi.setSystemTime(t0);
  const site = await rotation();
  const before = await site(BEFORE);
  await addUser(before.db, { userName: 'carla', role: 'CLI' });
  await addUser(before.db, { userName: 'dora', role: 'CLI' });
  const { secret } = await setUpTwoFactor(browser(before.app), 'carla');
  const dora = await setUpTwoFactor(browser(before.app), 'dora');
  const sealedOf = async (userName: string) =>
    (await before.db.k.selectFrom('two_factor').select('secret').where('user_name', '=', userName).executeTakeFirstOrThrow()).secret;
  const newestOnly = secretBox(deriveKeyBytes([NEW], 'two factor secret v1'));
  expect(newestOnly.open(await sealedOf('carla'), 'carla')).toBeNull();

  // Rotated: carla signs in with her code; her secret is sealed again, with the newest secret.
  vi.setSystemTime(t0 + STEP);
  const rotated = await site(ROTATED);
  const agent = browser(rotated.app);
  expect((await signInWithPassword(agent, 'carla')).status).toBe(303);
  expect((await post(agent, '/login/code', { code: totp(secret) })).status).toBe(303);
  expect(newestOnly.open(await sealedOf('carla'), 'carla')).toBe(secret);
  // A recovery code made under the old secret counts while it is listed.
  const recovery = browser(rotated.app);
  expect((await signInWithPassword(recovery, 'dora')).status).toBe(303);
  expect((await post(recovery, '/login/code', { code: dora.recoveryCodes[0]! })).status).toBe(303);

  // The old secret removed: carla's next code still works; dora, who never signed in with her
  // authenticator meanwhile, has a secret nothing opens any more.
  vi.setSystemTime(t0 + 2 * STEP);
  const removed = await site(OLD_REMOVED);
  const later = browser(removed.app);
  expect((await signInWithPassword(later, 'carla')).status).toBe(303);
  expect((await post(later, '/login/code', { code: totp(secret) })).status).toBe(303);
  const stranded = browser(removed.app);
  expect((await signInWithPassword(stranded, 'dora')).status).toBe(303);
  expect((await post(stranded, '/login/code', { code: totp(dora.secret) })).status).not.toBe(303);
});

test('a sealed cookie (session, two-factor challenge, preview) opens with any key listed and is sealed with the first', async () => {
  const exp = Math.floor(Date.now() / 1000) + 600;
  const sealedOld = await createSessionCodec(OLD).seal({ id: 'a'.repeat(43), exp });
  expect(await createSessionCodec([NEW, OLD]).unseal(sealedOld)).toEqual({ id: 'a'.repeat(43), exp });
  expect(await createSessionCodec(NEW).unseal(sealedOld)).toBeNull();
  const sealedRotated = await createSessionCodec([NEW, OLD]).seal({ id: 'b'.repeat(43), exp });
  expect(await createSessionCodec(NEW).unseal(sealedRotated)).toEqual({ id: 'b'.repeat(43), exp });
  expect(await createSessionCodec(OLD).unseal(sealedRotated)).toBeNull();
});

test("a device cookie of the sign-in limits made with the old key still vouches for its browser after the rotation, and not after the old key's removal", () => {
  const keyOf = (secret: string) => deriveKey(secret, 'device cookie v1');
  let cookie = '';
  const res = {
    headersSent: false,
    writeHead() {},
    cookie: (_name: string, value: string) => (cookie = value),
  } as unknown as Response;
  createDeviceCookies(keyOf(OLD)).remember({ cookies: {} } as Request, res, 'ana');
  res.writeHead(200);
  const req = { cookies: { [DEVICE_COOKIE]: cookie } } as unknown as Request;
  expect(createDeviceCookies(keyOf(OLD)).deviceFor(req, 'ana')).not.toBeNull();
  expect(createDeviceCookies([keyOf(NEW), keyOf(OLD)]).deviceFor(req, 'ana')).not.toBeNull();
  expect(createDeviceCookies(keyOf(NEW)).deviceFor(req, 'ana')).toBeNull();
});

test('SESSION_SECRETS: newest first, enough on its own; SESSION_SECRET alone is a list of one; both set must agree', () => {
  const rotated = loadConfig({ SESSION_SECRETS: ` ${NEW} , ${OLD} ` });
  expect(rotated.SESSION_SECRETS).toEqual([NEW, OLD]);
  expect(rotated.SESSION_SECRET).toBe(NEW);
  expect(loadConfig({ SESSION_SECRET: OLD }).SESSION_SECRETS).toEqual([OLD]);
  // Production accepts either.
  const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://www.example.com' };
  expect(loadConfig({ ...production, SESSION_SECRETS: `${NEW},${OLD}` }).SESSION_SECRETS).toEqual([NEW, OLD]);
  // A rotation half done (the old variable still set, and listed) starts; a contradiction does not.
  expect(loadConfig({ SESSION_SECRET: OLD, SESSION_SECRETS: `${NEW},${OLD}` }).SESSION_SECRET).toBe(NEW);
  expect(() => loadConfig({ SESSION_SECRET: OLD, SESSION_SECRETS: NEW })).toThrow(/SESSION_SECRET is not in the list/);
  expect(() => loadConfig({ SESSION_SECRETS: `${NEW},short` })).toThrow(/SESSION_SECRETS\.1: each secret must be at least 32 characters/);
  expect(() => loadConfig({ SESSION_SECRETS: `${NEW},${NEW}` })).toThrow(/SESSION_SECRETS: a secret is listed twice/);
});

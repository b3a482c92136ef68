// The profile's list of the user's sessions: each sign-in with its device, address and times,
// this browser marked; ending one other session, or all the others, works at once, with or
// without JavaScript, and is recorded in the audit.
import request from 'supertest';
import { expect, onTestFinished, test, vi } from 'vitest';
import { sessionRef } from '../../server/my-account/session-list.ts';
import { createTestApp } from '../helpers/app.ts';
import { addUser } from '../helpers/users.ts';
import { appWithAudit, CHROME_ANDROID, FIREFOX_WINDOWS, postProfile, profileData, profileStatus, SAFARI_MAC, signIn } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

async function userWithTwoSessions() {
  const ctx = await appWithAudit();
  await addUser(ctx.db, { userName: 'pat', role: 'CLI', name: 'Pat', lastName: 'Lee' });
  const phone = await signIn(ctx.app, 'pat', CHROME_ANDROID);
  const laptop = await signIn(ctx.app, 'pat', FIREFOX_WINDOWS);
  return { ...ctx, phone, laptop };
}

test('two sign-ins from two browsers are both listed on the profile with their device, address and times; this one is marked', async () => {
  const { app, phone } = await userWithTwoSessions();
  const { account } = await profileData(app, phone);
  expect(account!.sessions).toHaveLength(2);
  const [first, second] = account!.sessions;
  // This browser first.
  expect(first).toMatchObject({ current: true, device: { browser: 'Chrome', os: 'Android' } });
  expect(second).toMatchObject({ current: false, device: { browser: 'Firefox', os: 'Windows' } });
  for (const s of account!.sessions) {
    expect(s.ip).toMatch(/127\.0\.0\.1|::1/);
    expect(Date.parse(s.createdAt)).not.toBeNaN();
    expect(Date.parse(s.lastSeenAt)).not.toBeNaN();
    expect(s.ref).toMatch(/^[A-Za-z0-9_-]{22}$/);
  }

  const page = await request(app).get('/en/profile').set('Cookie', phone);
  expect(page.text).toContain('Your sessions');
  expect(page.text).toMatch(/session-item session-current">.*?Chrome on Android.*?This device/s);
  expect(page.text).toContain('Firefox on Windows');
  expect(page.text).toContain('End the other session');
  const spanish = await request(app).get('/profile').set('Cookie', phone);
  expect(spanish.text).toContain('Chrome en Android');
  expect(spanish.text).toContain('Este dispositivo');
});

test('the list names a session by a digest, never by the id its cookie carries', async () => {
  const { app, db, phone } = await userWithTwoSessions();
  const ids = (await db.k.selectFrom('sessions').select('id').execute()).map((r) => r.id);
  const data = await request(app).get('/_data').query({ path: '/en/profile' }).set('Cookie', phone);
  const page = await request(app).get('/en/profile').set('Cookie', phone);
  for (const id of ids) {
    expect(JSON.stringify(data.body)).not.toContain(id);
    expect(page.text).not.toContain(id);
    expect(page.text).toContain(sessionRef(id));
  }
});

test('ending the other session makes its cookie fail at once, and the list no longer holds it (without JavaScript: 303)', async () => {
  const { app, phone, laptop, audit } = await userWithTwoSessions();
  const other = (await profileData(app, phone)).account!.sessions.find((s) => !s.current)!;
  const res = await postProfile(app, phone, { intent: 'endSession', session: other.ref });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/profile?saved=sessionEnded#sessions-title');
  expect(await profileStatus(app, laptop)).toBe(302);
  expect(await profileStatus(app, phone)).toBe(200);
  const after = await request(app).get('/en/profile?saved=sessionEnded').set('Cookie', phone);
  expect(after.text).toContain('The session has been ended.');
  expect(after.text).not.toContain('Firefox on Windows');
  expect(after.text).toContain('You have no other session open.');
  expect(audit).toContainEqual(expect.objectContaining({ action: 'session_ended', actor: 'pat' }));
});

test('ending a session with JavaScript answers JSON and the ended session is refused', async () => {
  const { app, phone, laptop } = await userWithTwoSessions();
  const other = (await profileData(app, laptop)).account!.sessions.find((s) => !s.current)!;
  const res = await postProfile(app, laptop, { intent: 'endSession', session: other.ref }, { json: true });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ ok: true, redirect: '/en/profile?saved=sessionEnded#sessions-title', success: 'sessionEnded' });
  expect(await profileStatus(app, phone)).toBe(302);
  expect(await profileStatus(app, laptop)).toBe(200);
});

test('an API client signed in with a Bearer token is a session too, and ending it refuses its token', async () => {
  const { app, phone } = await userWithTwoSessions();
  const login = await request(app)
    .post('/api/login')
    .set('User-Agent', 'curl/8.5.0')
    .send({ identifier: 'pat', password: 'correct horse battery' });
  const token = login.body.token as string;
  const sessions = (await profileData(app, phone)).account!.sessions;
  expect(sessions).toHaveLength(3);
  const client = sessions.find((s) => s.device.browser === null)!;
  expect((await request(app).get('/api/me').set('Authorization', `Bearer ${token}`)).status).toBe(200);
  expect((await postProfile(app, phone, { intent: 'endSession', session: client.ref })).status).toBe(303);
  expect((await request(app).get('/api/me').set('Authorization', `Bearer ${token}`)).status).toBe(401);
});

test('"end all others" ends every other session and leaves the current one working', async () => {
  const { app, db, phone, laptop, audit } = await userWithTwoSessions();
  const tablet = await signIn(app, 'pat', SAFARI_MAC);
  const res = await postProfile(app, phone, { intent: 'endOtherSessions' });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/profile?saved=sessionsEnded#sessions-title');
  expect(await profileStatus(app, laptop)).toBe(302);
  expect(await profileStatus(app, tablet)).toBe(302);
  expect(await profileStatus(app, phone)).toBe(200);
  const page = await request(app).get('/en/profile?saved=sessionsEnded').set('Cookie', phone);
  expect(page.text).toContain('All your other sessions have been ended.');
  expect((await profileData(app, phone)).account!.sessions).toHaveLength(1);
  expect(await db.k.selectFrom('sessions').select('id').execute()).toHaveLength(1);
  expect(audit).toContainEqual(expect.objectContaining({ action: 'sessions_ended', actor: 'pat', detail: { count: 2 } }));
});

test('the current session cannot be ended here (that is signing out): 409, and it keeps working', async () => {
  const { app, phone } = await userWithTwoSessions();
  const mine = (await profileData(app, phone)).account!.sessions.find((s) => s.current)!;
  const res = await postProfile(app, phone, { intent: 'endSession', session: mine.ref });
  expect(res.status).toBe(409);
  expect(res.text).toContain('This is the session you are using: sign out to end it.');
  expect(await profileStatus(app, phone)).toBe(200);
});

test("another user's session, or one already ended, is not found (404) and nothing is ended", async () => {
  const { app, db, phone, laptop } = await userWithTwoSessions();
  await addUser(db, { userName: 'kim', role: 'CLI' });
  const kim = await signIn(app, 'kim', SAFARI_MAC);
  const kims = (await profileData(app, kim)).account!.sessions[0]!;
  const res = await postProfile(app, phone, { intent: 'endSession', session: kims.ref }, { json: true });
  expect(res.status).toBe(404);
  expect(res.body.form.error.code).toBe('session_not_found');
  expect(await profileStatus(app, kim)).toBe(200);
  expect(await profileStatus(app, laptop)).toBe(200);
  const unknown = await postProfile(app, phone, { intent: 'endSession', session: 'nothing-like-a-session' });
  expect(unknown.status).toBe(404);
  expect(unknown.text).toContain('That session had already ended.');
});

test('an ended session stops working on another instance at once: told by the change feed, before its cache would expire', async () => {
  const { app, db, phone, laptop } = await userWithTwoSessions();
  const ref = (await profileData(app, phone)).account!.sessions.find((s) => !s.current)!.ref;
  // A second instance on the same database whose clock stands still: what it read of the
  // laptop's session never gets older than SESSION_CACHE_MS, so only the change feed can make it
  // forget. Its timers (the feed's polling) and sockets stay real.
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => void vi.useRealTimers());
  const other = await createTestApp(undefined, { db });
  expect(await profileStatus(other.app, laptop)).toBe(200);
  expect((await postProfile(app, phone, { intent: 'endSession', session: ref })).status).toBe(303);
  await expect.poll(() => profileStatus(other.app, laptop), { timeout: scaled(5_000), interval: 25 }).toBe(302);
});

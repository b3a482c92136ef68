// Forgotten passwords (docs/decisions/017): one answer for every identifier (no account enumeration), a
// single-use link valid one hour to a page that sets a new password with the rules of change
// password, every session of the user ended, rate limits per address and per account. Proven
// end to end against a real SMTP server.
import request from 'supertest';
import { expect, onTestFinished, test, vi } from 'vitest';
import { createAccounts, RESET_ANSWER_FLOOR_MS } from '../../server/account-links/service.ts';
import { createLogger } from '../../server/base/logger.ts';
import { openDatabase } from '../../server/db/index.ts';
import { createRateLimiter } from '../../server/db/rate-limit.ts';
import { TEST_ENGINE } from '../helpers/app.ts';
import { addUser } from '../helpers/users.ts';
import { accountsSite, DEFAULT_PASSWORD, linkEntries, linkIn, mailsTo, openLink, ORIGIN, postForm, signIn, type Site } from './setup.ts';

const NEW_PASSWORD = 'a brand new password';
const PEOPLE = [
  { userName: 'ana', role: 'CLI' as const, email: 'ana@example.com', name: 'Ana' },
  { userName: 'dora', role: 'CLI' as const, email: 'dora@example.com' },
  { userName: 'nomail', role: 'CONS' as const, email: null },
];

async function site(env: Record<string, string> = {}) {
  const s = await accountsSite({ users: PEOPLE, env });
  await s.db.k.updateTable('users').set({ disabled: 1 }).where('user_name', '=', 'dora').execute();
  return s;
}

function askReset(s: Site, identifier: string, path = '/forgotPassword', json = false) {
  const req = request(s.app).post(path).set('Origin', ORIGIN);
  return json ? req.set('Accept', 'application/json').send({ identifier }) : req.type('form').send({ identifier });
}

test(`a forgotten password gets an e-mail with a single-use link valid one hour, in the language of the page (${TEST_ENGINE})`, async () => {
  const s = await site();
  const res = await askReset(s, 'ana', '/en/forgotPassword');
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/forgotPassword?sent=1');
  const [mail] = await s.delivered(1);
  expect(mail!.envelope.to).toEqual(['ana@example.com']);
  expect(mail!.subject).toBe('Reset your password for Acme');
  expect(mail!.text).toContain('Hello Ana,');
  expect(mail!.text).toContain('1 hour');
  expect(linkIn(mail!)).toMatch(/^\/en\/resetPassword\?token=/);
  expect(linkEntries(s.audit)).toEqual([expect.objectContaining({ action: 'password_reset_requested', actor: null, target: 'ana' })]);
  const sent = await request(s.app).get('/en/forgotPassword?sent=1');
  expect(sent.text).toContain('If an account matches what you typed');
});

test(`the e-mail address finds the account as well as the user name, in any case (${TEST_ENGINE})`, async () => {
  const s = await site();
  await askReset(s, 'ANA@Example.com');
  await askReset(s, ' Ana ');
  expect((await s.delivered(2)).map((m) => m.envelope.to[0])).toEqual(['ana@example.com', 'ana@example.com']);
});

test(`the reset link works once: it sets the new password, ends every session of the user, and sends them to sign in (${TEST_ENGINE})`, async () => {
  const s = await site();
  const oldSession = await signIn(s.app, 'ana');
  expect((await request(s.app).get('/client').set('Cookie', oldSession)).status).toBe(200);
  await askReset(s, 'ana');
  const link = linkIn((await s.delivered(1))[0]!);

  const { agent, page } = await openLink(s.app, link);
  const form = await agent.get(page);
  expect(form.status).toBe(200);
  expect(form.headers['cache-control']).toBe('private, no-store');
  expect(form.text).toContain('Elige una contraseña nueva para ana');
  const done = await postForm(agent, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
  expect(done.status).toBe(303);
  expect(done.headers.location).toBe('/login?notice=passwordReset');
  expect((await request(s.app).get('/login?notice=passwordReset')).text).toContain('Tu contraseña ha cambiado');

  // Every session ended; the old password no longer signs in, the new one does.
  const after = await request(s.app).get('/client').set('Cookie', oldSession);
  expect(after.status).toBe(302);
  expect(after.headers.location).toBe('/login');
  expect((await postForm(request(s.app), '/login', { identifier: 'ana', password: DEFAULT_PASSWORD })).status).toBe(401);
  await signIn(s.app, 'ana', NEW_PASSWORD);
  expect(linkEntries(s.audit).map((e) => e.action)).toEqual(['password_reset_requested', 'password_reset']);

  // Only once.
  const again = await openLink(s.app, link);
  const used = await again.agent.get(again.page);
  expect(used.status).toBe(410);
  expect(used.text).toContain('Este enlace ya se ha usado');
  expect(used.text).toContain('href="/forgotPassword"');
  expect((await postForm(again.agent, again.page, { newPassword: 'yet another one 1', confirmPassword: 'yet another one 1' })).status).toBe(
    410,
  );
  await signIn(s.app, 'ana', NEW_PASSWORD);
});

test(`with JavaScript the reset answers JSON and the page is the same (${TEST_ENGINE})`, async () => {
  const s = await site();
  const asked = await askReset(s, 'ana', '/en/forgotPassword', true);
  expect(asked.status).toBe(200);
  expect(asked.body).toEqual({ ok: true, redirect: '/en/forgotPassword?sent=1', success: 'resetSent' });
  const { agent, page } = await openLink(s.app, linkIn((await s.delivered(1))[0]!));
  const short = await agent
    .post(page)
    .set('Origin', ORIGIN)
    .set('Accept', 'application/json')
    .send({ newPassword: 'short', confirmPassword: 'short' });
  expect(short.status).toBe(422);
  expect(short.body.form.error.fields).toEqual({ newPassword: 'validation.passwordTooShort' });
  const done = await agent
    .post(page)
    .set('Origin', ORIGIN)
    .set('Accept', 'application/json')
    .send({ newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
  expect(done.body).toEqual({ ok: true, redirect: '/en/login?notice=passwordReset', success: 'passwordReset' });
});

test(`a reset link older than one hour is refused with a clear page, and the password stays (${TEST_ENGINE})`, async () => {
  const s = await site();
  await askReset(s, 'ana');
  const link = linkIn((await s.delivered(1))[0]!);
  await s.db.k
    .updateTable('account_links')
    .set({ expires_at: Date.now() - 1 })
    .execute();
  const { agent, page } = await openLink(s.app, link);
  const expired = await agent.get(page);
  expect(expired.status).toBe(410);
  expect(expired.text).toContain('Este enlace ha caducado');
  expect(expired.text).toContain('valen una hora');
  expect((await postForm(agent, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(410);
  await signIn(s.app, 'ana');
});

test(`a newer reset link replaces the older one (${TEST_ENGINE})`, async () => {
  const s = await site();
  await askReset(s, 'ana');
  await askReset(s, 'ana');
  const [first, second] = (await s.delivered(2)).map(linkIn);
  const old = await openLink(s.app, first!);
  expect((await old.agent.get(old.page)).status).toBe(404);
  const fresh = await openLink(s.app, second!);
  expect((await postForm(fresh.agent, fresh.page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(303);
});

test.each([
  ['too short', { newPassword: 'short', confirmPassword: 'short' }, 'newPassword'],
  ['the user name', { newPassword: 'ANA', confirmPassword: 'ANA' }, 'newPassword'],
  ['not repeated the same', { newPassword: NEW_PASSWORD, confirmPassword: 'something else 1' }, 'confirmPassword'],
])(`a new password that is %s is refused (422) and the link stays unused (${TEST_ENGINE})`, async (_label, fields, field) => {
  const s = await site();
  await askReset(s, 'ana');
  const { agent, page } = await openLink(s.app, linkIn((await s.delivered(1))[0]!));
  const refused = await postForm(agent, page, fields);
  expect(refused.status).toBe(422);
  expect(refused.text).toContain(`id="resetPassword-${field}-error"`);
  expect((await postForm(agent, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(303);
});

// No enumeration: whatever the identifier names, the visitor sees one answer.
const IDENTIFIERS = [
  ['an enabled account', 'ana'],
  ['an unknown identifier', 'nobody-here'],
  ['an unknown e-mail address', 'nobody@example.com'],
  ['a disabled account', 'dora'],
  ['an account without an address', 'nomail'],
] as const;

test(`known, unknown, disabled and address-less identifiers get the same status and body (${TEST_ENGINE})`, async () => {
  const s = await site({ PASSWORD_RESET_MAX_PER_IP: '100', PASSWORD_RESET_MAX_PER_ACCOUNT: '100' });
  const answers: { label: string; status: number; location: string | undefined; body: string; json: unknown }[] = [];
  for (const [label, identifier] of IDENTIFIERS) {
    for (let round = 0; round < 2; round++) {
      const res = await askReset(s, identifier);
      const json = await askReset(s, identifier, '/forgotPassword', true);
      answers.push({ label, status: res.status, location: res.headers.location, body: res.text, json: json.body });
    }
  }
  for (const answer of answers) {
    expect(answer).toEqual({
      label: answer.label,
      status: 303,
      location: '/forgotPassword?sent=1',
      body: answers[0]!.body,
      json: { ok: true, redirect: '/forgotPassword?sent=1', success: 'resetSent' },
    });
  }
  // And only the enabled account with an address got anything (four times: two rounds, with and without JavaScript).
  await s.delivered(4);
  await s.mail.flush();
  expect(s.smtp.messages.map((m) => m.envelope.to[0])).toEqual(Array(4).fill('ana@example.com'));
  expect(linkEntries(s.audit).map((e) => e.target)).toEqual(Array(4).fill('ana'));
});

// The timing class, on the service's own clock: the answer is held until RESET_ANSWER_FLOOR_MS
// after the request, whatever was looked up or sent meanwhile. Fake time makes "not a moment
// sooner, not a moment later" exact; the database is an in-memory SQLite whatever the engine
// (its queries settle without timers, so fake time does not move while they run).
test('every forgotten-password answer waits for the same floor, whatever was done behind it', async () => {
  const db = await openDatabase({ file: ':memory:' });
  onTestFinished(() => db.close());
  for (const person of PEOPLE) await addUser(db, person);
  await db.k.updateTable('users').set({ disabled: 1 }).where('user_name', '=', 'dora').execute();
  // Before the service is made: it keeps the clock it finds.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  onTestFinished(() => void vi.useRealTimers());
  const sentTo: string[] = [];
  const accounts = createAccounts({
    db,
    mail: { canSend: true, sendAccountMail: async (mail) => void sentTo.push(mail.to) },
    sessions: { endAllOf: async () => 0 },
    locales: { signedIn: async () => {} },
    origin: ORIGIN,
    resetLimits: { limiter: createRateLimiter(db, 3_600_000), perIp: 100, perAccount: 1 },
    logger: createLogger('silent'),
  });
  // The last: ana again, past the one link per account allowed here.
  for (const [label, identifier] of [...IDENTIFIERS, ['an account past its limit', 'ana'] as const]) {
    let answered = false;
    const answer = accounts.requestPasswordReset(identifier, 'en', '203.0.113.7').then(() => void (answered = true));
    await vi.advanceTimersByTimeAsync(RESET_ANSWER_FLOOR_MS - 1);
    expect(answered, `${label}: answered before the floor`).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(answered, `${label}: still waiting at the floor`).toBe(true);
    await answer;
  }
  expect(sentTo).toEqual(['ana@example.com']);
});

test(`a disabled user gets nothing (${TEST_ENGINE})`, async () => {
  const s = await site();
  await askReset(s, 'dora');
  await askReset(s, 'dora@example.com');
  await s.mail.flush();
  expect(s.smtp.messages).toEqual([]);
  expect(linkEntries(s.audit)).toEqual([]);
});

test(`past the limit per address the form answers 429 with Retry-After, for any identifier (${TEST_ENGINE})`, async () => {
  const s = await site({ PASSWORD_RESET_MAX_PER_IP: '3' });
  for (const identifier of ['ana', 'nobody', 'dora']) expect((await askReset(s, identifier)).status).toBe(303);
  const blocked = await askReset(s, 'nobody-else');
  expect(blocked.status).toBe(429);
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(3500);
  expect(blocked.text).toMatch(/Demasiadas solicitudes desde tu conexión\. Inténtalo de nuevo dentro de \d+ (?:segundos|minutos)\./);
  const json = await askReset(s, 'ana', '/forgotPassword', true);
  expect(json.status).toBe(429);
  expect(json.body.form.error).toMatchObject({ code: 'too_many_requests' });
});

test(`past the limit per account the answer stays the same but no more e-mails go out (${TEST_ENGINE})`, async () => {
  const s = await site({ PASSWORD_RESET_MAX_PER_ACCOUNT: '2' });
  const answers = [];
  for (const identifier of ['ana', 'ana@example.com', 'ANA', 'nobody']) {
    const res = await askReset(s, identifier);
    answers.push([res.status, res.headers.location]);
  }
  expect(answers).toEqual(Array(4).fill([303, '/forgotPassword?sent=1']));
  await s.delivered(2);
  await s.mail.flush();
  expect(mailsTo(s, 'ana@example.com')).toHaveLength(2);
});

test(`the forgotten-password form needs an identifier (422, named) (${TEST_ENGINE})`, async () => {
  const s = await site();
  const res = await askReset(s, '   ', '/en/forgotPassword');
  expect(res.status).toBe(422);
  expect(res.text).toContain('id="forgotPassword-identifier-error"');
  expect(res.text).toContain('This field is required.');
});

test(`without a mail server in production the page says resets are not available here, and the form is refused (503) (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ noSmtp: true, env: { NODE_ENV: 'production' }, users: PEOPLE });
  const page = await request(s.app).get('/en/forgotPassword');
  expect(page.status).toBe(200);
  expect(page.text).toContain('passwords cannot be reset here');
  expect(page.text).not.toContain('name="identifier"');
  const res = await askReset(s, 'ana', '/en/forgotPassword');
  expect(res.status).toBe(503);
});

test(`the login page links to the forgotten-password page, in each locale form (${TEST_ENGINE})`, async () => {
  const s = await site();
  for (const [path, link, text] of [
    ['/login', '/forgotPassword', '¿Has olvidado tu contraseña?'],
    // The site links to the default locale's pages unprefixed (localePath).
    ['/es/login', '/forgotPassword', '¿Has olvidado tu contraseña?'],
    ['/en/login', '/en/forgotPassword', 'Forgot your password?'],
  ] as const) {
    const res = await request(s.app).get(path);
    expect(res.text).toContain(`href="${link}"`);
    expect(res.text).toContain(text);
    expect((await request(s.app).get(link)).status).toBe(200);
  }
});

test(`a reset by an invited user who lost the invitation also accepts it (${TEST_ENGINE})`, async () => {
  const s = await site();
  await addUser(s.db, { userName: 'ivan', role: 'CLI', email: 'ivan@example.com' });
  await s.db.k.updateTable('users').set({ invited_at: new Date().toISOString() }).where('user_name', '=', 'ivan').execute();
  await askReset(s, 'ivan');
  const { agent, page } = await openLink(s.app, linkIn((await s.delivered(1))[0]!));
  expect((await postForm(agent, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(303);
  const row = await s.db.k.selectFrom('users').select('invited_at').where('user_name', '=', 'ivan').executeTakeFirstOrThrow();
  expect(row.invited_at).toBeNull();
});

// A change of e-mail address (docs/decisions/017): asked on the profile with the current password,
// confirmed by a single-use link (24 hours) sent to the new address; the old address is told,
// and stays the account's until the link is used. Proven end to end against a real SMTP server.
import request from 'supertest';
import { expect, test } from 'vitest';
import { findUser } from '../../server/users/users.ts';
import { TEST_ENGINE } from '../helpers/app.ts';
import { accountsSite, DEFAULT_PASSWORD, linkEntries, linkIn, mailsTo, openLink, ORIGIN, postForm, signIn, type Site } from './setup.ts';

const PEOPLE = [
  { userName: 'ana', role: 'CLI' as const, email: 'ana@example.com', name: 'Ana' },
  { userName: 'bea', role: 'ORG' as const, email: 'bea@example.com' },
  { userName: 'nomail', role: 'CONS' as const, email: null },
];

function askChange(s: Site, cookie: string, fields: Record<string, string>, path = '/profile') {
  return request(s.app)
    .post(path)
    .set('Origin', ORIGIN)
    .set('Cookie', cookie)
    .type('form')
    .send({ form: 'email', ...fields });
}

test(`the profile shows the address and a form to change it with the current password (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: PEOPLE });
  const page = await request(s.app)
    .get('/en/profile')
    .set('Cookie', await signIn(s.app, 'ana'));
  expect(page.text).toContain('<strong>ana@example.com</strong>');
  expect(page.text).toMatch(/<input type="hidden" name="form" value="email"\/>/);
  expect(page.text).toMatch(/<input(?=[^>]*id="email-newEmail")(?=[^>]*type="email")/);
  expect(page.text).toMatch(/<input(?=[^>]*id="email-currentPassword")(?=[^>]*type="password")/);
});

test(`a change sends a 24-hour link to the NEW address and tells the OLD one; until confirmed the old address stays (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: PEOPLE });
  const cookie = await signIn(s.app, 'ana');
  const res = await askChange(s, cookie, { newEmail: 'ana.new@example.com', currentPassword: DEFAULT_PASSWORD }, '/en/profile');
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/profile?saved=emailPending');
  await s.delivered(2);
  const [confirm] = mailsTo(s, 'ana.new@example.com');
  expect(confirm!.subject).toBe('Confirm your new e-mail address for Acme');
  expect(confirm!.text).toContain('24 hours');
  // The new address is nobody's yet: no display name, no other address (docs/decisions/029).
  expect(confirm!.text).toContain('keeps using its former address');
  expect(confirm!.text).not.toContain('ana@example.com');
  expect(confirm!.text).not.toContain('Ana');
  expect(linkIn(confirm!)).toMatch(/^\/en\/confirmEmail\?token=/);
  const [told] = mailsTo(s, 'ana@example.com');
  expect(told!.subject).toBe("A change of your account's e-mail address at Acme was asked for");
  expect(told!.text).toContain('ana.new@example.com');
  expect(told!.text).toContain('If it was not you');
  expect(told!.text).toContain('https://www.example.test/en/changePassword');

  expect((await findUser(s.db, 'ana'))?.email).toBe('ana@example.com');
  const profile = await request(s.app).get('/en/profile?saved=emailPending').set('Cookie', cookie);
  expect(profile.text).toContain('We have sent a link to ana.new@example.com.');
  // Later, a standing note says the same.
  const later = await request(s.app).get('/en/profile').set('Cookie', cookie);
  expect(later.text).toContain('Waiting for confirmation: we sent a link to ana.new@example.com');
  expect(linkEntries(s.audit)).toEqual([
    expect.objectContaining({ action: 'email_change_requested', actor: 'ana', detail: { newEmail: 'ana.new@example.com' } }),
  ]);
});

test(`the link confirms the new address once; the old address is told it changed (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: PEOPLE });
  const cookie = await signIn(s.app, 'ana');
  await askChange(s, cookie, { newEmail: 'ana.new@example.com', currentPassword: DEFAULT_PASSWORD });
  await s.delivered(2);
  const link = linkIn(mailsTo(s, 'ana.new@example.com')[0]!);

  // Opening the link changes nothing (mail programs open links): the page asks to confirm.
  const { agent, page } = await openLink(s.app, link);
  const shown = await agent.get(page);
  expect(shown.status).toBe(200);
  expect(shown.text).toContain('Tu cuenta ana usará ana.new@example.com');
  expect((await findUser(s.db, 'ana'))?.email).toBe('ana@example.com');

  const confirmed = await postForm(agent, page, {});
  expect(confirmed.status).toBe(303);
  expect(confirmed.headers.location).toBe('/login?notice=emailChanged');
  expect((await findUser(s.db, 'ana'))?.email).toBe('ana.new@example.com');
  await s.delivered(3);
  const changed = mailsTo(s, 'ana@example.com')[1]!;
  expect(changed.subject).toBe('La dirección de correo de tu cuenta de Acme ha cambiado');
  expect(changed.text).toContain('ana.new@example.com');
  expect(linkEntries(s.audit).map((e) => e.action)).toEqual(['email_change_requested', 'email_changed']);
  // The new address signs in.
  await signIn(s.app, 'ana.new@example.com');

  // Only once.
  const again = await openLink(s.app, link);
  const used = await again.agent.get(again.page);
  expect(used.status).toBe(410);
  expect(used.text).toContain('Esta dirección ya está confirmada');
  expect((await postForm(again.agent, again.page, {})).status).toBe(410);
});

test(`confirmed in the browser where the user is signed in, the profile says so (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: PEOPLE });
  const cookie = await signIn(s.app, 'ana');
  await askChange(s, cookie, { newEmail: 'ana.new@example.com', currentPassword: DEFAULT_PASSWORD }, '/en/profile');
  await s.delivered(2);
  const agent = request.agent(s.app);
  agent.set('Cookie', cookie);
  const link = linkIn(mailsTo(s, 'ana.new@example.com')[0]!);
  const opened = await agent.get(link);
  const linkCookie = ([] as string[]).concat(opened.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
  const res = await request(s.app)
    .post('/en/confirmEmail')
    .set('Origin', ORIGIN)
    .set('Cookie', `${cookie}; ${linkCookie}`)
    .set('Accept', 'application/json')
    .send({});
  expect(res.body).toEqual({ ok: true, redirect: '/en/profile?saved=email', success: 'email' });
  const profile = await request(s.app).get('/en/profile?saved=email').set('Cookie', cookie);
  expect(profile.text).toContain('Your e-mail address has been changed.');
  expect(profile.text).toContain('<strong>ana.new@example.com</strong>');
});

test(`an address that another account took meanwhile is refused at confirmation (409) and nothing changes (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: PEOPLE });
  await askChange(s, await signIn(s.app, 'ana'), { newEmail: 'shared@example.com', currentPassword: DEFAULT_PASSWORD });
  await s.delivered(2);
  const link = linkIn(mailsTo(s, 'shared@example.com')[0]!);
  await s.db.k.updateTable('users').set({ email: 'SHARED@example.com' }).where('user_name', '=', 'bea').execute();
  const { agent, page } = await openLink(s.app, link);
  const refused = await postForm(agent, page, {});
  expect(refused.status).toBe(409);
  expect(refused.text).toContain('Esta dirección de correo ya la usa otra cuenta.');
  expect((await findUser(s.db, 'ana'))?.email).toBe('ana@example.com');
  // The link is not spent: had the other account let the address go, it would still work.
  await s.db.k.updateTable('users').set({ email: null }).where('user_name', '=', 'bea').execute();
  expect((await postForm(agent, page, {})).status).toBe(303);
});

test.each([
  ['a wrong current password', { newEmail: 'x@example.com', currentPassword: 'wrong password 1' }, 422, 'currentPassword'],
  ['an address that is not one', { newEmail: 'not an address', currentPassword: DEFAULT_PASSWORD }, 422, 'newEmail'],
  ['the address the account has', { newEmail: 'ANA@example.com', currentPassword: DEFAULT_PASSWORD }, 422, 'newEmail'],
  ['no current password', { newEmail: 'x@example.com', currentPassword: '' }, 422, 'currentPassword'],
])(`a change to %s is refused (%s, named) and sends nothing (${TEST_ENGINE})`, async (_label, fields, status, field) => {
  const s = await accountsSite({ users: PEOPLE });
  const res = await askChange(s, await signIn(s.app, 'ana'), fields);
  expect(res.status).toBe(status);
  expect(res.text).toContain(`id="email-${field}-error"`);
  expect(res.text).toContain(`value="${fields.newEmail}"`);
  await s.mail.flush();
  expect(s.smtp.messages).toEqual([]);
  expect(await s.db.k.selectFrom('account_links').selectAll().execute()).toEqual([]);
});

test(`a change to another account's address is answered like any other; that address's owner is told, and no link goes out (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: PEOPLE });
  const cookie = await signIn(s.app, 'ana');
  const taken = await askChange(s, cookie, { newEmail: 'BEA@example.com', currentPassword: DEFAULT_PASSWORD }, '/en/profile');
  expect(taken.status).toBe(303);
  expect(taken.headers.location).toBe('/en/profile?saved=emailPending');
  await s.delivered(2);
  expect(mailsTo(s, 'ana@example.com')).toHaveLength(1);
  const [notice] = mailsTo(s, 'bea@example.com');
  expect(notice!.subject).toBe('Alguien ha intentado usar tu dirección de correo en Acme');
  expect(notice!.text).not.toMatch(/token=/);
  expect(notice!.text).not.toContain('ana');
  expect(notice!.text).toContain('https://www.example.test/forgotPassword');
  // The profile shows the same "waiting for confirmation" as for a free address.
  const profile = await request(s.app).get('/en/profile').set('Cookie', cookie);
  expect(profile.text).toContain('Waiting for confirmation: we sent a link to bea@example.com');
  expect((await findUser(s.db, 'ana'))?.email).toBe('ana@example.com');
});

test(`wrong current passwords are counted like change password's: past the limit, 429 (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: PEOPLE, env: { PASSWORD_CHANGE_MAX_FAILURES_PER_ACCOUNT: '2' } });
  const cookie = await signIn(s.app, 'ana');
  for (let i = 0; i < 2; i++) {
    expect((await askChange(s, cookie, { newEmail: 'x@example.com', currentPassword: `wrong ${i} password` })).status).toBe(422);
  }
  const blocked = await askChange(s, cookie, { newEmail: 'x@example.com', currentPassword: DEFAULT_PASSWORD });
  expect(blocked.status).toBe(429);
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
});

test(`a user without an address can add one the same way (no old address to tell) (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: PEOPLE });
  await askChange(s, await signIn(s.app, 'nomail'), { newEmail: 'first@example.com', currentPassword: DEFAULT_PASSWORD });
  const [mail] = await s.delivered(1);
  expect(mail!.envelope.to).toEqual(['first@example.com']);
  const { agent, page } = await openLink(s.app, linkIn(mail!));
  expect((await postForm(agent, page, {})).status).toBe(303);
  expect((await findUser(s.db, 'nomail'))?.email).toBe('first@example.com');
  await s.mail.flush();
  expect(s.smtp.messages).toHaveLength(1);
});

test(`an e-mail change link older than 24 hours is refused with a clear page (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: PEOPLE });
  await askChange(s, await signIn(s.app, 'ana'), { newEmail: 'late@example.com', currentPassword: DEFAULT_PASSWORD });
  await s.delivered(2);
  await s.db.k
    .updateTable('account_links')
    .set({ expires_at: Date.now() - 1 })
    .execute();
  const { agent, page } = await openLink(s.app, linkIn(mailsTo(s, 'late@example.com')[0]!));
  const expired = await agent.get(page);
  expect(expired.status).toBe(410);
  expect(expired.text).toContain('Este enlace ha caducado');
  expect(expired.text).toContain('valen 24 horas');
  expect((await postForm(agent, page, {})).status).toBe(410);
  expect((await findUser(s.db, 'ana'))?.email).toBe('ana@example.com');
});

test(`without a mail server in production the profile says the address cannot be changed here (503) (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: PEOPLE, noSmtp: true, env: { NODE_ENV: 'production' } });
  const cookie = await signIn(s.app, 'ana');
  const page = await request(s.app).get('/en/profile').set('Cookie', cookie);
  expect(page.text).toContain('the address cannot be changed here');
  expect(page.text).not.toContain('id="email-newEmail"');
  const res = await askChange(s, cookie, { newEmail: 'x@example.com', currentPassword: DEFAULT_PASSWORD });
  expect(res.status).toBe(503);
});

test(`the profile's own form still saves the name (the e-mail form is told apart by its field) (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: PEOPLE });
  const res = await request(s.app)
    .post('/profile')
    .set('Origin', ORIGIN)
    .set('Cookie', await signIn(s.app, 'ana'))
    .type('form')
    .send({ name: 'Ana María', lastName: 'Ruiz' });
  expect(res.status).toBe(303);
  expect((await findUser(s.db, 'ana'))?.name).toBe('Ana María');
});

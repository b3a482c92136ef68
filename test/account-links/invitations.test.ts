// Invitations (docs/decisions/017): an admin creates a user without a password; the user gets an e-mail
// with a single-use link (72 hours) to choose one and lands signed in in their area. Proven end
// to end against a real SMTP server.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { expect, test } from 'vitest';
import { run } from '../../scripts/user.ts';
import { databaseFile, openDatabase } from '../../server/db/index.ts';
import { findUser } from '../../server/users/users.ts';
import { TEST_ENGINE } from '../helpers/app.ts';
import { accountsSite, adminToken, linkIn, openLink, ORIGIN, postForm, sessionCookieOf, type Site } from './setup.ts';

const NEW_PASSWORD = 'a brand new password';

function invite(site: Site, token: string, fields: Record<string, unknown> = {}) {
  return request(site.app)
    .post('/api/admin/users')
    .set('Authorization', `Bearer ${token}`)
    .send({ userName: 'nora', name: 'Nora', lastName: 'Nueva', role: 'CLI', email: 'nora@example.com', invite: true, ...fields });
}

test(`an invited user gets an e-mail with a 72-hour single-use link, in the language the admin chose (${TEST_ENGINE})`, async () => {
  const site = await accountsSite();
  const token = await adminToken(site);
  const before = Date.now();
  const res = await invite(site, token, { locale: 'en' });
  expect(res.status).toBe(201);
  expect(res.body.user).toMatchObject({ userName: 'nora', invited: true, disabled: false });
  expect(res.body.invitation.sentTo).toBe('nora@example.com');
  expect(res.body.invitation.link).toBeUndefined();
  const after = Date.now();
  // 72 hours from the moment the link was made, which lies between before and after.
  const expiresAt = Date.parse(res.body.invitation.expiresAt);
  expect(expiresAt).toBeGreaterThanOrEqual(before + 72 * 3_600_000);
  expect(expiresAt).toBeLessThanOrEqual(after + 72 * 3_600_000);
  const [mail] = await site.delivered(1);
  expect(mail!.envelope.to).toEqual(['nora@example.com']);
  expect(mail!.subject).toBe('You are invited to Acme');
  expect(mail!.text).toContain('“nora”');
  expect(mail!.text).toContain('72 hours');
  expect(mail!.html).toContain('Choose my password');
  expect(linkIn(mail!)).toMatch(/^\/en\/invitation\?token=/);
  expect(site.audit.entries).toContainEqual(
    expect.objectContaining({ action: 'invitation_sent', actor: 'root', target: 'nora', detail: { delivery: 'email', resend: false } }),
  );
});

test(`the invitation link works once: the user chooses a password and lands signed in in their area; then it is "already used" (${TEST_ENGINE})`, async () => {
  const site = await accountsSite();
  await invite(site, await adminToken(site));
  const link = linkIn((await site.delivered(1))[0]!);
  expect(link).toMatch(/^\/invitation\?token=/);

  const { agent, page } = await openLink(site.app, link);
  const form = await agent.get(page);
  expect(form.status).toBe(200);
  expect(form.headers['cache-control']).toBe('private, no-store');
  expect(form.text).toContain('Tu cuenta nora está lista');
  expect(form.text).toMatch(/<input(?=[^>]*name="newPassword")(?=[^>]*type="password")/);

  const accepted = await postForm(agent, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
  expect(accepted.status).toBe(303);
  expect(accepted.headers.location).toBe('/client');
  expect(sessionCookieOf(accepted)).not.toBeNull();
  const area = await agent.get('/client');
  expect(area.status).toBe(200);
  expect(area.text).toContain('Nora');
  expect((await findUser(site.db, 'nora'))?.invited).toBe(false);
  expect(site.audit.entries.map((e) => e.action)).toContain('invitation_accepted');

  // The same link again, in a fresh browser: refused with a clear page.
  const again = await openLink(site.app, link);
  const used = await again.agent.get(again.page);
  expect(used.status).toBe(410);
  expect(used.text).toContain('Este enlace ya se ha usado');
  const reused = await postForm(again.agent, again.page, { newPassword: 'another password 1', confirmPassword: 'another password 1' });
  expect(reused.status).toBe(410);
  // The password is the one chosen first.
  const signIn = await postForm(request(site.app), '/login', { identifier: 'nora', password: NEW_PASSWORD });
  expect(signIn.status).toBe(303);
});

test(`with JavaScript the invitation answers JSON: the area to go to, and the session cookie (${TEST_ENGINE})`, async () => {
  const site = await accountsSite();
  await invite(site, await adminToken(site), { role: 'ORG', locale: 'en' });
  const { agent, page } = await openLink(site.app, linkIn((await site.delivered(1))[0]!));
  expect(page).toBe('/en/invitation');
  const res = await agent
    .post(page)
    .set('Origin', ORIGIN)
    .set('Accept', 'application/json')
    .send({ newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ ok: true, redirect: '/en/organization', success: 'invitationAccepted' });
  expect(sessionCookieOf(res)).not.toBeNull();
});

test(`an invitation link older than 72 hours is refused with a clear page, and sets nothing (${TEST_ENGINE})`, async () => {
  const site = await accountsSite();
  await invite(site, await adminToken(site));
  const link = linkIn((await site.delivered(1))[0]!);
  await site.db.k
    .updateTable('account_links')
    .set({ expires_at: Date.now() - 1 })
    .execute();
  const { agent, page } = await openLink(site.app, link);
  const expired = await agent.get(page);
  expect(expired.status).toBe(410);
  expect(expired.text).toContain('Este enlace ha caducado');
  expect(expired.text).toContain('Las invitaciones valen 72 horas');
  const posted = await postForm(agent, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
  expect(posted.status).toBe(410);
  expect(sessionCookieOf(posted)).toBeNull();
  expect((await findUser(site.db, 'nora'))?.invited).toBe(true);
});

test.each([
  ['too short', { newPassword: 'short', confirmPassword: 'short' }, 'newPassword', 'La contraseña debe tener al menos 10 caracteres.'],
  ['the user name', { newPassword: 'NORA', confirmPassword: 'NORA' }, 'newPassword', ''],
  ['not repeated the same', { newPassword: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}!` }, 'confirmPassword', 'no coinciden'],
])(
  `a chosen password that is %s is refused (422, the rules of change password) and the link stays unused (${TEST_ENGINE})`,
  async (_label, fields, field, text) => {
    const site = await accountsSite();
    await invite(site, await adminToken(site));
    const { agent, page } = await openLink(site.app, linkIn((await site.delivered(1))[0]!));
    const refused = await postForm(agent, page, fields);
    expect(refused.status).toBe(422);
    expect(refused.text).toContain(`id="invitation-${field}-error"`);
    expect(refused.text).toContain(text);
    const ok = await postForm(agent, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(ok.status).toBe(303);
  },
);

test(`the admin can resend an invitation: a new link, and the older one stops working (${TEST_ENGINE})`, async () => {
  const site = await accountsSite();
  const token = await adminToken(site);
  await invite(site, token);
  const first = linkIn((await site.delivered(1))[0]!);
  const resent = await request(site.app).post('/api/admin/users/NORA/invitation').set('Authorization', `Bearer ${token}`);
  expect(resent.status).toBe(200);
  expect(resent.body).toMatchObject({ user: { userName: 'nora', invited: true }, invitation: { sentTo: 'nora@example.com' } });
  const second = linkIn((await site.delivered(2))[1]!);
  expect(second).not.toBe(first);

  const old = await openLink(site.app, first);
  const oldPage = await old.agent.get(old.page);
  expect(oldPage.status).toBe(404);
  expect(oldPage.text).toContain('Este enlace no es válido');
  const fresh = await openLink(site.app, second);
  expect((await postForm(fresh.agent, fresh.page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(303);

  // Accepted: nothing left to resend.
  const late = await request(site.app).post('/api/admin/users/nora/invitation').set('Authorization', `Bearer ${token}`);
  expect(late.status).toBe(409);
  expect(late.body.error.code).toBe('invitation_accepted');
  expect(site.audit.entries.filter((e) => e.action === 'invitation_sent').map((e) => e.detail?.resend)).toEqual([false, true]);
});

test.each([
  ['an unknown user', 'ghost', 404, 'user_not_found'],
  ['a user who was never invited', 'root', 409, 'invitation_accepted'],
])(`resending the invitation of %s is refused (${TEST_ENGINE})`, async (_label, userName, status, code) => {
  const site = await accountsSite();
  const res = await request(site.app)
    .post(`/api/admin/users/${userName}/invitation`)
    .set('Authorization', `Bearer ${await adminToken(site)}`);
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
});

test(`a disabled invited user gets no new invitation, and their link stops working (${TEST_ENGINE})`, async () => {
  const site = await accountsSite();
  const token = await adminToken(site);
  await invite(site, token);
  const link = linkIn((await site.delivered(1))[0]!);
  await request(site.app).patch('/api/admin/users/nora').set('Authorization', `Bearer ${token}`).send({ disabled: true });
  const resend = await request(site.app).post('/api/admin/users/nora/invitation').set('Authorization', `Bearer ${token}`);
  expect(resend.status).toBe(409);
  expect(resend.body.error.code).toBe('user_disabled');
  const { agent, page } = await openLink(site.app, link);
  expect((await agent.get(page)).status).toBe(404);
  expect((await postForm(agent, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(404);
});

test.each([
  ['without an e-mail address', { email: undefined }, 'email'],
  ['with a password as well', { password: 'a password too 1' }, 'password'],
])(`an invitation %s is refused (400) and creates nobody (${TEST_ENGINE})`, async (_label, fields, field) => {
  const site = await accountsSite();
  const res = await invite(site, await adminToken(site), fields);
  expect(res.status).toBe(400);
  expect(res.body.error.fields).toHaveProperty(field);
  expect(await findUser(site.db, 'nora')).toBeNull();
});

test(`the users list shows who has not accepted their invitation yet (${TEST_ENGINE})`, async () => {
  const site = await accountsSite();
  const token = await adminToken(site);
  await invite(site, token);
  const list = await request(site.app).get('/api/admin/users').set('Authorization', `Bearer ${token}`);
  const invited = (list.body.items as { userName: string; invited: boolean }[]).map((u) => [u.userName, u.invited]);
  expect(invited).toEqual([
    ['nora', true],
    ['root', false],
  ]);
});

test(`without a mail server in production the admin gets the one-time link to pass on; the site keeps only its digest (${TEST_ENGINE})`, async () => {
  const site = await accountsSite({ noSmtp: true, env: { NODE_ENV: 'production' } });
  expect(site.mail.canSend).toBe(false);
  const res = await invite(site, await adminToken(site));
  expect(res.status).toBe(201);
  expect(res.body.invitation.sentTo).toBeUndefined();
  const link: string = res.body.invitation.link;
  expect(link).toMatch(/^https:\/\/www\.example\.test\/invitation\?token=[A-Za-z0-9_-]{43}$/);
  const token = link.split('token=')[1]!;
  const stored = JSON.stringify([
    await site.db.k.selectFrom('account_links').selectAll().execute(),
    await site.db.k.selectFrom('mail_outbox').selectAll().execute(),
  ]);
  expect(stored).not.toContain(token);
  expect(site.audit.entries).toContainEqual(
    expect.objectContaining({ action: 'invitation_sent', detail: { delivery: 'link', resend: false } }),
  );
  const { agent, page } = await openLink(site.app, link.replace(ORIGIN, ''));
  expect((await postForm(agent, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(303);
});

test(`a sent invitation's body is removed from the outbox: the database never keeps a usable link (${TEST_ENGINE})`, async () => {
  const site = await accountsSite();
  await invite(site, await adminToken(site));
  const token = linkIn((await site.delivered(1))[0]!).split('token=')[1]!;
  const rows = await site.db.k.selectFrom('mail_outbox').selectAll().execute();
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ kind: 'invitation', status: 'sent', recipient: 'nora@example.com' });
  expect(JSON.stringify(rows)).not.toContain(token);
});

test(`opening a link takes its token off the address bar: a 303 to the bare page and an httpOnly cookie (${TEST_ENGINE})`, async () => {
  const site = await accountsSite();
  const token = 'A'.repeat(43);
  for (const path of ['/invitation', '/es/resetPassword', '/en/confirmEmail']) {
    const res = await request(site.app).get(`${path}?token=${token}`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(path);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('account.link='));
    expect(cookie).toMatch(new RegExp(`^account\\.link=${token}; .*HttpOnly; SameSite=Lax`));
  }
  const malformed = await request(site.app).get('/invitation?token=%3Cscript%3E');
  expect(malformed.status).toBe(303);
  expect(([] as string[]).concat(malformed.headers['set-cookie'] ?? []).join()).toMatch(/account\.link=;/);
});

test(`a link's page opened without a link says to open the one from the e-mail (404) (${TEST_ENGINE})`, async () => {
  const site = await accountsSite();
  for (const [path, text] of [
    ['/invitation', 'Abre el enlace de tu correo'],
    ['/en/resetPassword', 'Open the link from your e-mail'],
    ['/en/confirmEmail', 'Open the link from your e-mail'],
  ] as const) {
    const res = await request(site.app).get(path);
    expect(res.status, path).toBe(404);
    expect(res.text).toContain(text);
    expect(res.headers['cache-control']).toBe('private, no-store');
  }
});

test(`with an external API (API_URL) the users are the API's: the link pages answer 404 and no account form is taken (${TEST_ENGINE})`, async () => {
  const site = await accountsSite({ env: { API_URL: 'http://127.0.0.1:9/v1' } });
  expect(site.accounts).toBeNull();
  for (const path of ['/invitation', '/en/resetPassword', '/confirmEmail'])
    expect((await request(site.app).get(path)).status, path).toBe(404);
  const forgot = await request(site.app).get('/en/forgotPassword');
  expect(forgot.status).toBe(200);
  expect(forgot.text).toContain('passwords cannot be reset here');
  expect((await postForm(request(site.app), '/forgotPassword', { identifier: 'ana' })).status).toBe(405);
});

test.runIf(TEST_ENGINE === 'sqlite')(
  'ops still set passwords by hand: `npm run user -- add --password` makes an active user; `set-password` ends a pending invitation',
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-'));
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);
    await run(
      ['add', '--userName', 'opsy', '--password', 'ops horse battery', '--role', 'CLI', '--name', 'Op', '--lastName', 'S'],
      dataDir,
      out,
    );
    const db = await openDatabase({ file: databaseFile(dataDir) });
    try {
      expect((await findUser(db, 'opsy'))?.invited).toBe(false);
      await db.k.updateTable('users').set({ invited_at: new Date().toISOString() }).where('user_name', '=', 'opsy').execute();
    } finally {
      await db.close();
    }
    await run(['list'], dataDir, out);
    expect(lines.at(-1)).toMatch(/^opsy\tCLI\tOp S\t-\tinvited$/);
    await run(['set-password', '--userName', 'opsy', '--password', 'another ops password'], dataDir, out);
    await run(['list'], dataDir, out);
    expect(lines.at(-1)).toMatch(/\tactive$/);
  },
);

// Client teams (docs/decisions/041): a company is several people. Its manager invites colleagues (the
// invitation e-mail, through a real SMTP server), who then see and work on every project of the
// company; a member cannot decide (accept, decline, close, withdraw) nor change who is in it;
// a removal ends access at once, on a second instance too; the manager role can be handed over;
// an admin moves users between companies. Both engines (the `postgres` project).
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { membershipOf, moveUser } from '../../server/companies/companies.ts';
import { eraseAccount } from '../../server/my-account/erase.ts';
import { setRole } from '../../server/users/users.ts';
import { ORIGIN, TEST_ENGINE, createTestApp, reopenableTestDatabase } from '../helpers/app.ts';
import type { Db } from '../../server/db/index.ts';
import { addUser, loginToken } from '../helpers/users.ts';
import { accountsSite, linkIn, openLink, postForm, type Site } from '../account-links/setup.ts';
import { api, BRIEF, PEOPLE, UNLIMITED } from './fixtures.ts';

const NEW_PASSWORD = 'colleague password 1';
/** Whom the manager invites: by address, the site makes the user name (docs/decisions/049). */
const COLLEAGUE = { name: 'Carlos', lastName: 'Colega', email: 'carlos@acme.example' };
const PROPOSAL = { scope: 'Dashboards for 12 shops', fee: 18000, timeline: 'Eight weeks from the start' };

/** The site with its people (admin, the client "acme", another client, an expert) signed in. */
async function teamSite(db?: Db, env: Record<string, string> = {}) {
  const site = await accountsSite({
    env: { ...UNLIMITED, ...env },
    users: [PEOPLE.admin, PEOPLE.owner, PEOPLE.otherClient, PEOPLE.expert],
    ...(db ? { deps: { db } } : {}),
  });
  const tokens = {
    admin: await loginToken(site.app, PEOPLE.admin.userName),
    manager: await loginToken(site.app, PEOPLE.owner.userName),
    outsider: await loginToken(site.app, PEOPLE.otherClient.userName),
  };
  return { site, tokens };
}

/** The user name the site made for the account of an address (null: none). */
async function userNameOf(site: Site, email: string): Promise<string | null> {
  const row = await site.db.k.selectFrom('users').select('user_name').where('email', '=', email).executeTakeFirst();
  return row?.user_name ?? null;
}

/** Carlos's user name, once he has been invited. */
async function carlos(site: Site): Promise<string> {
  const userName = await userNameOf(site, COLLEAGUE.email);
  expect(userName).toMatch(/^carlos\.[a-z2-9]{6}$/);
  return userName!;
}

/** The manager invites Carlos, who opens the e-mail's link and chooses a password: his token (he signs in with his address). */
async function inviteColleague(site: Site, managerToken: string): Promise<string> {
  const invited = await api(site.app, managerToken).post('/company/members', { ...COLLEAGUE, locale: 'en' });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const mails = await site.delivered(1);
  const mail = mails.find((m) => m.envelope.to.includes(COLLEAGUE.email))!;
  const { agent, page } = await openLink(site.app, linkIn(mail));
  const accepted = await postForm(agent, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
  expect(accepted.status).toBe(303);
  return loginToken(site.app, COLLEAGUE.email, NEW_PASSWORD);
}

async function briefBy(site: Site, token: string): Promise<number> {
  const created = await api(site.app, token).post('/projects', BRIEF);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as number;
}

describe(`companies (${TEST_ENGINE})`, () => {
  test('a manager invites a colleague: the e-mail greets nobody by a typed name; the colleague signs in, sees the company’s projects and posts in them', async () => {
    const { site, tokens } = await teamSite();
    const id = await briefBy(site, tokens.manager);
    const colleague = await inviteColleague(site, tokens.manager);
    const mail = site.smtp.messages.find((m) => m.envelope.to.includes(COLLEAGUE.email))!;
    expect(mail.text).not.toContain('Carlos');
    expect(mail.text).not.toContain('Colega');

    const listed = await api(site.app, colleague).get('/projects');
    expect(listed.body.items.map((p: { id: number }) => p.id)).toEqual([id]);
    const project = await api(site.app, colleague).get(`/projects/${id}`);
    expect(project.status).toBe(200);
    expect(project.body.standing).toBe('member');
    expect((await api(site.app, colleague).post(`/projects/${id}/messages`, { body: 'Hello from Carlos' })).status).toBe(201);
    // A brief of the colleague's is the company's: the manager sees it.
    const theirs = await briefBy(site, colleague);
    expect((await api(site.app, tokens.manager).get(`/projects/${theirs}`)).status).toBe(200);
    expect((await api(site.app, tokens.outsider).get(`/projects/${theirs}`)).status).toBe(404);

    const company = await api(site.app, colleague).get('/company');
    expect(company.body).toMatchObject({ role: 'member', total: 2 });
    expect(company.body.members.map((m: { userName: string; role: string }) => [m.userName, m.role])).toEqual([
      ['acme', 'manager'],
      [await carlos(site), 'member'],
    ]);
    // Members see who is in it, not their addresses.
    expect(company.body.members[0].email).toBeUndefined();
    expect(site.audit.entries).toContainEqual(
      expect.objectContaining({
        action: 'colleague_invited',
        actor: 'acme',
        target: await carlos(site),
        detail: expect.objectContaining({ outcome: 'created' }),
      }),
    );
  });

  test('a colleague invited and not yet accepted hears nothing of the company’s projects, neither notification nor e-mail; once they accept, they do', async () => {
    const { site, tokens } = await teamSite();
    const id = await briefBy(site, tokens.manager);
    expect((await api(site.app, tokens.manager).post('/company/members', { ...COLLEAGUE, locale: 'en' })).status).toBe(201);
    const userName = await carlos(site);
    const told = async () => ({
      notifications: (await site.db.k.selectFrom('notifications').select('kind').where('user_name', '=', userName).execute()).map(
        (n) => n.kind,
      ),
      mails: (await site.db.k.selectFrom('mail_outbox').select('kind').where('recipient', '=', COLLEAGUE.email).execute()).map(
        (m) => m.kind,
      ),
    });
    expect((await api(site.app, tokens.admin).post(`/projects/${id}/messages`, { body: 'Before Carlos accepts' })).status).toBe(201);
    expect(await told()).toEqual({ notifications: [], mails: ['invitation'] });

    const mail = (await site.delivered(1)).find((m) => m.envelope.to.includes(COLLEAGUE.email))!;
    const { agent, page } = await openLink(site.app, linkIn(mail));
    expect((await postForm(agent, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(303);
    expect((await api(site.app, tokens.admin).post(`/projects/${id}/messages`, { body: 'After Carlos accepts' })).status).toBe(201);
    expect(await told()).toEqual({ notifications: ['message_posted'], mails: ['invitation', 'message_posted'] });
  });

  test('the invitation e-mail says who invited: the company’s manager by their user name (in either language), an administrator’s says an administrator', async () => {
    const { site, tokens } = await teamSite();
    for (const [colleague, locale] of [
      [COLLEAGUE, 'en'],
      [{ ...COLLEAGUE, name: 'Dora', email: 'dora@acme.example' }, 'es'],
    ] as const) {
      expect((await api(site.app, tokens.manager).post('/company/members', { ...colleague, locale })).status).toBe(201);
    }
    const [english, spanish] = await site.delivered(2);
    const byAddress = Object.fromEntries([english!, spanish!].map((m) => [m.envelope.to[0], m]));
    expect(byAddress[COLLEAGUE.email]!.text).toContain('“acme”, the manager of a team at Acme, has created an account for you');
    expect(byAddress[COLLEAGUE.email]!.text).toContain('because “acme”, the manager of a team at Acme, created an account');
    expect(byAddress['dora@acme.example']!.text).toContain('«acme», responsable de un equipo en Acme, ha creado una cuenta para ti');
    for (const mail of [english!, spanish!]) expect(mail.text).not.toMatch(/administra(tor|dor)/i);

    const byAdmin = await api(site.app, tokens.admin).post('/admin/users', {
      userName: 'nuria',
      role: 'CLI',
      name: 'Nuria',
      lastName: 'Nueva',
      email: 'nuria@example.com',
      invite: true,
      locale: 'en',
    });
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(201);
    const adminMail = (await site.delivered(3)).find((m) => m.envelope.to.includes('nuria@example.com'));
    expect(adminMail!.text).toContain('An administrator of Acme has created an account for you');
    expect(adminMail!.text).not.toContain('manager of a team');
  });

  test('a member cannot accept, decline, withdraw or close, nor invite, remove or rename; the manager can', async () => {
    const { site, tokens } = await teamSite();
    const colleague = await inviteColleague(site, tokens.manager);
    const brief = await briefBy(site, colleague);
    expect((await api(site.app, colleague).patch(`/projects/${brief}`, { action: 'withdraw' })).status).toBe(403);
    const id = await briefBy(site, tokens.manager);
    expect((await api(site.app, tokens.admin).patch(`/projects/${id}`, { action: 'send_proposal', proposal: PROPOSAL })).status).toBe(200);
    const page = await api(site.app, colleague).get(`/projects/${id}`);
    expect(page.body.actions).toEqual([]);
    for (const action of ['accept', 'decline']) {
      const refused = await api(site.app, colleague).patch(`/projects/${id}`, { action });
      expect(refused.status, action).toBe(403);
    }
    expect((await api(site.app, tokens.manager).patch(`/projects/${id}`, { action: 'accept', version: 1 })).status).toBe(200);
    expect((await api(site.app, tokens.admin).patch(`/projects/${id}`, { action: 'deliver' })).status).toBe(200);
    expect((await api(site.app, colleague).patch(`/projects/${id}`, { action: 'close' })).status).toBe(403);
    expect((await api(site.app, tokens.manager).patch(`/projects/${id}`, { action: 'close' })).status).toBe(200);

    const invite = await api(site.app, colleague).post('/company/members', { ...COLLEAGUE, email: 'dora@acme.example' });
    expect(invite.status).toBe(403);
    expect((await api(site.app, colleague).delete('/company/members/acme')).status).toBe(403);
    expect((await api(site.app, colleague).patch('/company', { name: 'Mine now' })).status).toBe(403);
    const renamed = await api(site.app, tokens.manager).patch('/company', { name: 'Acme Shops S.L.' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.companyName).toBe('Acme Shops S.L.');
  });

  test('a removed colleague gets 404 at once, on this instance and on a second one, and keeps an account of their own', async () => {
    // Two instances, each with its own connections to one database.
    const open = await reopenableTestDatabase();
    const { site, tokens } = await teamSite(await open());
    const id = await briefBy(site, tokens.manager);
    const colleague = await inviteColleague(site, tokens.manager);
    const second = await createTestApp(UNLIMITED, { db: await open() });
    // The second instance has served the colleague the project (and the list) just before.
    expect((await api(second.app, colleague).get(`/projects/${id}`)).status).toBe(200);
    expect((await api(second.app, colleague).get('/projects')).body.total).toBe(1);

    const removed = await api(site.app, tokens.manager).delete(`/company/members/${await carlos(site)}`);
    expect(removed.status).toBe(204);
    for (const app of [site.app, second.app]) {
      expect((await api(app, colleague).get(`/projects/${id}`)).status).toBe(404);
      expect((await api(app, colleague).get(`/projects/${id}/messages`)).status).toBe(404);
      expect((await api(app, colleague).post(`/projects/${id}/messages`, { body: 'still here?' })).status).toBe(404);
    }
    const own = await api(site.app, colleague).get('/company');
    expect(own.body).toMatchObject({ role: 'manager', total: 1, companyName: 'Carlos Colega' });
    expect(site.audit.entries).toContainEqual(
      expect.objectContaining({ action: 'colleague_removed', actor: 'acme', target: await carlos(site) }),
    );
    await second.close();
  });

  test('an invitee removed before accepting cannot use the link: a clear error page, and no account is made', async () => {
    const { site, tokens } = await teamSite();
    expect((await api(site.app, tokens.manager).post('/company/members', { ...COLLEAGUE, locale: 'en' })).status).toBe(201);
    const mail = (await site.delivered(1)).find((m) => m.envelope.to.includes(COLLEAGUE.email))!;
    const userName = await carlos(site);
    expect((await api(site.app, tokens.manager).delete(`/company/members/${userName}`)).status).toBe(204);

    const { agent, page } = await openLink(site.app, linkIn(mail));
    const shown = await agent.get(page);
    expect(shown.status).toBe(404);
    expect(shown.text).toContain('This link is not valid');
    expect(shown.text).toContain('the invitation was withdrawn and no account was made');
    const posted = await postForm(agent, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(posted.status).toBe(404);
    expect(posted.headers['set-cookie'] ?? []).not.toContainEqual(expect.stringMatching(/^auth\._token\.local=[^;]/));
    expect(await site.db.k.selectFrom('users').select('user_name').where('user_name', '=', userName).execute()).toEqual([]);
    expect(await site.db.k.selectFrom('account_links').select('id').where('user_name', '=', userName).execute()).toEqual([]);
    const signIn = await request(site.app).post('/api/login').set('Origin', ORIGIN).send({ identifier: userName, password: NEW_PASSWORD });
    expect(signIn.status).toBe(401);
    expect((await api(site.app, tokens.manager).get('/company')).body.total).toBe(1);
    expect(site.audit.entries).toContainEqual(
      expect.objectContaining({
        action: 'colleague_removed',
        target: userName,
        detail: expect.objectContaining({ invitation: 'withdrawn' }),
      }),
    );
  });

  test('a manager cannot remove themselves, nor anyone of another company (404)', async () => {
    const { site, tokens } = await teamSite();
    const self = await api(site.app, tokens.manager).delete('/company/members/acme');
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe('self_removal');
    const other = await api(site.app, tokens.manager).delete(`/company/members/${PEOPLE.otherClient.userName}`);
    expect(other.status).toBe(404);
    expect((await membershipOf(site.db.k, PEOPLE.otherClient.userName))?.role).toBe('manager');
  });

  test('handing the manager role over: the colleague decides from then on, the former manager is a member', async () => {
    const { site, tokens } = await teamSite();
    const colleague = await inviteColleague(site, tokens.manager);
    const id = await briefBy(site, tokens.manager);
    expect((await api(site.app, tokens.admin).patch(`/projects/${id}`, { action: 'send_proposal', proposal: PROPOSAL })).status).toBe(200);
    expect((await api(site.app, tokens.manager).post(`/company/members/${await carlos(site)}/manager`)).status).toBe(204);
    expect((await api(site.app, tokens.manager).patch(`/projects/${id}`, { action: 'accept', version: 1 })).status).toBe(403);
    expect((await api(site.app, colleague).patch(`/projects/${id}`, { action: 'accept', version: 1 })).status).toBe(200);
    expect((await api(site.app, tokens.manager).get('/company')).body.role).toBe('member');
  });

  test('invitations are counted per company: past COMPANY_INVITATIONS_PER_HOUR a new manager, handed the role, gets 429 too', async () => {
    const { site, tokens } = await teamSite(undefined, { COMPANY_INVITATIONS_PER_HOUR: '2' });
    const colleague = await inviteColleague(site, tokens.manager);
    const dora = { ...COLLEAGUE, name: 'Dora', email: 'dora@acme.example' };
    expect((await api(site.app, tokens.manager).post('/company/members', dora)).status).toBe(201);
    expect((await api(site.app, tokens.manager).post(`/company/members/${await carlos(site)}/manager`, {})).status).toBe(204);
    const refused = await api(site.app, colleague).post('/company/members', { ...COLLEAGUE, name: 'Eve', email: 'eve@acme.example' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('too_many_invitations');
    expect(await site.db.k.selectFrom('users').select('user_name').where('email', '=', 'eve@acme.example').execute()).toEqual([]);
  });

  test('an invitation still pending cannot be handed the manager role (409)', async () => {
    const { site, tokens } = await teamSite();
    expect((await api(site.app, tokens.manager).post('/company/members', { ...COLLEAGUE, locale: 'en' })).status).toBe(201);
    const refused = await api(site.app, tokens.manager).post(`/company/members/${await carlos(site)}/manager`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('invitation_pending');
  });

  test('when the last manager’s account is deleted, the colleague becomes manager, the company keeps its projects and stops bearing her name', async () => {
    const { site, tokens } = await teamSite();
    const id = await briefBy(site, tokens.manager);
    const colleague = await inviteColleague(site, tokens.manager);
    await site.db.k.transaction().execute((trx) => eraseAccount(trx, { userName: PEOPLE.owner.userName }));
    // The company was named after her: it no longer is (it reads "Deleted user" until renamed).
    expect((await api(site.app, colleague).get('/company')).body).toMatchObject({ role: 'manager', total: 1, companyName: '~deleted' });
    const project = await api(site.app, colleague).get(`/projects/${id}`);
    expect(project.status).toBe(200);
    expect(project.body.standing).toBe('manager');
  });

  test('a role change out of CLI/ORG leaves the company; back into one gives a company of their own', async () => {
    const { site, tokens } = await teamSite();
    await inviteColleague(site, tokens.manager);
    const userName = await carlos(site);
    await setRole(site.db, userName, 'CONS');
    expect(await membershipOf(site.db.k, userName)).toBeNull();
    await setRole(site.db, userName, 'ORG');
    expect(await membershipOf(site.db.k, userName)).toMatchObject({ role: 'manager', kind: 'ORG', companyName: 'Carlos Colega' });
  });

  test('the branding an admin gives a client is their company’s: every person of it sees it in the first paint; another company does not', async () => {
    const { site, tokens } = await teamSite();
    const colleague = await inviteColleague(site, tokens.manager);
    const set = await api(site.app, tokens.admin).put(`/admin/branding/${await carlos(site)}`, { color: '#123456' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const page = async (userName: string, password?: string) => {
      const agent = request.agent(site.app);
      const signedIn = await postForm(agent, '/en/login', { identifier: userName, password: password ?? 'correct horse battery' });
      expect(signedIn.status).toBe(303);
      return (await agent.get('/en/client')).text;
    };
    expect(await page(PEOPLE.owner.userName)).toContain('--navbar-bg:#123456');
    expect(await page(COLLEAGUE.email, NEW_PASSWORD)).toContain('--navbar-bg:#123456');
    expect(await page(PEOPLE.otherClient.userName)).not.toContain('--navbar-bg:#123456');
    // Read through the manager too: one record.
    expect((await api(site.app, tokens.admin).get(`/admin/branding/${PEOPLE.owner.userName}`)).body.branding).toEqual({
      color: '#123456',
      logo: null,
    });
    expect(colleague).toBeTruthy();
  });

  test('a replayed removal is a 404; inviting the same address again adds nobody: its owner is told, nothing is stored twice', async () => {
    const { site, tokens } = await teamSite();
    await inviteColleague(site, tokens.manager);
    const userName = await carlos(site);
    const again = await api(site.app, tokens.manager).post('/company/members', { ...COLLEAGUE, locale: 'en' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ invitation: { sentTo: COLLEAGUE.email, expiresAt: expect.any(String) } });
    const mails = await site.delivered(2);
    expect(mails.filter((m) => m.envelope.to.includes(COLLEAGUE.email)).map((m) => m.subject)).toEqual([
      'You are invited to Acme',
      'Someone invited your e-mail address to a team at Acme',
    ]);
    expect(await site.db.k.selectFrom('users').select('user_name').where('email', '=', COLLEAGUE.email).execute()).toHaveLength(1);
    expect((await api(site.app, tokens.manager).delete(`/company/members/${userName}`)).status).toBe(204);
    const replayed = await api(site.app, tokens.manager).delete(`/company/members/${userName}`);
    expect(replayed.status).toBe(404);
    expect(replayed.body.error.code).toBe('member_not_found');
    expect(site.audit.entries.filter((e) => e.action === 'colleague_removed')).toHaveLength(1);
  });

  test('huge or nonsense input is refused with 400 or 404, naming the problem, and changes nothing', async () => {
    const { site, tokens } = await teamSite();
    const long = await api(site.app, tokens.manager).patch('/company', { name: 'x'.repeat(10_000) });
    expect(long.status).toBe(400);
    expect(long.body.error.fields).toHaveProperty('name');
    expect((await membershipOf(site.db.k, PEOPLE.owner.userName))?.companyName).toBe('Carla Acme');
    expect((await api(site.app, tokens.manager).get('/company?page=999999999')).status).toBe(400);
    expect((await api(site.app, tokens.manager).get('/company?pageSize=100000')).status).toBe(400);
    expect((await api(site.app, tokens.admin).get('/admin/companies/99999999999/members')).status).toBe(404);
    expect((await api(site.app, tokens.admin).get(`/admin/companies?q=${'a'.repeat(1000)}`)).status).toBe(400);
    const bad = await api(site.app, tokens.manager).post('/company/members', { ...COLLEAGUE, email: 'not an address' });
    expect(bad.status).toBe(400);
    expect(await userNameOf(site, 'not an address')).toBeNull();
    expect(await site.db.k.selectFrom('users').select('user_name').where('name', '=', COLLEAGUE.name).execute()).toEqual([]);
  });

  test('a company’s people are a page at a time, managers first: 26 people are 20 and 6', async () => {
    const { site, tokens } = await teamSite();
    const company = (await membershipOf(site.db.k, PEOPLE.owner.userName))!;
    for (let i = 0; i < 25; i++) {
      const userName = `member${String(i).padStart(2, '0')}`;
      await addUser(site.db, { userName, role: 'CLI', name: 'M', lastName: `Member ${String(i).padStart(2, '0')}` });
      await moveUser(site.db, userName, { companyId: company.companyId }, 'member');
    }
    const first = await api(site.app, tokens.manager).get('/company');
    expect(first.body).toMatchObject({ total: 26, page: 1, pageSize: 20 });
    expect(first.body.members).toHaveLength(20);
    expect(first.body.members[0]).toMatchObject({ userName: 'acme', role: 'manager' });
    const second = await api(site.app, tokens.manager).get('/company?page=2');
    expect(second.body.members).toHaveLength(6);
    expect(second.body.members.at(-1).userName).toBe('member24');
  });

  test('experts and admins belong to no company: /api/company is a 404 for them', async () => {
    const { site, tokens } = await teamSite();
    expect((await api(site.app, tokens.admin).get('/company')).status).toBe(404);
    const expert = await loginToken(site.app, PEOPLE.expert.userName);
    expect((await api(site.app, expert).get('/company')).status).toBe(404);
  });

  test('an admin moves a user into another company: they see its projects and no longer their own; a company of another kind is refused', async () => {
    const { site, tokens } = await teamSite();
    const globexProject = await briefBy(site, tokens.outsider);
    const acmeProject = await briefBy(site, tokens.manager);
    const target = (await membershipOf(site.db.k, PEOPLE.owner.userName))!;
    const moved = await api(site.app, tokens.admin).put(`/admin/users/${PEOPLE.otherClient.userName}/company`, {
      companyId: target.companyId,
      role: 'member',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await api(site.app, tokens.outsider).get(`/projects/${acmeProject}`)).status).toBe(200);
    // Their own brief stays with the company it was submitted for.
    expect((await api(site.app, tokens.outsider).get(`/projects/${globexProject}`)).status).toBe(404);
    const listed = await api(site.app, tokens.admin).get('/admin/companies?q=acme');
    expect(listed.body.items).toEqual([expect.objectContaining({ id: target.companyId, members: 2, managers: ['acme'] })]);

    const expert = await api(site.app, tokens.admin).put(`/admin/users/${PEOPLE.expert.userName}/company`, {
      companyId: target.companyId,
      role: 'member',
    });
    expect(expert.status).toBe(409);
    expect(expert.body.error.code).toBe('not_a_company_role');
    const badBody = await api(site.app, tokens.admin).put(`/admin/users/acme/company`, { role: 'member' });
    expect(badBody.status).toBe(400);
    expect((await api(site.app, tokens.manager).put(`/admin/users/globex/company`, { newCompany: 'X', role: 'member' })).status).toBe(403);
  });

  test('the profile shows the team; its forms work without JavaScript (invite, the colleague listed once they chose a password, then remove)', async () => {
    const { site } = await teamSite();
    const agent = request.agent(site.app);
    const signedIn = await postForm(agent, '/en/login', { identifier: 'acme', password: 'correct horse battery' });
    expect(signedIn.status).toBe(303);
    const profile = await agent.get('/en/profile');
    expect(profile.text).toContain('Your company: Carla Acme');
    expect(profile.text).toContain('Invite a colleague');
    expect(profile.text).not.toContain('name="userName"');

    const invalid = await postForm(agent, '/en/profile', { intent: 'inviteColleague', name: 'Carlos', lastName: '', email: 'nope' });
    expect(invalid.status).toBe(422);
    expect(invalid.text).toContain('id="company-email-error"');
    expect(invalid.text).toContain('value="Carlos"');

    const invited = await postForm(agent, '/en/profile', { intent: 'inviteColleague', ...COLLEAGUE });
    expect(invited.status).toBe(303);
    expect(invited.headers.location).toBe('/en/profile?saved=colleagueInvited#company-title');
    const after = await agent.get('/en/profile?saved=colleagueInvited');
    expect(after.text).toContain('Invitation sent. Your colleague appears below once they have chosen their password.');
    // Not listed until then: an address that has an account, which adds nobody, looks the same (docs/decisions/049).
    expect(after.text).not.toContain(COLLEAGUE.email);

    const [mail] = await site.delivered(1);
    const { agent: colleague, page } = await openLink(site.app, linkIn(mail!));
    expect((await postForm(colleague, page, { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(303);
    const listed = await agent.get('/en/profile');
    expect(listed.text).toContain(COLLEAGUE.email);

    const userName = await carlos(site);
    const removed = await postForm(agent, '/en/profile', { intent: 'removeColleague', colleague: userName });
    expect(removed.status).toBe(303);
    expect((await membershipOf(site.db.k, userName))?.role).toBe('manager');
    const foreign = await postForm(agent, '/en/profile', { intent: 'removeColleague', colleague: 'globex' });
    expect(foreign.status).toBe(404);
  });
});

// A manager's invitation never tells whether an address has an account (docs/decisions/049):
// for an address that has one — anyone's, in any company, written in any case — the answer,
// the profile form's redirect and the team the manager sees are those of a free address; no
// account is made, the owner gets a notice (no link) instead of an invitation. No user name is
// asked. Without a mail server both are the same 503. Both engines (the `postgres` project).
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { TEST_ENGINE } from '../helpers/app.ts';
import { loginToken } from '../helpers/users.ts';
import { accountsSite, linkIn, openLink, postForm, type Site } from '../account-links/setup.ts';
import { api, PEOPLE, UNLIMITED } from './fixtures.ts';

const FREE = 'nadie@acme.example';
const TOKEN_LINK = /\?token=[A-Za-z0-9_-]{43}/;

async function managerSite(options: { noSmtp?: boolean } = {}) {
  const site = await accountsSite({
    // Without SMTP_URL, production sends no e-mail (elsewhere the log stands in for a mail server).
    env: { ...UNLIMITED, ...(options.noSmtp ? { NODE_ENV: 'production' } : {}) },
    users: [PEOPLE.admin, PEOPLE.owner, PEOPLE.otherClient, PEOPLE.expert],
    ...options,
  });
  return { site, manager: await loginToken(site.app, PEOPLE.owner.userName) };
}

const accountsWith = async (site: Site, email: string) =>
  site.db.k.selectFrom('users').select(['user_name', 'invited_at']).where('email', '=', email.toLowerCase()).execute();

const team = async (site: Site, manager: string) => (await api(site.app, manager).get('/company')).body as object;

describe(`a manager's invitation (${TEST_ENGINE})`, () => {
  test.each([
    ['another company’s client', PEOPLE.otherClient],
    ['an administrator', PEOPLE.admin],
    ['an expert', PEOPLE.expert],
  ])(
    'to the address of %s answers as to a free address: the same 201, the same team, no account made; the owner is told, with no link',
    async (_who, owner) => {
      const { site, manager } = await managerSite();
      const before = await team(site, manager);
      const free = await api(site.app, manager).post('/company/members', { name: 'Nadie', lastName: 'Nuevo', email: FREE, locale: 'en' });
      const taken = await api(site.app, manager).post('/company/members', {
        name: 'Alguien',
        lastName: 'Ya',
        email: owner.email.toUpperCase(),
        locale: 'en',
      });
      for (const [res, email] of [
        [free, FREE],
        [taken, owner.email],
      ] as const) {
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body).toEqual({ invitation: { sentTo: email, expiresAt: expect.any(String) } });
      }
      expect(Date.parse(taken.body.invitation.expiresAt) - Date.parse(free.body.invitation.expiresAt)).toBeLessThan(60_000);
      // The team the manager sees: nobody new either way (an invitee is listed once they chose a password).
      expect(await team(site, manager)).toEqual(before);
      expect(await accountsWith(site, owner.email)).toEqual([{ user_name: owner.userName, invited_at: null }]);
      expect(await accountsWith(site, FREE)).toHaveLength(1);

      const mails = await site.delivered(2);
      const toOwner = mails.filter((m) => m.envelope.to.includes(owner.email));
      // In the owner's language (Spanish: they never chose one), whatever the manager asked for.
      expect(toOwner.map((m) => m.subject)).toEqual(['Alguien ha invitado tu dirección de correo a un equipo en Acme']);
      expect(toOwner[0]!.text).not.toMatch(TOKEN_LINK);
      // Nothing the manager typed reaches the owner.
      expect(toOwner[0]!.text).not.toMatch(/Alguien|Carla|Acme Corp/);
      expect(mails.find((m) => m.envelope.to.includes(FREE))!.text).toMatch(TOKEN_LINK);
      // The owner's account is where it was.
      expect((await api(site.app, await loginToken(site.app, owner.userName)).get('/me')).status).toBe(200);
      expect(site.audit.entries.filter((e) => e.action === 'colleague_invited').map((e) => e.detail?.outcome)).toEqual([
        'created',
        'existing',
      ]);
    },
  );

  test('the profile’s form redirects the same for a taken and a free address, and lists nobody new', async () => {
    const { site } = await managerSite();
    const agent = request.agent(site.app);
    expect((await postForm(agent, '/en/login', { identifier: 'acme', password: 'correct horse battery' })).status).toBe(303);
    const before = (await agent.get('/en/profile')).text;
    const answers = [];
    for (const email of [FREE, PEOPLE.otherClient.email]) {
      const res = await postForm(agent, '/en/profile', { intent: 'inviteColleague', name: 'Ana', lastName: 'Nueva', email });
      answers.push([res.status, res.headers.location]);
    }
    expect(answers).toEqual([
      [303, '/en/profile?saved=colleagueInvited#company-title'],
      [303, '/en/profile?saved=colleagueInvited#company-title'],
    ]);
    const after = (await agent.get('/en/profile')).text;
    for (const email of [FREE, PEOPLE.otherClient.email]) expect(after).not.toContain(email);
    expect(after.match(/class="member-item"/g)).toEqual(before.match(/class="member-item"/g));
  });

  test('a pending invitee of the company invited again gets a new link (the older one stops working), not a second account', async () => {
    const { site, manager } = await managerSite();
    const colleague = { name: 'Nadie', lastName: 'Nuevo', email: FREE, locale: 'en' };
    expect((await api(site.app, manager).post('/company/members', colleague)).status).toBe(201);
    expect((await api(site.app, manager).post('/company/members', colleague)).status).toBe(201);
    const mails = await site.delivered(2);
    expect(mails.map((m) => m.subject)).toEqual(['You are invited to Acme', 'You are invited to Acme']);
    expect(await accountsWith(site, FREE)).toHaveLength(1);
    const first = await request.agent(site.app).get(linkIn(mails[0]!));
    expect(first.status).toBe(303);
    const { agent, page } = await openLink(site.app, linkIn(mails[1]!));
    expect((await postForm(agent, page, { newPassword: 'colleague password 1', confirmPassword: 'colleague password 1' })).status).toBe(
      303,
    );
    expect(await loginToken(site.app, FREE, 'colleague password 1')).toBeTruthy();
  });

  test('no user name is asked: one sent is refused as a key the body does not have, and the site makes one from the address', async () => {
    const { site, manager } = await managerSite();
    const refused = await api(site.app, manager).post('/company/members', { name: 'N', lastName: 'N', email: FREE, userName: 'globex' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toHaveProperty('userName');
    expect(await accountsWith(site, FREE)).toEqual([]);
    expect(
      (await api(site.app, manager).post('/company/members', { name: 'N', lastName: 'N', email: 'Nadie.Nuevo+x@acme.example' })).status,
    ).toBe(201);
    const [made] = await accountsWith(site, 'nadie.nuevo+x@acme.example');
    expect(made!.user_name).toMatch(/^nadie\.nuevox\.[a-z2-9]{6}$/);
  });

  test('without a mail server a taken and a free address are the same 503 mail_unavailable, and nothing is made or counted', async () => {
    const { site, manager } = await managerSite({ noSmtp: true });
    for (const email of [FREE, PEOPLE.otherClient.email]) {
      const res = await api(site.app, manager).post('/company/members', { name: 'N', lastName: 'N', email });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('mail_unavailable');
    }
    expect(await accountsWith(site, FREE)).toEqual([]);
    expect(site.audit.entries.filter((e) => e.action === 'colleague_invited')).toEqual([]);
  });

  test('an admin’s own creation still says an address is taken: admins may know (409 email_taken)', async () => {
    const { site } = await managerSite();
    const admin = await loginToken(site.app, PEOPLE.admin.userName);
    const res = await api(site.app, admin).post('/admin/users', {
      userName: 'someone',
      name: 'S',
      lastName: 'O',
      role: 'CLI',
      email: PEOPLE.otherClient.email,
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('email_taken');
  });
});

// Attacks on the sources of events and e-mails (docs/decisions/029): each
// source has a per-user limit answered 429 with Retry-After on every path that reaches it (the
// API and the page forms), repeated toggles of one milestone collapse, security e-mails go out
// before any number of notices, and the e-mail change tells nothing and carries nothing chosen
// by the sender to an address nobody has confirmed.
import type { Express } from 'express';
import request from 'supertest';
import { afterEach, expect, test, vi } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { mailOutbox } from '../../server/mail/outbox.ts';
import type { OutgoingMail } from '../../server/mail/transport.ts';
import { createTestApp, ORIGIN, TEST_ENGINE } from '../helpers/app.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';
import { accountsSite, adminToken, mailsTo, signIn, type Site } from '../account-links/setup.ts';
import { activeProject, api, PEOPLE, signInEveryone, UNLIMITED, type Person } from '../projects/fixtures.ts';

const MINUTE = 60_000;

afterEach(() => {
  vi.useRealTimers();
});

/** An outbox sender that only records what it was given. */
function recordingTransport(onSend?: (mail: OutgoingMail, count: number) => Promise<void>) {
  const sent: OutgoingMail[] = [];
  return {
    sent,
    transport: {
      async send(mail: OutgoingMail) {
        sent.push(mail);
        await onSend?.(mail, sent.length);
      },
    },
  };
}

function retryAfter(res: request.Response): number {
  expect(res.headers['retry-after'], 'Retry-After').toMatch(/^\d+$/);
  return Number(res.headers['retry-after']);
}

/** A project as its people see it, with each one's token and page cookie. */
async function engagement(env: Record<string, string> = {}) {
  const mail = recordingTransport();
  const site = await createTestApp({ ...UNLIMITED, ...env }, { mail: { transport: mail.transport } });
  const tokens = await signInEveryone(site.app, site.db);
  const id = await activeProject(site.app, tokens);
  await site.mail.flush();
  const cookie = async (person: Person) => signIn(site.app, PEOPLE[person].userName);
  return { ...site, tokens, id, sent: mail.sent, cookie };
}

/** A form of a project's page, as a browser without JavaScript posts it. */
function projectForm(app: Express, path: string, cookie: string, fields: Record<string, string>) {
  return request(app).post(path).set('Origin', ORIGIN).set('Cookie', cookie).type('form').send(fields);
}

async function milestoneLines(db: Db, projectId: number) {
  const rows = await db.k
    .selectFrom('project_events')
    .select(['kind', 'actor'])
    .where('project_id', '=', projectId)
    .where('kind', 'in', ['milestone_done', 'milestone_reopened'])
    .orderBy('id')
    .execute();
  return rows.map((row) => `${row.kind} by ${row.actor}`);
}

async function milestoneMails(db: Db) {
  return db.k.selectFrom('mail_outbox').select(['recipient', 'status', 'next_attempt_at']).where('kind', '=', 'milestone_done').execute();
}

/* A flood of milestone toggles ------------------------------------------------------------ */

test(`an expert toggling a milestone gets 429 with Retry-After past PROJECT_MILESTONE_CHANGES_PER_MINUTE, on the API and the page form alike (${TEST_ENGINE})`, async () => {
  const s = await engagement({ PROJECT_MILESTONE_CHANGES_PER_MINUTE: '6' });
  const expert = api(s.app, s.tokens.expert);
  const milestone = (await expert.post(`/projects/${s.id}/milestones`, { title: 'Kick-off' })).body.milestones[0].id as number;
  const page = `/en/expert/projects/${s.id}`;
  const cookie = await s.cookie('expert');
  // Five toggles after the milestone was added: six changes, API and page together.
  for (let i = 0; i < 5; i++) {
    const done = i % 2 === 0;
    const res =
      i % 2 === 0
        ? await expert.patch(`/projects/${s.id}/milestones/${milestone}`, { done })
        : await projectForm(s.app, page, cookie, { intent: 'milestoneDone', milestone: `${milestone}:${done ? 'done' : 'reopen'}` });
    expect(res.status, `toggle ${i}`).toBeLessThan(400);
  }
  const refused = await expert.patch(`/projects/${s.id}/milestones/${milestone}`, { done: false });
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe('too_many_milestone_changes');
  expect(retryAfter(refused)).toBeGreaterThan(0);
  expect(retryAfter(refused)).toBeLessThanOrEqual(60);
  const refusedPage = await projectForm(s.app, page, cookie, { intent: 'milestoneDone', milestone: `${milestone}:reopen` });
  expect(refusedPage.status).toBe(429);
  expect(retryAfter(refusedPage)).toBeLessThanOrEqual(60);
  expect(refusedPage.text).toContain('You have changed several milestones in a short time');
  // Adding one is a change too.
  expect((await expert.post(`/projects/${s.id}/milestones`, { title: 'One more' })).status).toBe(429);
  // Nothing was done by the refused ones: the milestone is still done.
  expect((await expert.get(`/projects/${s.id}`)).body.milestones[0].doneAt).not.toBeNull();
});

test(`toggling one milestone back and forth within PROJECT_MILESTONE_COLLAPSE_MINUTES leaves one history line and one e-mail per participant, sent when the window ends (${TEST_ENGINE})`, async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const start = Date.now();
  const s = await engagement();
  const expert = api(s.app, s.tokens.expert);
  const milestone = (await expert.post(`/projects/${s.id}/milestones`, { title: 'Kick-off' })).body.milestones[0].id as number;
  // 41 toggles in 41 seconds, the last one "done".
  for (let i = 0; i < 41; i++) {
    vi.setSystemTime(start + i * 1000);
    expect((await expert.patch(`/projects/${s.id}/milestones/${milestone}`, { done: i % 2 === 0 })).status).toBe(200);
  }
  expect(await milestoneLines(s.db, s.id)).toEqual(['milestone_done by eva']);
  const held = await milestoneMails(s.db);
  expect(held.map((m) => m.recipient).sort()).toEqual([PEOPLE.admin.email, PEOPLE.owner.email].sort());
  expect(held.every((m) => m.status === 'pending' && Number(m.next_attempt_at) === start + 40_000 + 10 * MINUTE)).toBe(true);
  // Held for the window: nothing goes now...
  await s.mail.flush();
  expect(s.sent.filter((m) => m.subject.includes('Kick-off'))).toEqual([]);
  // ...and one e-mail each once it has passed.
  vi.setSystemTime(start + 40_000 + 10 * MINUTE);
  await s.mail.flush();
  expect(
    s.sent
      .filter((m) => m.subject.includes('Kick-off'))
      .map((m) => m.to)
      .sort(),
  ).toEqual([PEOPLE.admin.email, PEOPLE.owner.email].sort());

  // Later, reopened and done again (twice) within a window: back where it was, nothing added, nothing sent.
  for (let i = 0; i < 4; i++) {
    vi.setSystemTime(start + 20 * MINUTE + i * 1000);
    await expert.patch(`/projects/${s.id}/milestones/${milestone}`, { done: i % 2 === 1 });
  }
  expect(await milestoneLines(s.db, s.id)).toEqual(['milestone_done by eva']);
  expect(await milestoneMails(s.db)).toHaveLength(2);
});

test(`an even number of toggles within the window leaves no line and withdraws the held e-mails (${TEST_ENGINE})`, async () => {
  const s = await engagement();
  const expert = api(s.app, s.tokens.expert);
  const milestone = (await expert.post(`/projects/${s.id}/milestones`, { title: 'Kick-off' })).body.milestones[0].id as number;
  for (let i = 0; i < 20; i++) await expert.patch(`/projects/${s.id}/milestones/${milestone}`, { done: i % 2 === 0 });
  expect(await milestoneLines(s.db, s.id)).toEqual([]);
  expect(await milestoneMails(s.db)).toEqual([]);
});

test(`another person's toggle is a line of its own, and reopening withdraws the held "done" e-mail (${TEST_ENGINE})`, async () => {
  const s = await engagement();
  const milestone = (await api(s.app, s.tokens.expert).post(`/projects/${s.id}/milestones`, { title: 'Kick-off' })).body.milestones[0]
    .id as number;
  await api(s.app, s.tokens.expert).patch(`/projects/${s.id}/milestones/${milestone}`, { done: true });
  expect(await milestoneMails(s.db)).toHaveLength(2);
  await api(s.app, s.tokens.admin).patch(`/projects/${s.id}/milestones/${milestone}`, { done: false });
  expect(await milestoneLines(s.db, s.id)).toEqual(['milestone_done by eva', 'milestone_reopened by staff']);
  expect(await milestoneMails(s.db)).toEqual([]);
});

/* A flood of state moves ------------------------------------------------------------------ */

test(`moves of a project's state are limited per user by PROJECT_STATE_CHANGES_PER_HOUR, with 429 and Retry-After on the API and the page (${TEST_ENGINE})`, async () => {
  const s = await engagement({ PROJECT_STATE_CHANGES_PER_HOUR: '4' });
  // The admin moved once already (activeProject's proposal): three more, then 429.
  const owner = api(s.app, s.tokens.owner);
  const admin = api(s.app, s.tokens.admin);
  const briefs: number[] = [];
  for (let i = 0; i < 4; i++)
    briefs.push((await owner.post('/projects', { title: `Brief ${i}`, description: 'Something to do.', practice: 'data' })).body.id);
  const proposal = { scope: 'All', fee: 1000, timeline: 'Soon' };
  expect((await admin.patch(`/projects/${briefs[0]}`, { action: 'send_proposal', proposal })).status).toBe(200);
  expect((await admin.patch(`/projects/${briefs[1]}`, { action: 'send_proposal', proposal })).status).toBe(200);
  expect((await admin.patch(`/projects/${briefs[2]}`, { action: 'cancel' })).status).toBe(200);
  const refused = await admin.patch(`/projects/${briefs[3]}`, { action: 'cancel' });
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe('too_many_state_changes');
  expect(retryAfter(refused)).toBeLessThanOrEqual(3600);
  const page = await projectForm(s.app, `/admin/projects/${briefs[3]}`, await s.cookie('admin'), { intent: 'action', action: 'cancel' });
  expect(page.status).toBe(429);
  expect(retryAfter(page)).toBeGreaterThan(0);
  expect((await admin.get(`/projects/${briefs[3]}`)).body.state).toBe('brief');
  // Another user's budget is their own.
  expect((await owner.patch(`/projects/${briefs[0]}`, { action: 'accept', version: 1 })).status).toBe(200);
});

/* Security e-mails before notices ---------------------------------------------------------- */

/** `count` notices queued at once, as a busy project would leave them. */
async function queueNotices(db: Db, count: number) {
  const notice = {
    kind: 'message_posted',
    replyTo: null,
    locale: 'es' as const,
    subject: 'Nuevo mensaje',
    text: 't',
    html: '<p>t</p>',
    ref: 'project:1',
  };
  await mailOutbox(db).add(
    Array.from({ length: count }, (_, i) => ({ ...notice, recipient: `reader${i}@example.com` })),
    Date.now() - 60_000,
  );
}

test(`with 800 notices queued, a password reset e-mail is sent first (${TEST_ENGINE})`, async () => {
  const mail = recordingTransport();
  const site = await createTestApp({}, { mail: { transport: mail.transport } });
  await addUser(site.db, { userName: 'ana', role: 'CLI', email: 'ana@example.com', name: 'Ana' });
  await queueNotices(site.db, 800);
  const asked = await request(site.app).post('/en/forgotPassword').set('Origin', ORIGIN).type('form').send({ identifier: 'ana' });
  expect(asked.status).toBe(303);
  await site.mail.flush();
  expect(mail.sent).toHaveLength(801);
  expect(mail.sent[0]).toMatchObject({ to: 'ana@example.com', subject: 'Reset your password for the product' });
});

test(`a reset asked while 800 notices are being sent goes out with the next batch, not after them (${TEST_ENGINE})`, async () => {
  // The site answers the reset while its own sender is busy with the notices.
  const running: { app?: Express } = {};
  let askedAt = -1;
  const mail = recordingTransport(async (_mail, count) => {
    if (count !== 30) return;
    askedAt = count;
    const asked = await request(running.app!).post('/en/forgotPassword').set('Origin', ORIGIN).type('form').send({ identifier: 'ana' });
    expect(asked.status).toBe(303);
  });
  const site = await createTestApp({}, { mail: { transport: mail.transport } });
  running.app = site.app;
  await addUser(site.db, { userName: 'ana', role: 'CLI', email: 'ana@example.com' });
  await queueNotices(site.db, 800);
  await site.mail.flush();
  const position = mail.sent.findIndex((m) => m.to === 'ana@example.com');
  expect(askedAt).toBe(30);
  // The batch in hand (20 at most) is finished first.
  expect(position).toBeGreaterThanOrEqual(30);
  expect(position).toBeLessThanOrEqual(30 + 20);
});

/* E-mail changes: nothing told, nothing carried to an unconfirmed address ------------------ */

const ACCOUNTS = [
  { userName: 'ana', role: 'CLI' as const, email: 'ana@example.com', name: 'Ana' },
  { userName: 'bea', role: 'ORG' as const, email: 'bea@example.com', name: 'Bea' },
  { userName: 'cai', role: 'CLI' as const, email: 'cai@example.com', name: 'Cai' },
];

function askChange(s: Site, cookie: string, newEmail: string, json = false) {
  const req = request(s.app).post('/en/profile').set('Origin', ORIGIN).set('Cookie', cookie);
  const fields = { form: 'email', newEmail, currentPassword: DEFAULT_PASSWORD };
  return json ? req.set('Accept', 'application/json').send(fields) : req.type('form').send(fields);
}

test(`40 e-mail changes to a stranger's address in a burst send 3 e-mails; the rest are 429 with Retry-After (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: ACCOUNTS });
  const cookie = await signIn(s.app, 'ana');
  const statuses: number[] = [];
  let last: request.Response | undefined;
  for (let i = 0; i < 40; i++) {
    last = await askChange(s, cookie, 'victim@example.net');
    statuses.push(last.status);
  }
  expect(statuses.slice(0, 3)).toEqual([303, 303, 303]);
  expect(new Set(statuses.slice(3))).toEqual(new Set([429]));
  expect(retryAfter(last!)).toBeLessThanOrEqual(3600);
  expect(last!.text).toContain('You have asked to change your e-mail address several times in a short time');
  await s.delivered(6); // 3 to the stranger, 3 warnings to ana's own address
  expect(mailsTo(s, 'victim@example.net')).toHaveLength(3);
});

test(`e-mails to one address stop at EMAIL_CHANGE_MAX_PER_ADDRESS whoever asks, and the askers are answered as usual (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: ACCOUNTS, env: { EMAIL_CHANGE_MAX_PER_ADDRESS: '2' } });
  for (const who of ['ana', 'bea', 'cai']) expect((await askChange(s, await signIn(s.app, who), 'victim@example.net')).status).toBe(303);
  await s.delivered(5); // two to the stranger, three warnings to the askers' own addresses
  await s.mail.flush();
  expect(mailsTo(s, 'victim@example.net')).toHaveLength(2);
  expect(s.smtp.messages).toHaveLength(5);
});

test(`the e-mail to an address nobody has confirmed carries no name or address the sender chose (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ users: ACCOUNTS });
  const cookie = await signIn(s.app, 'ana');
  const profile = await request(s.app)
    .post('/profile')
    .set('Origin', ORIGIN)
    .set('Cookie', cookie)
    .type('form')
    .send({ name: 'Your bank: pay at https://evil.example', lastName: 'Now' });
  expect(profile.status).toBe(303);
  expect((await askChange(s, cookie, 'victim@example.net')).status).toBe(303);
  await s.delivered(2);
  const [confirm] = mailsTo(s, 'victim@example.net');
  for (const part of [confirm!.text ?? '', confirm!.html ?? '', confirm!.subject]) {
    expect(part).not.toContain('evil.example');
    expect(part).not.toContain('Your bank');
    expect(part).not.toContain('ana@example.com');
  }
  expect(confirm!.text).toContain('Hello,');
});

test(`a signed-in user cannot tell whether an address has an account: a taken one is answered exactly like a free one (${TEST_ENGINE})`, async () => {
  const answers: unknown[] = [];
  for (const address of ['bea@example.com', 'nobody@example.com']) {
    const s = await accountsSite({ users: ACCOUNTS });
    const cookie = await signIn(s.app, 'ana');
    const page = await askChange(s, cookie, address);
    const json = await askChange(s, cookie, address, true);
    const profile = await request(s.app).get('/en/profile').set('Cookie', cookie);
    const note = /Waiting for confirmation: we sent a link to ([^<]+)/.exec(profile.text)?.[1];
    answers.push({
      page: [page.status, page.headers.location],
      json: [json.status, json.body],
      note: note?.replace(address, 'ADDRESS'),
    });
  }
  expect(answers[0]).toEqual(answers[1]);
  expect(answers[0]).toMatchObject({ page: [303, '/en/profile?saved=emailPending'] });
});

/* Invitations resent, data exports --------------------------------------------------------- */

test(`invitations resent are limited per invited user and per admin, with 429 and Retry-After (${TEST_ENGINE})`, async () => {
  const s = await accountsSite({ env: { INVITATION_RESENDS_PER_HOUR: '4', INVITATION_RESENDS_PER_USER_PER_HOUR: '3' } });
  const admin = await adminToken(s);
  const post = (path: string, body: object = {}) => request(s.app).post(`/api${path}`).set('Authorization', `Bearer ${admin}`).send(body);
  for (const userName of ['nora', 'omar']) {
    const invited = await post('/admin/users', {
      userName,
      email: `${userName}@example.com`,
      name: 'N',
      lastName: 'I',
      role: 'CLI',
      invite: true,
    });
    expect(invited.status).toBe(201);
  }
  const resend = (userName: string) => post(`/admin/users/${userName}/invitation`);
  for (let i = 0; i < 3; i++) expect((await resend('nora')).status).toBe(200);
  const perUser = await resend('nora');
  expect(perUser.status).toBe(429);
  expect(perUser.body.error.code).toBe('too_many_invitations');
  expect(retryAfter(perUser)).toBeLessThanOrEqual(3600);
  // The admin's fourth resend in the hour goes; the fifth is refused, to anyone.
  expect((await resend('omar')).status).toBe(200);
  expect((await resend('omar')).status).toBe(429);
});

test(`downloads of one's data are limited by DATA_EXPORTS_PER_HOUR, with 429 and Retry-After (${TEST_ENGINE})`, async () => {
  const { app, db } = await createTestApp({ DATA_EXPORTS_PER_HOUR: '2' });
  await addUser(db, { userName: 'ana', role: 'CLI' });
  const cookie = await signIn(app, 'ana');
  for (let i = 0; i < 2; i++) expect((await request(app).get('/en/documents/my-data.json').set('Cookie', cookie)).status).toBe(200);
  const refused = await request(app).get('/en/documents/my-data.json').set('Cookie', cookie);
  expect(refused.status).toBe(429);
  expect(retryAfter(refused)).toBeLessThanOrEqual(3600);
  expect(refused.text).toContain('2 times in the last hour');
});

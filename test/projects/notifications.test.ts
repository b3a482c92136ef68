// The e-mails a project sends (docs/decisions/013), end to end: an action through the API, the
// outbox, a real SMTP server started here. Each goes to the other participants only, in the
// language each last used, linking the project's page in their own area.
import type { Express } from 'express';
import { beforeAll, expect, test } from 'vitest';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { startSmtp, type TestSmtp, type ReceivedMail } from '../helpers/smtp.ts';
import { api, BRIEF, PDF, PEOPLE, signInEveryone, type Person, UNLIMITED } from './fixtures.ts';

let app: Express;
let smtp: TestSmtp;
let flush: () => Promise<void>;
let tokens: Record<Person, string>;

beforeAll(async () => {
  smtp = await startSmtp();
  // Milestone notices at once (they are held for the collapse window by default: test/security/limits.test.ts).
  const created = await createTestApp({
    ...UNLIMITED,
    PROJECT_MILESTONE_COLLAPSE_MINUTES: '0',
    SMTP_URL: smtp.url,
    CONTACT_NOTIFY_TO: 'inbox@example.com',
  });
  app = created.app;
  flush = () => created.mail.flush();
  tokens = await signInEveryone(app, created.db);
  // The owner last used the English site; everyone else the Spanish one (the default).
  await created.db.k
    .insertInto('user_locales')
    .values({ user_name: PEOPLE.owner.userName, locale: 'en', updated_at: new Date().toISOString() })
    .execute();
  return async () => {
    await created.close();
    await smtp.stop();
  };
});

/** The mails that arrived since the last call, after the outbox was sent. */
let seen = 0;
async function arrived(): Promise<ReceivedMail[]> {
  await flush();
  const fresh = smtp.messages.slice(seen);
  seen = smtp.messages.length;
  return fresh;
}
const to = (mail: ReceivedMail) => mail.envelope.to.join(',');
const byRecipient = (mails: ReceivedMail[]) => Object.fromEntries(mails.map((m) => [to(m), m]));

test('each step of a project e-mails the other participants, in their language, with a link to their own page of it', async () => {
  const owner = api(app, tokens.owner);
  const admin = api(app, tokens.admin);
  const expert = api(app, tokens.expert);

  const id = (await owner.post('/projects', { ...BRIEF, title: 'Shop <b>dashboards</b>' })).body.id as number;
  let mails = await arrived();
  expect(mails.map(to)).toEqual([PEOPLE.admin.email]);
  expect(mails[0]!.subject).toBe('Nuevo encargo: «Shop <b>dashboards</b>»');
  expect(mails[0]!.text).toContain(`${ORIGIN}/admin/projects/${id}`);
  expect(mails[0]!.html).toContain('Shop &lt;b&gt;dashboards&lt;/b&gt;');

  await admin.patch(`/projects/${id}`, { action: 'send_proposal', proposal: { scope: 'All of it', fee: 18000, timeline: 'Eight weeks' } });
  mails = await arrived();
  // The owner hears of the proposal (in English); nobody else is a participant yet.
  expect(mails.map(to)).toEqual([PEOPLE.owner.email]);
  expect(mails[0]!.subject).toBe('A proposal for “Shop <b>dashboards</b>” is waiting for you');
  expect(mails[0]!.text).toContain(`${ORIGIN}/en/client/projects/${id}`);

  await owner.patch(`/projects/${id}`, { action: 'accept', version: 1 });
  mails = await arrived();
  expect(mails.map(to)).toEqual([PEOPLE.admin.email]);
  // Said as an action, in the admin's language (Spanish).
  expect(mails[0]!.subject).toBe('Carla Acme aceptó la propuesta de «Shop <b>dashboards</b>»');

  await admin.post(`/projects/${id}/experts`, { userName: PEOPLE.expert.userName });
  mails = await arrived();
  const assigned = byRecipient(mails);
  expect(Object.keys(assigned).sort()).toEqual([PEOPLE.expert.email, PEOPLE.owner.email].sort());
  expect(assigned[PEOPLE.expert.email]!.subject).toBe('Te han asignado al proyecto «Shop <b>dashboards</b>»');
  expect(assigned[PEOPLE.expert.email]!.text).toContain(`${ORIGIN}/expert/projects/${id}`);
  expect(assigned[PEOPLE.owner.email]!.subject).toBe('An expert joins “Shop <b>dashboards</b>”');

  await expert.post(`/projects/${id}/messages`, { body: 'Hello, I start on Monday.' });
  mails = await arrived();
  const posted = byRecipient(mails);
  expect(Object.keys(posted).sort()).toEqual([PEOPLE.admin.email, PEOPLE.owner.email].sort());
  expect(posted[PEOPLE.owner.email]!.text).toContain('Hello, I start on Monday.');

  const milestone = (await expert.post(`/projects/${id}/milestones`, { title: 'Kick-off' })).body.milestones[0].id as number;
  expect(await arrived()).toEqual([]); // adding a milestone is not news; ticking it off is
  await expert.patch(`/projects/${id}/milestones/${milestone}`, { done: true });
  mails = await arrived();
  expect(Object.keys(byRecipient(mails)).sort()).toEqual([PEOPLE.admin.email, PEOPLE.owner.email].sort());
  expect(byRecipient(mails)[PEOPLE.owner.email]!.subject).toBe('Milestone done in “Shop <b>dashboards</b>”: Kick-off');

  // A document is news for the others (the expert and the admin); delivering, for the owner and the admin.
  await owner.upload(`/projects/${id}/documents`, PDF, 'brief.pdf');
  mails = await arrived();
  expect(Object.keys(byRecipient(mails)).sort()).toEqual([PEOPLE.admin.email, PEOPLE.expert.email].sort());
  expect(byRecipient(mails)[PEOPLE.expert.email]!.subject).toBe('Documento nuevo en «Shop <b>dashboards</b>»: brief.pdf');
  await expert.patch(`/projects/${id}`, { action: 'deliver' });
  mails = await arrived();
  expect(Object.keys(byRecipient(mails)).sort()).toEqual([PEOPLE.admin.email, PEOPLE.owner.email].sort());
  // The owner is asked to review and confirm, by a button that opens the confirmation.
  const delivered = byRecipient(mails)[PEOPLE.owner.email]!;
  expect(delivered.subject).toBe('“Shop <b>dashboards</b>”: Eva Expert marked the work as delivered — please review and confirm');
  expect(delivered.text).toContain(`${ORIGIN}/en/client/projects/${id}?confirm=close#confirm-title`);
  for (const mail of smtp.messages) {
    expect(mail.html, mail.subject).not.toMatch(/<img[^>]+src="https?:/);
  }
});

test('an outsider hears nothing of a project, and a refused action sends nothing', async () => {
  const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
  await arrived();
  await api(app, tokens.otherClient).post(`/projects/${id}/messages`, { body: 'let me in' });
  await api(app, tokens.owner).patch(`/projects/${id}`, { action: 'deliver' });
  expect(await arrived()).toEqual([]);
  expect(smtp.messages.every((m) => !to(m).includes(PEOPLE.otherClient.email))).toBe(true);
});

// E-mail preferences (docs/decisions/044): per topic, a notice is e-mailed at once (the
// default), kept for the daily digest, or never e-mailed — the notification centre records it
// whatever the choice. Every notice carries a one-click unsubscribe link (RFC 8058) in its headers
// and its footer; security e-mails (a password reset) always go, without one. Proven end to end
// against a real SMTP server, on both engines.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { DEFAULT_MAIL_PREFERENCES, MAIL_TOPICS, type MailMode } from '../../shared/mail-preferences.ts';
import { TEST_ENGINE } from '../helpers/app.ts';
import { BRIEF, PDF, PEOPLE } from '../projects/fixtures.ts';
import { EMAIL, headerOf, ORIGIN, preferencesSite, to, unsubscribeUrlOf } from './setup.ts';

const PROPOSAL = { scope: 'Scope', fee: 1000, timeline: 'Soon' };

describe(`e-mail preferences (${TEST_ENGINE})`, () => {
  test('a user who never chose gets every topic at once, reminded 3 days ahead; GET /api/me/mail-preferences says so', async () => {
    const site = await preferencesSite();
    expect(await site.mail.preferences.get(PEOPLE.owner.userName)).toEqual(DEFAULT_MAIL_PREFERENCES);
    const res = await site.as('owner').get('/me/mail-preferences');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toEqual({
      messages: 'immediate',
      states: 'immediate',
      milestones: 'immediate',
      documents: 'immediate',
      reminders: 'immediate',
      reminderDays: 3,
    });
  });

  test('"immediately" (the default) e-mails a message at once, with List-Unsubscribe (https, PUBLIC_URL/unsubscribe/…), List-Unsubscribe-Post: One-Click and the same link in its text', async () => {
    const site = await preferencesSite();
    expect((await site.as('expert').post(`/projects/${site.id}/messages`, { body: 'First results are in.' })).status).toBe(201);
    const mails = await site.arrived();
    // The owner and the admin; never the author.
    expect(mails.map((m) => m.envelope.to[0]).sort()).toEqual([EMAIL.owner, EMAIL.admin].sort());
    const [mail] = to(mails, 'owner');
    expect(mail!.subject).toBe(`Nuevo mensaje en «${BRIEF.title}»`);
    const url = unsubscribeUrlOf(mail!);
    expect(url).toMatch(new RegExp(`^${ORIGIN.replace(/\./g, '\\.')}/unsubscribe/[A-Za-z0-9_-]+\\.messages\\.[A-Za-z0-9_-]{43}$`));
    expect(headerOf(mail!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail!.text).toContain(url);
    expect(mail!.html).toContain(url);
    // Each recipient's own link.
    const adminUrl = unsubscribeUrlOf(to(mails, 'admin')[0]!);
    expect(adminUrl).not.toBe(url);
    // The outbox keeps the headers it sent.
    const rows = await site.db.k.selectFrom('mail_outbox').select(['recipient', 'headers']).where('kind', '=', 'message_posted').execute();
    const ownerRow = rows.find((r) => r.recipient === EMAIL.owner);
    expect(JSON.parse(ownerRow!.headers!)).toEqual({
      'List-Unsubscribe': `<${url}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  test('"never" for messages sends no e-mail for a message, the notification is still recorded, and other topics (a state change) are still e-mailed', async () => {
    const site = await preferencesSite();
    const saved = await site.choose('owner', { messages: 'never' });
    expect(saved).toEqual({ ...DEFAULT_MAIL_PREFERENCES, messages: 'never' });
    expect((await site.mail.preferences.get(PEOPLE.owner.userName)).messages).toBe('never');

    expect((await site.as('expert').post(`/projects/${site.id}/messages`, { body: 'Not by e-mail' })).status).toBe(201);
    const mails = await site.arrived();
    expect(to(mails, 'owner')).toEqual([]);
    // Someone else's choice is theirs: the admin still gets it.
    expect(to(mails, 'admin').map((m) => m.subject)).toEqual([`Nuevo mensaje en «${BRIEF.title}»`]);
    // The bell has it all the same.
    expect((await site.notificationKinds('owner'))[0]).toBe('message_posted');

    // A state change is another topic: e-mailed.
    expect((await site.as('admin').patch(`/projects/${site.id}`, { action: 'send_proposal', proposal: PROPOSAL })).status).toBe(200);
    const owner = to(await site.arrived(), 'owner');
    expect(owner.map((m) => m.subject)).toEqual([`Tienes una propuesta para «${BRIEF.title}»`]);
    expect(unsubscribeUrlOf(owner[0]!)).toMatch(/\.states\.[A-Za-z0-9_-]{43}$/);
  });

  test('a bad choice is refused (400) and changes nothing: an unknown mode, an unknown topic, reminder days out of 1–30', async () => {
    const site = await preferencesSite();
    for (const body of [
      { ...DEFAULT_MAIL_PREFERENCES, messages: 'weekly' },
      { ...DEFAULT_MAIL_PREFERENCES, newsletter: 'never' },
      { ...DEFAULT_MAIL_PREFERENCES, reminderDays: 0 },
      { ...DEFAULT_MAIL_PREFERENCES, reminderDays: 31 },
      { messages: 'never' },
    ]) {
      const res = await site.as('owner').put('/me/mail-preferences', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await site.mail.preferences.get(PEOPLE.owner.userName)).toEqual(DEFAULT_MAIL_PREFERENCES);
  });

  test('a document added notifies the other participants (document_added, e-mailed at once); "never" for documents stops its e-mail, not its notification', async () => {
    const site = await preferencesSite();
    await site.choose('admin', { documents: 'never' });
    const stored = await site.as('expert').upload(`/projects/${site.id}/documents`, PDF, 'results.pdf');
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);

    const mails = await site.arrived();
    expect(mails.map((m) => m.envelope.to[0])).toEqual([EMAIL.owner]);
    expect(mails[0]!.subject).toBe(`Documento nuevo en «${BRIEF.title}»: results.pdf`);
    expect(mails[0]!.text).toContain('Eva Expert ha añadido el documento «results.pdf»');
    expect(unsubscribeUrlOf(mails[0]!)).toMatch(/\.documents\.[A-Za-z0-9_-]{43}$/);

    expect((await site.notificationKinds('owner'))[0]).toBe('document_added');
    expect((await site.notificationKinds('admin'))[0]).toBe('document_added');
    // Never the uploader's own.
    expect(await site.notificationKinds('expert')).not.toContain('document_added');
  });

  test('security e-mails always go: a user with every topic "never" still gets a password reset, with no List-Unsubscribe header', async () => {
    const site = await preferencesSite();
    await site.choose('owner', Object.fromEntries(MAIL_TOPICS.map((topic) => [topic, 'never' as MailMode])));
    // Notices: none to them.
    await site.as('expert').post(`/projects/${site.id}/messages`, { body: 'Hello' });
    expect(to(await site.arrived(), 'owner')).toEqual([]);

    const asked = await request(site.app).post('/en/forgotPassword').set('Origin', ORIGIN).type('form').send({ identifier: 'acme' });
    expect(asked.status).toBe(303);
    const mails = await site.arrived();
    expect(mails.map((m) => m.envelope.to)).toEqual([[EMAIL.owner]]);
    expect(mails[0]!.subject).toBe('Reset your password for Acme Consulting');
    expect(headerOf(mails[0]!, 'List-Unsubscribe')).toBeUndefined();
    expect(headerOf(mails[0]!, 'List-Unsubscribe-Post')).toBeUndefined();
    expect(mails[0]!.text).not.toContain('/unsubscribe/');
  });
});

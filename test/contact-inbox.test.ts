// The contact inbox as a working tool, through the API and its service, on both engines: a reply
// sent from the console (kept with the message, e-mailed to the sender through the outbox and a
// real SMTP server), the status of each message (new, answered, archived) and the list of one
// status, the new leads the navbar counts. The pages are test/ui/admin-inbox.test.ts.
import request from 'supertest';
import { expect, onTestFinished, test } from 'vitest';
import { contactMessages, NEW_LEADS_COUNTED, type NewMessage } from '../server/contact/messages.ts';
import { createReplies } from '../server/contact/replies.ts';
import { REPLY_MAX_LENGTH } from '../shared/contact.ts';
import { createTestApp, testDatabase } from './helpers/app.ts';
import { startSmtp } from './helpers/smtp.ts';
import { addUser, loginToken } from './helpers/users.ts';

const LUCIA: NewMessage = {
  name: 'Lucía Pérez',
  email: 'lucia@example.com',
  company: 'Datos Lucía SL',
  subject: 'Proyecto de datos',
  message: 'Necesitamos ayuda con una estrategia de datos.',
  locale: 'es',
  ip: null,
};

/** A site with an admin (Rosa Admin) and a client, a real SMTP server, and the admin's Bearer header. */
async function inbox(env: Record<string, string> = {}) {
  const smtp = await startSmtp();
  onTestFinished(() => smtp.stop());
  const site = await createTestApp({ SMTP_URL: smtp.url, ...env });
  await addUser(site.db, { userName: 'rosa', role: 'ADMIN', name: 'Rosa', lastName: 'Admin', email: 'rosa@example.com' });
  await addUser(site.db, { userName: 'carla', role: 'CLI' });
  const admin = { Authorization: `Bearer ${await loginToken(site.app, 'rosa')}` };
  return { ...site, smtp, admin };
}

test('a reply is e-mailed to the sender through the outbox, in their language, with the company’s address to answer to', async () => {
  const { app, contactStore, admin, mail, smtp } = await inbox();
  const message = await contactStore.add(LUCIA, false);
  const sent = await request(app)
    .post(`/api/admin/messages/${message.id}/replies`)
    .set(admin)
    .send({ text: '  Hola, Lucía:\nte llamamos el lunes.  ' });
  expect(sent.status, sent.text).toBe(201);
  expect(sent.body.reply).toMatchObject({ author: { userName: 'rosa', name: 'Rosa Admin' }, text: 'Hola, Lucía:\nte llamamos el lunes.' });
  await mail.flush();
  const [received] = await smtp.waitFor(1);
  expect(received!.envelope.to).toEqual(['lucia@example.com']);
  expect(received!.subject).toBe('Re: Proyecto de datos');
  expect(received!.replyTo?.value.map((address) => address.address)).toEqual(['hola@example.com']);
  expect(received!.text).toContain('Rosa Admin, de');
  expect(received!.text).toContain('> Hola, Lucía:\n> te llamamos el lunes.');
  expect(received!.text).toContain('https://www.example.test/Contact');
});

test('a reply to a message written in English is in English', async () => {
  const { app, contactStore, admin, mail, smtp } = await inbox();
  const message = await contactStore.add({ ...LUCIA, subject: 'Data project', locale: 'en' }, false);
  await request(app).post(`/api/admin/messages/${message.id}/replies`).set(admin).send({ text: 'We will call you on Monday.' }).expect(201);
  await mail.flush();
  const [received] = await smtp.waitFor(1);
  expect(received!.subject).toBe('Re: Data project');
  expect(received!.text).toContain('Rosa Admin of');
  expect(received!.text).toContain('answers your message “Data project”');
  expect(received!.text).toContain('https://www.example.test/en/Contact');
});

test('a reply is kept with the message: who replied and when, and where its e-mail stands', async () => {
  const { app, contactStore, admin, mail } = await inbox();
  const message = await contactStore.add(LUCIA, false);
  const sent = await request(app).post(`/api/admin/messages/${message.id}/replies`).set(admin).send({ text: 'Te llamamos el lunes.' });
  expect(sent.body.reply.delivery).toBe('pending');
  const before = await request(app).get(`/api/admin/messages/${message.id}`).set(admin);
  expect(before.body.replies).toEqual([
    {
      id: sent.body.reply.id,
      author: { userName: 'rosa', name: 'Rosa Admin' },
      text: 'Te llamamos el lunes.',
      createdAt: sent.body.reply.createdAt,
      delivery: 'pending',
    },
  ]);
  expect(Date.parse(before.body.replies[0].createdAt)).not.toBeNaN();
  await mail.flush();
  const after = await request(app).get(`/api/admin/messages/${message.id}`).set(admin);
  expect(after.body.replies.map((reply: { delivery: string }) => reply.delivery)).toEqual(['sent']);
});

test('sending a reply makes the message answered (and read), even from the archive', async () => {
  const { app, contactStore, admin } = await inbox();
  const message = await contactStore.add(LUCIA, false);
  expect(message.status).toBe('new');
  await request(app).patch(`/api/admin/messages/${message.id}`).set(admin).send({ archived: true }).expect(200);
  const sent = await request(app).post(`/api/admin/messages/${message.id}/replies`).set(admin).send({ text: 'Te llamamos el lunes.' });
  expect(sent.body.message).toMatchObject({ id: message.id, status: 'answered', read: true });
  expect((await contactStore.get(message.id))?.status).toBe('answered');
});

test('archived and taken back: answered again when it has a reply, new again when it has none', async () => {
  const { app, contactStore, admin } = await inbox();
  const answered = await contactStore.add(LUCIA, false);
  const unanswered = await contactStore.add({ ...LUCIA, subject: 'Otra pregunta' }, false);
  await request(app).post(`/api/admin/messages/${answered.id}/replies`).set(admin).send({ text: 'Hecho.' }).expect(201);
  for (const { id } of [answered, unanswered]) {
    const archived = await request(app).patch(`/api/admin/messages/${id}`).set(admin).send({ archived: true });
    expect(archived.body.message.status).toBe('archived');
  }
  const back = async (id: number) =>
    (await request(app).patch(`/api/admin/messages/${id}`).set(admin).send({ archived: false })).body.message.status as string;
  expect(await back(answered.id)).toBe('answered');
  expect(await back(unanswered.id)).toBe('new');
});

test('the list shows one status, the messages not archived (active), or every one; with the counts of each status', async () => {
  const { app, contactStore, admin } = await inbox();
  const [newOne, answered, archived] = [
    await contactStore.add({ ...LUCIA, subject: 'new' }, false),
    await contactStore.add({ ...LUCIA, subject: 'answered' }, false),
    await contactStore.add({ ...LUCIA, subject: 'archived' }, false),
  ];
  await request(app).post(`/api/admin/messages/${answered.id}/replies`).set(admin).send({ text: 'Hecho.' }).expect(201);
  await request(app).patch(`/api/admin/messages/${archived.id}`).set(admin).send({ archived: true }).expect(200);
  const subjects = async (query: string) => {
    const res = await request(app).get(`/api/admin/messages${query}`).set(admin);
    expect(res.status, res.text).toBe(200);
    expect(res.body.counts).toEqual({ new: 1, answered: 1, archived: 1 });
    return res.body.items.map((item: { subject: string }) => item.subject) as string[];
  };
  expect(await subjects('')).toEqual(['archived', 'answered', 'new']);
  expect(await subjects('?status=active')).toEqual(['answered', 'new']);
  expect(await subjects('?status=new')).toEqual(['new']);
  expect(await subjects('?status=answered')).toEqual(['answered']);
  expect(await subjects('?status=archived')).toEqual(['archived']);
  expect(newOne.status).toBe('new');
  const refused = await request(app).get('/api/admin/messages?status=spam').set(admin);
  expect(refused.status).toBe(400);
  expect(refused.body.error.fields).toHaveProperty('status');
});

test.each([
  ['an empty reply', '   '],
  ['a reply too long', 'x'.repeat(REPLY_MAX_LENGTH + 1)],
])('%s is refused with a 400 naming the text: nothing kept, nothing queued, the status unchanged', async (_name, text) => {
  const { app, contactStore, admin, db } = await inbox();
  const message = await contactStore.add(LUCIA, false);
  const res = await request(app).post(`/api/admin/messages/${message.id}/replies`).set(admin).send({ text });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('invalid_request');
  expect(res.body.error.fields).toHaveProperty('text');
  expect(await db.k.selectFrom('contact_replies').selectAll().execute()).toEqual([]);
  expect(await db.k.selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
  expect((await contactStore.get(message.id))?.status).toBe('new');
});

test('a reply to a message that is gone is a 404; a reply is for admins only', async () => {
  const { app, contactStore, admin } = await inbox();
  expect((await request(app).post('/api/admin/messages/999/replies').set(admin).send({ text: 'Hola' })).status).toBe(404);
  const message = await contactStore.add(LUCIA, false);
  const client = { Authorization: `Bearer ${await loginToken(app, 'carla')}` };
  expect((await request(app).post(`/api/admin/messages/${message.id}/replies`).set(client).send({ text: 'Hola' })).status).toBe(403);
  expect((await request(app).post(`/api/admin/messages/${message.id}/replies`).send({ text: 'Hola' })).status).toBe(401);
});

test('without a mail server a reply is refused (503 mail_unavailable) and nothing is kept', async () => {
  const db = await testDatabase();
  onTestFinished(() => db.close());
  const store = contactMessages(db);
  const message = await store.add(LUCIA, false);
  const replies = createReplies({
    db,
    store,
    mail: { canSend: false, contactReplyMail: () => null, queueIn: async () => {}, kick: () => {} },
  });
  await expect(replies.reply(message.id, { userName: 'rosa', name: 'Rosa Admin' }, 'Hola')).rejects.toMatchObject({
    status: 503,
    code: 'mail_unavailable',
  });
  expect(await db.k.selectFrom('contact_replies').selectAll().execute()).toEqual([]);
  expect((await store.get(message.id))?.status).toBe('new');
});

test('a reply whose e-mail cannot be queued is not kept: the reply, the status and the e-mail go together', async () => {
  const db = await testDatabase();
  onTestFinished(() => db.close());
  const store = contactMessages(db);
  const message = await store.add(LUCIA, false);
  const replies = createReplies({
    db,
    store,
    mail: {
      canSend: true,
      contactReplyMail: () => 'mail',
      queueIn: async () => {
        throw new Error('outbox full');
      },
      kick: () => {},
    },
  });
  await expect(replies.reply(message.id, { userName: 'rosa', name: 'Rosa Admin' }, 'Hola')).rejects.toThrow('outbox full');
  expect(await db.k.selectFrom('contact_replies').selectAll().execute()).toEqual([]);
  expect((await store.get(message.id))?.status).toBe('new');
});

test(`the new leads are the messages nobody has dealt with, counted up to ${NEW_LEADS_COUNTED}`, async () => {
  const db = await testDatabase();
  onTestFinished(() => db.close());
  const store = contactMessages(db);
  const first = await store.add(LUCIA, false);
  await store.add(LUCIA, false);
  expect(await store.newLeads()).toBe(2);
  await store.setArchived(first.id, true);
  expect(await store.newLeads()).toBe(1);
  await db.k
    .insertInto('contact_messages')
    .values(
      Array.from({ length: NEW_LEADS_COUNTED + 5 }, () => ({
        name: 'N',
        email: 'n@example.com',
        subject: 's',
        message: 'a message',
        locale: 'es',
        consent_at: '2026-12-03T10:00:00.000Z',
        read: 0,
        notify_status: 'none',
        notify_attempts: 0,
        created_at: '2026-12-03T10:00:00.000Z',
      })),
    )
    .execute();
  expect(await store.newLeads()).toBe(NEW_LEADS_COUNTED);
});

test('“invite as client”: an admin’s new client starts in a new company of the name given, as its manager; for another role a company is refused (400 naming it)', async () => {
  const { app, admin, db } = await inbox();
  const created = await request(app).post('/api/admin/users').set(admin).send({
    userName: 'lucia',
    email: 'lucia@example.com',
    name: 'Lucía',
    lastName: 'Pérez',
    role: 'CLI',
    invite: true,
    companyName: 'Datos Lucía SL',
  });
  expect(created.status, created.text).toBe(201);
  const company = await db.k
    .selectFrom('company_members as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .select(['c.name', 'm.role'])
    .where('m.user_name', '=', 'lucia')
    .executeTakeFirst();
  expect(company).toEqual({ name: 'Datos Lucía SL', role: 'manager' });
  const refused = await request(app)
    .post('/api/admin/users')
    .set(admin)
    .send({ userName: 'ernesto', name: 'Ernesto', lastName: 'Experto', role: 'CONS', companyName: 'Expertos SL' });
  expect(refused.status).toBe(400);
  expect(refused.body.error.fields).toHaveProperty('companyName');
});

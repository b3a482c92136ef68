import request from 'supertest';
import { expect, test } from 'vitest';
import { deriveKey } from '../server/auth/keys.ts';
import { createFormTokens } from '../server/contact/form-token.ts';
import type { OutgoingMail } from '../server/mail/index.ts';
import { createTestApp, ORIGIN, TEST_SESSION_SECRET } from './helpers/app.ts';

const tokens = (ageMs: number) => createFormTokens(deriveKey(TEST_SESSION_SECRET, 'contact form v1'), () => Date.now() - ageMs);
const VALID = {
  name: 'Lucía Pérez',
  email: 'lucia@example.com',
  subject: 'Data project',
  message: 'We need help with a data strategy.',
  consent: 'yes',
};

function post(app: Awaited<ReturnType<typeof createTestApp>>['app'], body: Record<string, string>, path = '/en/Contact', json = false) {
  const req = request(app).post(path).set('Origin', ORIGIN);
  if (json) req.set('Accept', 'application/json');
  return req.type('form').send({ formToken: tokens(10_000).issue(), ...body });
}

test('the contact page carries a signed form token and a hidden honeypot field', async () => {
  const { app } = await createTestApp();
  const res = await request(app).get('/en/Contact');
  expect(res.text).toMatch(/<input type="hidden" name="formToken" value="\d{13}\.[A-Za-z0-9_-]{22}"\/>/);
  expect(res.text).toMatch(/<div class="honeypot" aria-hidden="true">/);
  expect(res.text).toMatch(/name="website"/);
});

test('a valid message is committed before the answer: 303 to the thank-you state, the row exists', async () => {
  const { app, contactStore } = await createTestApp();
  const res = await post(app, VALID);
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/Contact?sent=1');
  const [stored] = await contactStore.all();
  expect(stored).toMatchObject({ name: 'Lucía Pérez', email: 'lucia@example.com', subject: 'Data project', locale: 'en', read: false });
  const thanks = await request(app).get('/en/Contact?sent=1');
  expect(thanks.text).toContain('Thank you: your message has been sent.');
});

test('the company the sender names is kept on one line; left empty, the message has none', async () => {
  const { app, contactStore } = await createTestApp();
  expect((await post(app, { ...VALID, company: '  Datos\r\nLucía SL ' })).status).toBe(303);
  expect((await post(app, VALID)).status).toBe(303);
  const companies = (await contactStore.all()).map((message) => message.company);
  expect(companies).toEqual([null, 'Datos Lucía SL']);
});

test('with JavaScript the contact form answers JSON', async () => {
  const { app, contactStore } = await createTestApp();
  const res = await post(app, VALID, '/Contact', true);
  expect(res.body).toEqual({ ok: true, redirect: '/Contact?sent=1', success: 'contact' });
  expect(await contactStore.all()).toHaveLength(1);
  expect((await contactStore.all())[0]!.locale).toBe('es');
});

test.each([
  ['name', { name: '' }, 'validation.required'],
  ['name', { name: 'x'.repeat(101) }, 'validation.tooLong'],
  ['email', { email: '' }, 'validation.required'],
  ['email', { email: 'not-an-email' }, 'validation.invalidEmail'],
  ['email', { email: 'a b@example.com' }, 'validation.invalidEmail'],
  ['company', { company: 'x'.repeat(121) }, 'validation.tooLong'],
  ['subject', { subject: '   ' }, 'validation.required'],
  ['subject', { subject: 'x'.repeat(151) }, 'validation.tooLong'],
  ['message', { message: 'short' }, 'validation.messageTooShort'],
  ['message', { message: 'x'.repeat(5001) }, 'validation.tooLong'],
  ['consent', { consent: '' }, 'validation.consentRequired'],
])('contact field %s is validated on the server: %j → %s, nothing stored', async (field, change, key) => {
  const { app, contactStore } = await createTestApp();
  const res = await post(app, { ...VALID, ...change }, '/en/Contact', true);
  expect(res.status).toBe(422);
  expect(res.body.form.error.fields[field]).toBe(key);
  expect(await contactStore.all()).toHaveLength(0);
});

test('without JavaScript a rejected message comes back with the field messages and what was typed', async () => {
  const { app } = await createTestApp();
  const res = await post(app, { ...VALID, email: 'nope' });
  expect(res.status).toBe(422);
  expect(res.text).toContain('Enter a valid email address.');
  expect(res.text).toContain('value="Lucía Pérez"');
  expect(res.text).toContain('We need help with a data strategy.</textarea>');
});

test('the honeypot: a filled hidden field looks sent but stores nothing', async () => {
  const { app, contactStore } = await createTestApp();
  const res = await post(app, { ...VALID, website: 'http://spam.example' });
  expect(res.status).toBe(303);
  expect(await contactStore.all()).toHaveLength(0);
});

test('the minimum fill time: a form sent within 3 s of being shown is refused, nothing stored', async () => {
  const { app, contactStore } = await createTestApp();
  const res = await request(app)
    .post('/en/Contact')
    .set('Origin', ORIGIN)
    .set('Accept', 'application/json')
    .type('form')
    .send({ ...VALID, formToken: tokens(500).issue() });
  expect(res.status).toBe(400);
  expect(res.body.form.error.code).toBe('too_fast');
  expect(res.body.form.values.message).toBe(VALID.message);
  expect(await contactStore.all()).toHaveLength(0);
});

test('a missing or forged form token is refused', async () => {
  const { app } = await createTestApp();
  for (const formToken of ['', '1700000000000.AAAAAAAAAAAAAAAAAAAAAA', 'garbage']) {
    const res = await request(app)
      .post('/en/Contact')
      .set('Origin', ORIGIN)
      .set('Accept', 'application/json')
      .type('form')
      .send({ ...VALID, formToken });
    expect(res.status).toBe(400);
    expect(res.body.form.error.code).toBe('form_expired');
  }
});

test('the per-IP rate limit answers 429 with Retry-After', async () => {
  const { app, contactStore } = await createTestApp({ CONTACT_MAX_PER_IP: '2' });
  expect((await post(app, VALID)).status).toBe(303);
  expect((await post(app, VALID)).status).toBe(303);
  const blocked = await post(app, VALID, '/en/Contact', true);
  expect(blocked.status).toBe(429);
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  expect(await contactStore.all()).toHaveLength(2);
});

test('a cross-site contact post is refused', async () => {
  const { app } = await createTestApp();
  const res = await request(app).post('/Contact').set('Origin', 'https://evil.example').type('form').send(VALID);
  expect(res.status).toBe(403);
});

test('a message is e-mailed through the outbox; a failed e-mail keeps the message, is retried, then flagged failed in the inbox', async () => {
  const sent: OutgoingMail[] = [];
  let failing = true;
  let clock = Date.now();
  const transport = {
    async send(mail: OutgoingMail) {
      if (failing) throw new Error('SMTP down');
      sent.push(mail);
    },
  };
  const hour = 3_600_000;
  const { app, contactStore, mail } = await createTestApp(
    { CONTACT_NOTIFY_TO: 'staff@example.com' },
    { mail: { transport, now: () => clock, maxAttempts: 3 } },
  );
  expect((await post(app, VALID)).status).toBe(303);
  await mail.flush();
  const [stored] = await contactStore.all();
  expect(stored?.notifyStatus).toBe('pending'); // kept, to be retried
  failing = false;
  clock += hour;
  await mail.flush();
  expect(sent.map((m) => [m.to, m.replyTo])).toEqual([['staff@example.com', VALID.email]]);
  expect((await contactStore.get(stored!.id))?.notifyStatus).toBe('sent');

  failing = true;
  await post(app, { ...VALID, subject: 'Second' });
  for (let i = 0; i < 3; i++) {
    await mail.flush();
    clock += hour;
  }
  const second = (await contactStore.all()).find((m) => m.subject === 'Second')!;
  expect(second.notifyStatus).toBe('failed');
  expect(second.message).toBe(VALID.message);
});

test('the admin contact inbox: list (unread first count), read/unread, view, delete — admins only', async () => {
  const { app, db, contactStore } = await createTestApp();
  const { createUser } = await import('../server/users/users.ts');
  await createUser(db, { userName: 'root', password: 'correct horse battery', role: 'ADMIN', name: 'R', lastName: 'A' });
  await createUser(db, { userName: 'carla', password: 'correct horse battery', role: 'CLI', name: 'C', lastName: 'L' });
  const token = async (identifier: string) =>
    (await request(app).post('/api/login').send({ identifier, password: 'correct horse battery' })).body.token as string;
  const admin = { Authorization: `Bearer ${await token('root')}` };
  const first = await contactStore.add({ ...VALID, consent: undefined, locale: 'es', ip: null } as never, false);
  await contactStore.add({ ...VALID, subject: 'Second', locale: 'en', ip: null } as never, false);

  const list = await request(app).get('/api/admin/messages').set(admin);
  expect(list.body).toMatchObject({ total: 2, unread: 2, page: 1 });
  expect(list.body.items[0].subject).toBe('Second');
  const read = await request(app).patch(`/api/admin/messages/${first.id}`).set(admin).send({ read: true });
  expect(read.body.message.read).toBe(true);
  expect((await request(app).get('/api/admin/messages?unread=true').set(admin)).body.total).toBe(1);
  expect((await request(app).get(`/api/admin/messages/${first.id}`).set(admin)).body.message.message).toBe(VALID.message);
  expect((await request(app).delete(`/api/admin/messages/${first.id}`).set(admin)).status).toBe(204);
  expect((await request(app).get(`/api/admin/messages/${first.id}`).set(admin)).status).toBe(404);
  expect((await request(app).get('/api/admin/messages/abc').set(admin)).status).toBe(404);
  expect((await request(app).patch(`/api/admin/messages/${list.body.items[0].id}`).set(admin).send({ read: 'yes' })).status).toBe(400);

  const client = { Authorization: `Bearer ${await token('carla')}` };
  expect((await request(app).get('/api/admin/messages').set(client)).status).toBe(403);
  expect((await request(app).delete('/api/admin/messages/2').set(client)).status).toBe(403);
  expect((await request(app).get('/api/admin/messages')).status).toBe(401);
  expect(await contactStore.all()).toHaveLength(1);
});

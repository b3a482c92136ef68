// Attacks on the contact inbox's actions (the API's replies and status, the console page's form
// posts): only an administrator signed in now may read, answer, archive or delete a message; a
// forged cross-site post, a reply past its length, an unknown status or message, and a reply
// holding markup or header lines are refused or made harmless, with nothing stored half-way.
import request from 'supertest';
import { expect, onTestFinished, test } from 'vitest';
import type { NewMessage } from '../../server/contact/messages.ts';
import { REPLY_MAX_LENGTH } from '../../shared/contact.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { startSmtp } from '../helpers/smtp.ts';
import { addUser, loginToken } from '../helpers/users.ts';
import { signIn } from '../my-account/helpers.ts';

const LEAD: NewMessage = {
  name: 'Lucía Pérez',
  email: 'lucia@example.com',
  company: 'Datos Lucía SL',
  subject: 'Proyecto de datos',
  message: 'Necesitamos ayuda.',
  locale: 'es',
  ip: null,
};

async function inbox() {
  const smtp = await startSmtp();
  onTestFinished(() => smtp.stop());
  const site = await createTestApp({ SMTP_URL: smtp.url });
  await addUser(site.db, { userName: 'rosa', role: 'ADMIN', name: 'Rosa', lastName: 'Admin', email: 'rosa@example.com' });
  for (const [userName, role] of [
    ['carla', 'CLI'],
    ['olga', 'ORG'],
    ['ernesto', 'CONS'],
  ] as const) {
    await addUser(site.db, { userName, role });
  }
  const message = await site.contactStore.add(LEAD, false);
  return { ...site, smtp, message };
}

const replies = async (site: Awaited<ReturnType<typeof inbox>>) => site.contactStore.replies(site.message.id);

test.each(['carla', 'olga', 'ernesto'])(
  '%s (not an administrator) can neither read, answer, archive nor delete a message through the API',
  async (userName) => {
    const site = await inbox();
    const auth = { Authorization: `Bearer ${await loginToken(site.app, userName)}` };
    const id = site.message.id;
    expect((await request(site.app).get('/api/admin/messages').set(auth)).status).toBe(403);
    expect((await request(site.app).get(`/api/admin/messages/${id}`).set(auth)).status).toBe(403);
    expect((await request(site.app).post(`/api/admin/messages/${id}/replies`).set(auth).send({ text: 'Hola' })).status).toBe(403);
    expect((await request(site.app).patch(`/api/admin/messages/${id}`).set(auth).send({ archived: true })).status).toBe(403);
    expect((await request(site.app).delete(`/api/admin/messages/${id}`).set(auth)).status).toBe(403);
    expect(await replies(site)).toEqual([]);
    expect((await site.contactStore.get(id))?.status).toBe('new');
  },
);

test('a signed-out visitor gets 401 from every inbox action, and nothing changes', async () => {
  const site = await inbox();
  const id = site.message.id;
  expect((await request(site.app).post(`/api/admin/messages/${id}/replies`).send({ text: 'Hola' })).status).toBe(401);
  expect((await request(site.app).patch(`/api/admin/messages/${id}`).send({ archived: true })).status).toBe(401);
  expect((await request(site.app).delete(`/api/admin/messages/${id}`)).status).toBe(401);
  expect(await replies(site)).toEqual([]);
});

test('a client posting the console page’s reply form is sent to their own area and nothing is sent or stored', async () => {
  const site = await inbox();
  const cookie = await signIn(site.app, 'carla');
  const posted = await request(site.app)
    .post('/admin/inbox')
    .set('Origin', ORIGIN)
    .set('Cookie', cookie)
    .type('form')
    .send({ intent: 'reply', id: String(site.message.id), text: 'Hola' });
  // The role guard sends a client to their own area, as for the page itself: nothing is done.
  expect(posted.status).toBe(303);
  expect(posted.headers.location).toBe('/client');
  expect(await replies(site)).toEqual([]);
  await site.mail.flush();
  expect(site.smtp.messages).toHaveLength(0);
});

test('a reply form posted from another site with the admin’s cookie is refused (CSRF) and nothing is sent', async () => {
  const site = await inbox();
  const cookie = await signIn(site.app, 'rosa');
  for (const origin of ['https://evil.example', null]) {
    const req = request(site.app).post('/admin/inbox').set('Cookie', cookie).type('form');
    if (origin) req.set('Origin', origin);
    const posted = await req.send({ intent: 'reply', id: String(site.message.id), text: 'Phishing' });
    expect(posted.status, `Origin ${origin}`).toBe(403);
  }
  const api = await request(site.app)
    .post(`/api/admin/messages/${site.message.id}/replies`)
    .set('Cookie', cookie)
    .set('Origin', 'https://evil.example')
    .send({ text: 'Phishing' });
  expect(api.status).toBe(403);
  expect(await replies(site)).toEqual([]);
});

test('a reply past REPLY_MAX_LENGTH, an empty one, an unknown message and an unknown change are refused, naming the problem', async () => {
  const site = await inbox();
  const auth = { Authorization: `Bearer ${await loginToken(site.app, 'rosa')}` };
  const id = site.message.id;
  const long = await request(site.app)
    .post(`/api/admin/messages/${id}/replies`)
    .set(auth)
    .send({ text: 'x'.repeat(REPLY_MAX_LENGTH + 1) });
  expect(long.status).toBe(400);
  expect(long.body.error.message).toMatch(/text/);
  expect((await request(site.app).post(`/api/admin/messages/${id}/replies`).set(auth).send({ text: '   ' })).status).toBe(400);
  expect((await request(site.app).post('/api/admin/messages/999999/replies').set(auth).send({ text: 'Hola' })).status).toBe(404);
  expect((await request(site.app).post('/api/admin/messages/1e3/replies').set(auth).send({ text: 'Hola' })).status).toBe(404);
  const unknown = await request(site.app).patch(`/api/admin/messages/${id}`).set(auth).send({ status: 'spam' });
  expect(unknown.status).toBe(400);
  expect(unknown.body.error.message).toMatch(/status/);
  expect(await replies(site)).toEqual([]);
});

test('a reply holding markup and header lines reaches the sender as text: no HTML of it, no extra header, one recipient', async () => {
  const site = await inbox();
  const auth = { Authorization: `Bearer ${await loginToken(site.app, 'rosa')}` };
  const text = 'Hola <script>alert(1)</script>\r\nBcc: victim@example.org\r\n\r\n<img src=x onerror=alert(2)>';
  const sent = await request(site.app).post(`/api/admin/messages/${site.message.id}/replies`).set(auth).send({ text });
  expect(sent.status, sent.text).toBe(201);
  await site.mail.flush();
  const [received] = await site.smtp.waitFor(1);
  expect(received!.envelope.to).toEqual(['lucia@example.com']);
  expect(received!.headers.get('bcc')).toBeUndefined();
  expect(received!.html || '').not.toContain('<script>alert(1)</script>');
  expect(received!.html || '').not.toContain('<img src=x');
  // The console shows it escaped too.
  const page = await request(site.app)
    .get(`/admin/inbox?message=${site.message.id}`)
    .set('Cookie', await signIn(site.app, 'rosa'));
  expect(page.text).not.toContain('<script>alert(1)</script>');
});

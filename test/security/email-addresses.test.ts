// Finding 9 (low): an e-mail such as client@example.com?bcc=attacker@evil.example passed the
// contact form, and the inbox built a mailto: link from it, so the admin's reply went to the
// attacker too. Every door now takes one address and nothing else, and links are encoded.
import request from 'supertest';
import { expect, test } from 'vitest';
import { deriveKey } from '../../server/auth/keys.ts';
import { createUser } from '../../server/users/users.ts';
import { createFormTokens } from '../../server/contact/form-token.ts';
import { isEmailAddress, mailtoHref } from '../../shared/validation.ts';
import { createTestApp, ORIGIN, TEST_SESSION_SECRET } from '../helpers/app.ts';
import { loginToken } from '../helpers/users.ts';

const HOSTILE = [
  'client@example.com?bcc=attacker%40evil.example',
  'client@example.com?subject=x&body=y',
  'client@example.com&cc=attacker%40evil.example',
  'client@example.com;x',
  'client@example.com,x',
  'client@example.com%0d%0abcc:attacker%40evil.example',
  'client@example.com?bcc=attacker@evil.example',
  'client@example.com&bcc=attacker@evil.example',
  'client@example.com,attacker@evil.example',
  'client@example.com;attacker@evil.example',
  'client@example.com attacker@evil.example',
  'client@example.com\nBcc: attacker@evil.example',
  'client@example.com\r\nBcc: attacker@evil.example',
  'client@example.com%0aBcc:attacker@evil.example',
  '"client@example.com"@evil.example',
  'Client <client@example.com>',
  'client@@example.com',
  'client@example.com@evil.example',
  '.client@example.com',
  'client.@example.com',
  'cli..ent@example.com',
  'client@example',
  'client@-example.com',
  'client@example.c',
  'client@example.com.',
  'client@[127.0.0.1]',
  'javascript:alert(1)//@example.com',
  `${'a'.repeat(65)}@example.com`,
];

const GOOD = [
  'ana@example.com',
  'ana.ruiz+web@sub.example.co.uk',
  "o'neil@example.ie",
  'josé@españa.es',
  'info@xn--espaa-rta.es',
  'A_B-c%d@EXAMPLE.COM',
];

test.each(HOSTILE)('the address %j is not one e-mail address', (email) => {
  expect(isEmailAddress(email)).toBe(false);
});

test.each(GOOD)('the address %j is accepted', (email) => {
  expect(isEmailAddress(email)).toBe(true);
});

test.each(HOSTILE.slice(0, 10))('the contact form refuses %j and stores nothing', async (email) => {
  const { app, contactStore } = await createTestApp();
  const formToken = createFormTokens(deriveKey(TEST_SESSION_SECRET, 'contact form v1'), () => Date.now() - 10_000).issue();
  const res = await request(app)
    .post('/en/Contact')
    .set('Origin', ORIGIN)
    .set('Accept', 'application/json')
    .type('form')
    .send({ name: 'Mallory', email, subject: 'Hello', message: 'Please answer this message.', consent: 'yes', formToken });
  expect(res.status).toBe(422);
  expect(res.body.form.error.fields.email).toBe('validation.invalidEmail');
  expect(await contactStore.all()).toHaveLength(0);
});

test('an admin cannot create a user with a smuggled address, through the API or the ops CLI’s store', async () => {
  const { app, db } = await createTestApp();
  await createUser(db, { userName: 'root', password: 'correct horse battery', role: 'ADMIN', name: 'Root', lastName: 'Admin' });
  const token = await loginToken(app, 'root');
  const res = await request(app)
    .post('/api/admin/users')
    .set('Authorization', `Bearer ${token}`)
    .send({ userName: 'mallory', name: 'M', lastName: 'M', role: 'CLI', email: HOSTILE[0], password: 'correct horse battery' });
  expect(res.status).toBe(400);
  expect(res.body.error.fields.email).toBeDefined();
  await expect(
    createUser(db, { userName: 'mallory', password: 'correct horse battery', role: 'CLI', name: 'M', lastName: 'M', email: HOSTILE[0] }),
  ).rejects.toMatchObject({ status: 400 });
});

test('the inbox’s reply link names one recipient whatever was stored, with the subject encoded', () => {
  expect(mailtoHref('ana@example.com', 'Re: Hola & adiós?')).toBe('mailto:ana@example.com?subject=Re%3A%20Hola%20%26%20adi%C3%B3s%3F');
  // Even an address stored before this rule cannot add headers to the link.
  const href = mailtoHref('client@example.com?bcc=attacker@evil.example', 'Re: x');
  expect(new URL(href).searchParams.getAll('bcc')).toEqual([]);
  expect(href.startsWith('mailto:client%40example.com%3Fbcc%3Dattacker@evil.example?subject=')).toBe(true);
});

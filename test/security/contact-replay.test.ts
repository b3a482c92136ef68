// Finding 7 (low): one contact form token sent 200 messages, and tokens never expired. The
// attack: load the form once, keep its token, post it again and again (and years later).
import request from 'supertest';
import { expect, test } from 'vitest';
import { deriveKey } from '../../server/auth/keys.ts';
import { createFormTokens, FORM_TOKEN_MAX_AGE_MS } from '../../server/contact/form-token.ts';
import { createTestApp, ORIGIN, TEST_SESSION_SECRET } from '../helpers/app.ts';

/** A genuine token of this site, issued `ageMs` ago (signed with the site's own key). */
const tokenAged = (ageMs: number) => createFormTokens(deriveKey(TEST_SESSION_SECRET, 'contact form v1'), () => Date.now() - ageMs).issue();

const MESSAGE = {
  name: 'Mallory',
  email: 'mallory@example.com',
  subject: 'Buy now',
  message: 'The same message, posted again and again.',
  consent: 'yes',
};

test('a contact form token sends one message: replaying it is refused (409) and stores nothing', async () => {
  const { app, contactStore } = await createTestApp({ CONTACT_MAX_PER_IP: '1000' });
  const formToken = tokenAged(10_000);
  const answers = [];
  for (let i = 0; i < 20; i++) {
    answers.push(
      await request(app)
        .post('/en/Contact')
        .set('Origin', ORIGIN)
        .set('Accept', 'application/json')
        .type('form')
        .send({ ...MESSAGE, formToken }),
    );
  }
  expect(answers[0]!.status).toBe(200);
  expect(answers[0]!.body).toMatchObject({ ok: true });
  for (const replay of answers.slice(1)) {
    expect(replay.status).toBe(409);
    expect(replay.body.form.error.code).toBe('form_used');
  }
  expect(await contactStore.all()).toHaveLength(1);
});

test('replays sent in parallel still store one message', async () => {
  const { app, contactStore } = await createTestApp({ CONTACT_MAX_PER_IP: '1000' });
  const formToken = tokenAged(10_000);
  const answers = await Promise.all(
    Array.from({ length: 10 }, () =>
      request(app)
        .post('/Contact')
        .set('Origin', ORIGIN)
        .type('form')
        .send({ ...MESSAGE, formToken }),
    ),
  );
  expect(answers.filter((a) => a.status === 303)).toHaveLength(1);
  expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
  expect(await contactStore.all()).toHaveLength(1);
});

test('a token older than its lifetime is refused as expired, without JavaScript too', async () => {
  const { app, contactStore } = await createTestApp();
  const stale = tokenAged(FORM_TOKEN_MAX_AGE_MS + 60_000);
  const res = await request(app)
    .post('/en/Contact')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ ...MESSAGE, formToken: stale });
  expect(res.status).toBe(400);
  expect(res.text).toContain('The form has expired. Reload the page and send it again.');
  expect(await contactStore.all()).toHaveLength(0);
  // The page shown again carries a fresh token that works.
  const fresh = /name="formToken" value="([^"]+)"/.exec(res.text)![1]!;
  expect(fresh).not.toBe(stale);
});

test('a token dated in the future (a forged clock) is refused', async () => {
  const { app, contactStore } = await createTestApp();
  const res = await request(app)
    .post('/en/Contact')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ ...MESSAGE, formToken: tokenAged(-60_000) });
  expect(res.status).toBe(400);
  expect(await contactStore.all()).toHaveLength(0);
});

// The language of a user's e-mails is the locale they last used: recorded at sign-in and when a
// signed-in page is shown in another locale than this process last saw (a page view is not a write).
import request from 'supertest';
import { expect, test } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';
import { scaled } from '../helpers/time-scale.ts';

async function storedLocale(db: Db, userName: string) {
  return db.k.selectFrom('user_locales').select(['locale', 'updated_at']).where('user_name', '=', userName).executeTakeFirst();
}

/** Page views record in the background: wait for the row to say `locale`. */
async function eventually(db: Db, userName: string, locale: string) {
  await expect
    .poll(async () => (await storedLocale(db, userName))?.locale, {
      timeout: scaled(5_000),
      interval: 10,
      message: `the locale of ${userName}`,
    })
    .toBe(locale);
  return storedLocale(db, userName);
}

test('signing in records the locale of the login form; a signed-in page in the other locale records that one; a page in the same locale writes nothing', async () => {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'rita', role: 'CLI' });
  const login = await request(app)
    .post('/en/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: 'Rita', password: DEFAULT_PASSWORD });
  expect(login.status).toBe(303);
  const cookie = ([] as string[])
    .concat(login.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('auth._token.local=') && !c.startsWith('auth._token.local=;'))!
    .split(';')[0]!;
  expect((await storedLocale(db, 'rita'))?.locale).toBe('en');

  expect((await request(app).get('/client').set('Cookie', cookie)).status).toBe(200);
  const spanish = await eventually(db, 'rita', 'es');

  await new Promise((resolve) => setTimeout(resolve, 20)); // a write now would carry a later time
  expect((await request(app).get('/es/client').set('Cookie', cookie)).status).toBe(200);
  expect(
    (
      await request(app)
        .get(`/_data?path=${encodeURIComponent('/client')}`)
        .set('Cookie', cookie)
    ).status,
  ).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await storedLocale(db, 'rita')).toEqual(spanish);

  // A client navigation (/_data) counts like a page load.
  expect(
    (
      await request(app)
        .get(`/_data?path=${encodeURIComponent('/en/client')}`)
        .set('Cookie', cookie)
    ).status,
  ).toBe(200);
  await eventually(db, 'rita', 'en');
});

test('a visitor who is not signed in records nothing', async () => {
  const { app, db } = await createTestApp();
  expect((await request(app).get('/en')).status).toBe(200);
  expect(await db.k.selectFrom('user_locales').selectAll().execute()).toEqual([]);
});

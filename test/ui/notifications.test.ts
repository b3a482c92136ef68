// The notifications page and My Profile's calendar address without JavaScript, on the app in
// this process (docs/decisions/042, 043, 047): a notification is marked read with a form post,
// and the calendar address is renewed with one (the old address then answers 404). The live
// updates across two instances, the bell at 390 px, the address made with JavaScript and
// axe-core are test/e2e/live.test.ts's.
import { within } from '@testing-library/dom';
import request from 'supertest';
import { expect, test } from 'vitest';
import { seedDemoProjects } from '../../server/projects/demo.ts';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser, textOf } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD, loginToken } from '../helpers/users.ts';

const ADMIN = { role: 'ADMIN' as const, userName: 'lv-admin', name: 'Adela', lastName: 'Gestora' };
const CLIENT = { role: 'CLI' as const, userName: 'lv-client', name: 'Carla', lastName: 'Cliente' };
const ORG = { role: 'ORG' as const, userName: 'lv-org', name: 'Olga', lastName: 'Organización' };
const EXPERT = { role: 'CONS' as const, userName: 'lv-expert', name: 'Ernesto', lastName: 'Experto' };

/** The app with the demo projects of these four people. */
async function demoSite() {
  const site = await createTestApp();
  for (const user of [ADMIN, CLIENT, ORG, EXPERT]) await addUser(site.db, user);
  await seedDemoProjects(site.db, { admin: ADMIN.userName, client: CLIENT.userName, org: ORG.userName, expert: EXPERT.userName });
  return site;
}

test('without JavaScript a notification is marked read with a form post, and the page says so', async () => {
  const { app } = await demoSite();
  // The admin writes in the organisation's project in progress: the organisation is notified.
  const org = await loginToken(app, ORG.userName);
  const projects = await request(app).get('/api/projects?status=active').set('Authorization', `Bearer ${org}`);
  const id = (projects.body as { items: { id: number }[] }).items[0]!.id;
  const posted = await request(app)
    .post(`/api/projects/${id}/messages`)
    .set('Authorization', `Bearer ${await loginToken(app, ADMIN.userName)}`)
    .send({ body: 'Seen without JavaScript' });
  expect(posted.status, posted.text).toBe(201);

  const browser = plainBrowser(app);
  await browser.signIn(ORG.userName, DEFAULT_PASSWORD, '/login');
  let page = await browser.open('/notifications');
  const unread = () => [...page.document.querySelectorAll('.notification-unread')];
  expect(textOf(unread()[0])).toContain('ha escrito en');
  expect(unread()[0]!.querySelector('a')?.getAttribute('href')).toBe(`/organization/projects/${id}`);
  page = await browser.submit(
    page,
    within(page.document.body).getAllByRole('button', { name: 'Marcar como leída' })[0] as HTMLButtonElement,
  );
  expect(page.url.search).toMatch(/done=read/);
  expect(unread()).toHaveLength(0);
  expect(textOf(page.document.body)).toContain('Notificación marcada como leída.');
});

test('without JavaScript the calendar address is renewed with a form post, and the old one stops working', async () => {
  const { app } = await demoSite();
  const browser = plainBrowser(app);
  await browser.signIn(EXPERT.userName, DEFAULT_PASSWORD);
  let page = await browser.open('/en/profile');
  page = await browser.submit(
    page,
    within(page.document.body).getByRole('button', { name: 'Make my calendar address' }) as HTMLButtonElement,
  );
  const first = page.document.querySelector<HTMLInputElement>('#calendar-url')!.value;
  expect(first).toMatch(/\/calendar\/\d+-[A-Za-z0-9_-]{43}\.ics$/);
  const feed = await browser.get(new URL(first).pathname);
  expect(feed.status).toBe(200);
  expect(feed.body.toString('utf8')).toContain('BEGIN:VCALENDAR');

  page = await browser.submit(
    page,
    within(page.document.body).getByRole('button', { name: 'Make a new address (the old one stops working)' }) as HTMLButtonElement,
  );
  expect(page.url.search).toMatch(/saved=calendarRenew/);
  const renewed = page.document.querySelector<HTMLInputElement>('#calendar-url')!.value;
  expect(renewed).not.toBe(first);
  expect((await browser.get(new URL(first).pathname)).status).toBe(404);
  expect(textOf(page.document.body)).toContain('A new address is ready; the old one no longer works.');
});

// The admin's contact inbox without JavaScript, read from the app's server-rendered HTML
// (docs/decisions/047): the views and the pager are links, a message opens with a link, and its
// reply, archive, unread and delete are form posts; times are the company's (Madrid), rendered
// on the server; "invite as client" opens the new-user form filled in; the navbar's badge counts
// the new messages. The same inbox with JavaScript, in Chromium, is test/e2e/admin-inbox.test.ts.
import { within } from '@testing-library/dom';
import request from 'supertest';
import { expect, onTestFinished, test } from 'vitest';
import type { NewMessage } from '../../server/contact/messages.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { plainBrowser, textOf, type PlainPage } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';

const JANA: NewMessage = {
  name: 'Jana Novák',
  email: 'jana.novak@example.com',
  company: 'Novák Data s.r.o.',
  subject: 'A data platform',
  message: 'Hello,\nwe would like to talk about a data platform.',
  locale: 'en',
  ip: null,
};

/** An app with an admin (Rosa Admin), a client, and `count` messages (the newest last, a minute apart); a browser signed in as the admin. */
async function inboxSite(count = 1) {
  const site = await createTestApp();
  await addUser(site.db, { userName: 'rosa', role: 'ADMIN', name: 'Rosa', lastName: 'Admin' });
  await addUser(site.db, { userName: 'carla', role: 'CLI', name: 'Carla', lastName: 'Cliente' });
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const message = await site.contactStore.add({ ...JANA, subject: i === count - 1 ? JANA.subject : `Question ${i + 1}` }, false);
    await site.db.k
      .updateTable('contact_messages')
      .set({ created_at: new Date(Date.parse('2026-01-15T21:00:00.000Z') + i * 60_000).toISOString() })
      .where('id', '=', message.id)
      .execute();
    ids.push(message.id);
  }
  const browser = plainBrowser(site.app, { acceptLanguage: 'en' });
  await browser.signIn('rosa', DEFAULT_PASSWORD);
  return { ...site, browser, ids };
}

function inboxOf(page: PlainPage) {
  return within(within(page.document.body).getByRole('region', { name: /^Contact inbox/ }));
}

function rowsOf(page: PlainPage): string[] {
  return [...page.document.querySelectorAll('.admin-inbox-table tbody tr')].map((row) => textOf(row.querySelector('a')));
}

/** The open message's facts, by their names. */
function factsOf(page: PlainPage): Record<string, string> {
  const names = [...page.document.querySelectorAll('.admin-inbox-meta dt')].map(textOf);
  const values = [...page.document.querySelectorAll('.admin-inbox-meta dd')].map(textOf);
  return Object.fromEntries(names.map((name, i) => [name, values[i]!]));
}

function detailOf(page: PlainPage) {
  const section = page.document.getElementById('inbox-message');
  expect(section, 'a message is open').not.toBeNull();
  return within(section as HTMLElement);
}

test('without JavaScript the inbox shows one view at a time and pages with links', async () => {
  const { browser, contactStore, ids } = await inboxSite(23);
  await contactStore.setArchived(ids[0]!, true);
  let page = await browser.open('/en/admin/inbox');
  const views = within(inboxOf(page).getByRole('navigation', { name: 'Messages to show' }));
  expect(views.getAllByRole('link').map(textOf)).toEqual(['Inbox (22)', 'New (22)', 'Answered (0)', 'Archived (1)', 'All (23)']);
  expect(textOf(page.document.querySelector('.admin-inbox-views [aria-current="page"]'))).toBe('Inbox (22)');
  expect(textOf(page.document.querySelector('.admin-summary'))).toBe('22 messages.');
  expect(rowsOf(page)).toHaveLength(20);
  expect(rowsOf(page)[0]).toMatch(/^A data platform/);
  page = await browser.follow(page, inboxOf(page).getByRole('link', { name: 'Next page' }));
  expect(page.url.search).toBe('?page=2');
  expect(rowsOf(page)).toHaveLength(2);
  page = await browser.follow(page, inboxOf(page).getByRole('link', { name: 'Archived (1)' }));
  expect(page.url.search).toBe('?status=archived');
  expect(rowsOf(page).map((text) => text.split(' (')[0])).toEqual(['Question 1']);
  expect(textOf(page.document.querySelector('.admin-inbox-table .badge-status'))).toBe('Archived');
});

test('the time a message arrived is the company’s (Madrid), rendered on the server, whatever the server’s zone', async () => {
  const { browser, ids } = await inboxSite(1);
  // The server's own zone is another one (Node reads TZ again when it changes).
  const zone = process.env.TZ;
  process.env.TZ = 'America/Los_Angeles';
  onTestFinished(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });
  expect(new Date('2026-01-15T21:00:00.000Z').getHours()).toBe(13);
  // 21:00 UTC on 15 January is 22:00 in Madrid (UTC+1 in winter).
  const page = await browser.open(`/en/admin/inbox?message=${ids[0]}`);
  expect(textOf(page.document.querySelector('.admin-inbox-table time'))).toBe('January 15, 2026 at 10:00 PM');
  expect(page.document.querySelector('.admin-inbox-table time')?.getAttribute('datetime')).toBe('2026-01-15T21:00:00.000Z');
  const spanish = await browser.open(`/admin/inbox?message=${ids[0]}`);
  expect(textOf(spanish.document.querySelector('.admin-inbox-meta time'))).toBe('15 de enero de 2026, a las 22:00');
});

test('without JavaScript a message opens with a link and is read; a reply is a form post, kept with who and when, and the message is answered', async () => {
  const { browser, contactStore, db, ids } = await inboxSite(1);
  let page = await browser.open('/en/admin/inbox');
  expect(page.document.querySelector('.admin-inbox-table tbody tr')?.className).toContain('admin-inbox-unread');
  page = await browser.follow(page, inboxOf(page).getByRole('link', { name: /^A data platform/ }));
  expect(page.url.hash).toBe('#inbox-message');
  const detail = detailOf(page);
  expect(detail.getByRole('heading', { level: 3 }).textContent).toBe(JANA.subject);
  expect(factsOf(page)).toMatchObject({ Name: JANA.name, Company: JANA.company, Status: 'New', Language: 'English' });
  expect(detail.getByText('No reply has been sent from here yet.')).toBeTruthy();
  expect((await contactStore.get(ids[0]!))?.read).toBe(true);
  expect(page.document.querySelector('.admin-inbox-table tbody tr')?.className).toContain('admin-inbox-read');

  const reply = detail.getByLabelText('Your reply to Jana Novák') as HTMLTextAreaElement;
  reply.value = 'Dear Jana,\nwe can talk on Monday.';
  page = await browser.submit(page, detail.getByRole('button', { name: 'Send reply' }) as HTMLButtonElement);
  expect(page.redirects.map((hop) => hop.status)).toEqual([303]);
  expect(page.url.searchParams.get('done')).toBe('reply');
  expect(textOf(page.document.querySelector('.admin-notice'))).toBe('Your reply is on its way to the sender.');
  const replies = [...page.document.querySelectorAll('.admin-inbox-reply')];
  expect(replies).toHaveLength(1);
  expect(textOf(replies[0]!.querySelector('.admin-inbox-reply-meta'))).toMatch(
    /^Rosa Admin replied on \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2}\s?[AP]M · E-mail on its way$/,
  );
  expect(textOf(replies[0]!.querySelector('.admin-inbox-text'))).toBe('Dear Jana, we can talk on Monday.');
  expect(factsOf(page).Status).toBe('Answered');
  expect((await db.k.selectFrom('mail_outbox').select(['recipient', 'subject']).execute()).map((mail) => mail.recipient)).toEqual([
    JANA.email,
  ]);
});

test('without JavaScript a refused reply comes back with the message open, what was typed, and the field’s error', async () => {
  const { browser, db, ids } = await inboxSite(1);
  let page = await browser.open(`/en/admin/inbox?message=${ids[0]}`);
  const reply = detailOf(page).getByLabelText('Your reply to Jana Novák') as HTMLTextAreaElement;
  reply.value = '   ';
  page = await browser.submit(page, detailOf(page).getByRole('button', { name: 'Send reply' }) as HTMLButtonElement);
  expect(page.status).toBe(422);
  expect(textOf(page.document.querySelector('#inbox-message .field-error'))).toBe('This field is required.');
  expect(detailOf(page).getByRole('heading', { level: 3 }).textContent).toBe(JANA.subject);
  expect(await db.k.selectFrom('contact_replies').selectAll().execute()).toEqual([]);
});

test('without JavaScript a message is archived and taken back, marked unread, and deleted after a confirmation', async () => {
  const { browser, contactStore, ids } = await inboxSite(2);
  const [older, newest] = ids as [number, number];
  let page = await browser.open(`/en/admin/inbox?message=${newest}`);
  page = await browser.submit(page, detailOf(page).getByRole('button', { name: /^Archive/ }) as HTMLButtonElement);
  expect((await contactStore.get(newest))?.status).toBe('archived');
  expect(textOf(page.document.querySelector('.admin-notice'))).toBe('The message is archived.');
  // Out of the inbox's view, still open.
  expect(rowsOf(page)).toHaveLength(1);
  page = await browser.submit(page, detailOf(page).getByRole('button', { name: /^Back to the inbox/ }) as HTMLButtonElement);
  expect((await contactStore.get(newest))?.status).toBe('new');

  page = await browser.submit(page, detailOf(page).getByRole('button', { name: /^Mark as unread/ }) as HTMLButtonElement);
  expect((await contactStore.get(newest))?.read).toBe(false);
  expect(page.document.getElementById('inbox-message')).toBeNull();
  expect(textOf(page.document.querySelector('.admin-notice'))).toBe('The message is marked as unread.');

  page = await browser.open(`/en/admin/inbox?message=${older}`);
  page = await browser.follow(page, detailOf(page).getByRole('link', { name: /^Delete…/ }));
  expect(page.url.searchParams.get('confirm')).toBe('delete');
  expect(await contactStore.get(older)).not.toBeNull();
  const confirm = within(page.document.querySelector('.admin-inbox-confirm') as HTMLElement);
  expect(textOf(page.document.querySelector('.admin-inbox-confirm'))).toContain(
    `The message from ${JANA.name} (${JANA.email}) will be deleted permanently`,
  );
  page = await browser.submit(page, confirm.getByRole('button', { name: 'Delete' }) as HTMLButtonElement);
  expect(await contactStore.get(older)).toBeNull();
  expect(textOf(page.document.querySelector('.admin-notice'))).toBe('The message has been deleted.');
  expect(rowsOf(page)).toHaveLength(1);
});

test('“invite as client” opens the new-user form, filled in from the message: name, last name, e-mail, company, its language', async () => {
  const { browser, ids } = await inboxSite(1);
  let page = await browser.open(`/en/admin/inbox?message=${ids[0]}`);
  page = await browser.follow(page, detailOf(page).getByRole('link', { name: /^Invite as client/ }));
  expect(page.url.pathname + page.url.search).toBe(`/en/admin/users?invite=${ids[0]}`);
  const disclosure = page.document.querySelector('details.admin-new-user') as HTMLDetailsElement;
  expect(disclosure.hasAttribute('open')).toBe(true);
  const form = within(disclosure);
  const value = (label: string) => (form.getByLabelText(label) as HTMLInputElement).value;
  expect(value('User name')).toBe('jana.novak');
  expect(value('Email')).toBe(JANA.email);
  expect(value('Name')).toBe('Jana');
  expect(value('Last name')).toBe('Novák');
  expect(value('Company (optional)')).toBe(JANA.company);
  expect(textOf(form.getByLabelText('Role').querySelector('option[selected]'))).toBe('Client');
  expect((form.getByLabelText('Invite by e-mail') as HTMLInputElement).checked).toBe(true);
  expect(form.getByLabelText('Language of the invitation').querySelector('option[selected]')?.getAttribute('value')).toBe('en');
});

test('an admin’s navbar badge counts the new contact messages; a client’s does not', async () => {
  const { app, browser } = await inboxSite(3);
  const page = await browser.open('/en/admin/inbox');
  const area = page.document.querySelector('.navbar-cta .navbar-unread');
  expect(textOf(area?.querySelector('[aria-hidden="true"]'))).toBe('3');
  expect(textOf(area?.querySelector('.visually-hidden'))).toBe('3 new contact messages');
  const client = plainBrowser(app, { acceptLanguage: 'en' });
  const home = await client.signIn('carla', DEFAULT_PASSWORD);
  expect(home.document.querySelector('.navbar-cta .navbar-unread')).toBeNull();
});

test('the inbox’s forms are an admin’s: a client’s post is refused and changes nothing', async () => {
  const { app, contactStore, ids } = await inboxSite(1);
  const client = plainBrowser(app, { acceptLanguage: 'en' });
  await client.signIn('carla', DEFAULT_PASSWORD);
  const res = await request(app)
    .post('/en/admin/inbox')
    .set('Origin', ORIGIN)
    .set('Cookie', [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '))
    .set('Accept', 'application/json')
    .type('form')
    .send({ intent: 'archive', id: String(ids[0]) });
  expect(res.status).toBe(403);
  expect(res.body.form.error.code).toBe('forbidden');
  expect((await contactStore.get(ids[0]!))?.status).toBe('new');
});

test('the inbox speaks Spanish on /admin/inbox', async () => {
  const { browser, ids } = await inboxSite(1);
  const page = await browser.open(`/admin/inbox?message=${ids[0]}`);
  const inbox = within(within(page.document.body).getByRole('region', { name: /^Buzón de contacto/ }));
  expect(inbox.getByRole('navigation', { name: 'Mensajes que mostrar' })).toBeTruthy();
  expect(textOf(page.document.querySelector('.admin-inbox-table .badge-status'))).toBe('Nuevo');
  expect(inbox.getByRole('button', { name: 'Enviar respuesta' })).toBeTruthy();
  expect(inbox.getByRole('link', { name: /^Invitar como cliente/ })).toBeTruthy();
});

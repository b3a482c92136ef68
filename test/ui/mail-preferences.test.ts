// "E-mail notifications" on My Profile and a notice's one-click unsubscribe link, without
// JavaScript, on the app in this process (docs/decisions/047): the choices per topic are saved
// by a form post and shown again; a refused number of days names the problem by its field; the
// List-Unsubscribe link, opened without signing in, asks first and then turns that topic off —
// which the profile shows. With JavaScript, the layout at 1366 and 390 px and axe-core are
// test/e2e/mail-preferences.test.ts's.
import { within } from '@testing-library/dom';
import request from 'supertest';
import { expect, test } from 'vitest';
import { accountsSite, mailsTo } from '../account-links/setup.ts';
import { plainBrowser, textOf, type PlainPage } from '../helpers/plain-browser.ts';
import { scaled } from '../helpers/time-scale.ts';
import { DEFAULT_PASSWORD, loginToken } from '../helpers/users.ts';

const PEOPLE = [
  { role: 'ADMIN' as const, userName: 'ada', name: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  { role: 'CLI' as const, userName: 'carla', name: 'Carla', lastName: 'Cliente', email: 'carla@example.com' },
];

const section = (page: PlainPage) => page.document.querySelector<HTMLElement>('section[aria-labelledby="mail-title"]')!;
function topic(page: PlainPage, legend: string): HTMLElement {
  const found = [...section(page).querySelectorAll<HTMLElement>('fieldset')].find((f) =>
    textOf(f.querySelector('legend')).includes(legend),
  );
  expect(found, `the topic “${legend}”`).toBeTruthy();
  return found!;
}
const checked = (page: PlainPage, legend: string) => topic(page, legend).querySelector<HTMLInputElement>('input:checked')?.value;
const choose = (page: PlainPage, legend: string, option: string) =>
  ((within(topic(page, legend)).getByLabelText(option) as HTMLInputElement).checked = true);
const days = (page: PlainPage) =>
  within(section(page)).getByLabelText('Remind me this many days before a milestone is due') as HTMLInputElement;
const save = (page: PlainPage) => within(section(page)).getByRole('button', { name: 'Save my e-mail choices' }) as HTMLButtonElement;

test(
  'without JavaScript the e-mail choices are saved per topic and shown again; a bad number of days is refused by name',
  { timeout: scaled(30_000) },
  async () => {
    const site = await accountsSite({ users: PEOPLE });
    const browser = plainBrowser(site.app);
    await browser.signIn('carla', DEFAULT_PASSWORD);
    let page = await browser.open('/en/profile');
    // Everything at once until the user chooses.
    for (const legend of ['New messages', 'New documents', 'Reminders of milestones due and overdue'])
      expect(checked(page, legend)).toBe('immediate');
    expect(textOf(section(page))).toContain('are always sent');

    // 0 days: refused, the field says why, nothing saved.
    choose(page, 'New messages', 'Daily summary');
    days(page).value = '0';
    page = await browser.submit(page, save(page));
    expect(textOf(section(page).querySelector('#mail-reminderDays-error'))).toBe('Enter a whole number of days from 1 to 30.');
    expect(days(page).getAttribute('aria-invalid')).toBe('true');
    // The error and the hint both describe the field.
    expect(days(page).getAttribute('aria-describedby')?.split(' ').sort()).toEqual(['mail-reminderDays-error', 'mail-reminderDays-hint']);

    choose(page, 'New messages', 'Daily summary');
    choose(page, 'New documents', 'Never');
    days(page).value = '5';
    page = await browser.submit(page, save(page));
    expect(within(section(page)).getAllByRole('status').map(textOf)).toContain('Your e-mail choices are saved.');

    // Read again from the server.
    page = await browser.open('/en/profile');
    expect(checked(page, 'New messages')).toBe('digest');
    expect(checked(page, 'New documents')).toBe('never');
    expect(checked(page, 'Changes of state (briefs, proposals, experts, deliveries)')).toBe('immediate');
    expect(days(page).value).toBe('5');
  },
);

test(
  "without JavaScript a notice's unsubscribe link, opened without signing in, asks first, then stops that topic only",
  { timeout: scaled(30_000) },
  async () => {
    const site = await accountsSite({ users: PEOPLE });
    const brief = await request(site.app)
      .post('/api/projects')
      .set('Authorization', `Bearer ${await loginToken(site.app, 'carla')}`)
      .send({ title: 'Shop figures B', description: 'One place for the figures of our shops.', practice: 'data' });
    expect(brief.status, brief.text).toBe(201);
    // The admin is told of the brief (a "changes of state" notice), with a one-click link.
    await site.jobs.tick();
    await site.mail.flush();
    const mail = mailsTo(site, 'ada@example.com').find((m) => m.subject?.includes('Shop figures B'));
    expect(mail).toBeTruthy();
    const list = mail!.headers.get('list') as { unsubscribe?: { url?: string }; 'unsubscribe-post'?: { name?: string } };
    expect(list['unsubscribe-post']?.name).toBe('List-Unsubscribe=One-Click');
    const url = new URL(list.unsubscribe!.url!);
    expect(url.pathname).toMatch(/^\/unsubscribe\/[A-Za-z0-9_-]+\.states\.[A-Za-z0-9_-]{43}$/);
    expect(mail!.text).toContain(list.unsubscribe!.url!);

    // A stranger's browser: no session.
    const stranger = plainBrowser(site.app);
    let page = await stranger.open(url.pathname);
    expect(page.status).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(textOf(page.document.querySelector('h1'))).toMatch(/Dejar de recibir estos correos|Stop these e-mails/);
    page = await stranger.submit(
      page,
      within(page.document.body).getByRole('button', { name: /Dejar de recibirlos|Stop these e-mails/ }) as HTMLButtonElement,
    );
    expect(textOf(page.document.querySelector('[role="status"]'))).toMatch(/Cambios de estado|Changes of state/);

    // The admin's profile: changes of state off, messages still at once.
    const admin = plainBrowser(site.app);
    await admin.signIn('ada', DEFAULT_PASSWORD);
    page = await admin.open('/en/profile');
    expect(checked(page, 'Changes of state (briefs, proposals, experts, deliveries)')).toBe('never');
    expect(checked(page, 'New messages')).toBe('immediate');
  },
);

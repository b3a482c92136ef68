// The admin's users console without JavaScript, read from the app's server-rendered HTML
// (docs/decisions/047): the search is a GET form and the pager a pair of links, so both work;
// every action stays off until the page has hydrated. The console with JavaScript (creating,
// finding, changing and paging in place, the field errors on screen) is in
// test/e2e/admin-users.test.ts.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser, textOf, type PlainPage } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD, userRow } from '../helpers/users.ts';

const PAGE_SIZE = 20;

/** Every enabled button of the console, those of the search form marked: the actions need JavaScript. */
function enabledButtons(page: PlainPage): string[] {
  return [...page.document.querySelectorAll<HTMLButtonElement>('.admin-console button')]
    .filter((button) => !button.disabled)
    .map((button) => `${button.closest('form[role="search"]') ? 'search: ' : ''}${textOf(button)}`);
}

test('without JavaScript the users page searches and pages, every action off', async () => {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'ada', role: 'ADMIN', name: 'Ada', lastName: 'Lovelace' });
  await addUser(db, { userName: 'carla', role: 'CLI', name: 'Carla', lastName: 'Cliente' });
  // More users than one page holds: two pages of 20.
  const fillers = Array.from({ length: PAGE_SIZE }, (_, i) =>
    userRow({ user_name: `filler${String(i + 1).padStart(2, '0')}`, role: 'CONS' }),
  );
  await db.k.insertInto('users').values(fillers).execute();
  const browser = plainBrowser(app);
  await browser.signIn('ada', DEFAULT_PASSWORD);

  let page = await browser.open('/en/admin/users');
  const users = () => within(within(page.document.body).getByRole('region', { name: 'Users' }));
  const rows = () => page.document.querySelectorAll('.admin-users-table tbody tr');
  const summary = () => textOf(page.document.querySelector('.admin-summary'));
  expect(rows()).toHaveLength(PAGE_SIZE);
  expect(summary()).toBe(`${PAGE_SIZE + 2} users.`);
  expect(page.document.querySelectorAll('.admin-console button').length).toBeGreaterThan(PAGE_SIZE * 3);
  expect(enabledButtons(page)).toEqual(['search: Search']);
  // "New user" is a native disclosure: its form is there, but off; so are a row's actions.
  expect(within(page.document.body).getByRole('button', { name: 'Create user' })).toHaveProperty('disabled', true);
  expect(users().getByRole('button', { name: 'Disable carla' })).toHaveProperty('disabled', true);

  // The pager is a pair of links: the server renders page 2.
  const pager = () => within(users().getByRole('navigation', { name: 'Pages of users' }));
  expect(pager().queryByRole('link', { name: 'Previous page' })).toBeNull();
  expect(pager().getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', true);
  page = await browser.follow(page, pager().getByRole('link', { name: 'Next page' }));
  expect(page.url.search).toBe('?page=2');
  expect(textOf(users().getByRole('navigation', { name: 'Pages of users' }))).toContain('Page 2 of 2');
  expect(rows()).toHaveLength(2);

  // The search is a GET form of the page's URL: Enter submits it, the server renders the match.
  const searchbox = users().getByRole('searchbox', { name: 'Search users' }) as HTMLInputElement;
  searchbox.value = 'carla';
  page = await browser.submit(page, searchbox.form!);
  expect(page.url.pathname).toBe('/en/admin/users');
  expect(page.url.searchParams.get('q')).toBe('carla');
  expect(summary()).toBe('1 user matches “carla”.');
  expect(rows()).toHaveLength(1);
  expect(textOf(rows()[0]!.querySelector('th'))).toBe('carla');
  expect(users().getByRole('searchbox', { name: 'Search users' })).toHaveProperty('value', 'carla');
  // The match's actions are off too.
  expect(page.document.querySelectorAll('.admin-console button').length).toBeGreaterThan(3);
  expect(enabledButtons(page)).toEqual(['search: Search']);
  // "Show all" is a link back to the whole list.
  page = await browser.follow(page, users().getByRole('link', { name: /^Show all/ }));
  expect(page.url.pathname + page.url.search).toBe('/en/admin/users');
  expect(rows()).toHaveLength(PAGE_SIZE);

  // What also works: the PDF report of the users, on the console's home.
  page = await browser.open('/en/admin');
  const reports = within(page.document.body)
    .getAllByRole('link', { name: /users/i })
    .filter((link) => link.hasAttribute('download'));
  expect(reports.map((link) => link.getAttribute('href'))).toEqual(['/en/documents/users.pdf']);
});

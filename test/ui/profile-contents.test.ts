// My Profile in sections a person can jump between, without JavaScript: "On this page" links to
// every section's heading, in the page's order, and lists each section the page shows.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';

test.each([
  { locale: 'es', login: '/login', profile: '/profile', nav: 'En esta página' },
  { locale: 'en', login: '/en/login', profile: '/en/profile', nav: 'On this page' },
])('$locale: "$nav" on My Profile links to each section heading, in the order of the page', async (l) => {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'olga', role: 'ORG', name: 'Olga', lastName: 'Organización' });
  const browser = plainBrowser(app);
  await browser.signIn('olga', DEFAULT_PASSWORD, l.login);
  const page = await browser.open(l.profile);
  const main = page.document.querySelector('main')!;
  const contents = within(main).getByRole('navigation', { name: l.nav });
  const targets = within(contents)
    .getAllByRole('link')
    .map((link) => link.getAttribute('href')!);
  expect(targets.length).toBeGreaterThanOrEqual(6);
  // Every section heading of the page is listed, and nothing else.
  const headings = [...main.querySelectorAll('section > h2[id]')].map((h2) => `#${h2.id}`);
  expect(targets).toEqual(headings);
  // Each link is named by words, and its section's heading is there to jump to.
  for (const link of within(contents).getAllByRole('link')) {
    expect(link.textContent?.trim()).not.toBe('');
    expect(page.document.querySelector(link.getAttribute('href')!)?.tagName).toBe('H2');
  }
});

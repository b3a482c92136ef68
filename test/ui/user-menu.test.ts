// The signed-in navbar's user menu without JavaScript, on the app in this process
// (docs/decisions/047): a native disclosure, closed until its button is pressed, holding My
// Profile (a link) and Log-Out (a form post that signs out). Its keyboard, its layout and axe-core
// are test/e2e/user-menu.test.ts's.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';

test.each([
  { locale: 'es', home: '/', profile: '/profile', login: '/login', nav: 'Principal', myProfile: 'Mi perfil', logout: 'Cerrar sesión' },
  { locale: 'en', home: '/en', profile: '/en/profile', login: '/en/login', nav: 'Main', myProfile: 'My Profile', logout: 'Log-Out' },
])('$locale: without JavaScript the user menu is a disclosure: My Profile is a link and Log-Out signs out', async (l) => {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'olga', role: 'ORG', name: 'Olga', lastName: 'Organización' });
  const browser = plainBrowser(app);
  await browser.signIn('olga', DEFAULT_PASSWORD, l.login);
  let page = await browser.open(l.profile);
  const menu = page.document.querySelector<HTMLDetailsElement>('details.navbar-user');
  // Closed until its button (the <summary>) is pressed: the browser shows its content then.
  expect(menu?.hasAttribute('open')).toBe(false);
  expect(menu?.querySelector('summary.navbar-user-button')).toBeTruthy();
  const navigation = within(within(page.document.body).getByRole('navigation', { name: l.nav }));
  expect(navigation.getByRole('link', { name: l.myProfile }).getAttribute('href')).toBe(l.profile);
  page = await browser.submit(page, navigation.getByRole('button', { name: l.logout }) as HTMLButtonElement);
  expect(page.url.pathname).toBe(l.home);
  expect(page.document.querySelectorAll('.navbar-user')).toHaveLength(0);
  // Signed out: the private area is a sign-in away again.
  expect((await browser.get(l.profile)).headers.location).toBe(l.login);
});

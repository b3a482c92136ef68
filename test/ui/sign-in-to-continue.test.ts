// A signed-out visitor sent from a private page to the login is told why, and after signing in
// is back on that page; a visitor who opens the login themselves is not told anything of the kind.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';

const CONTINUE = {
  es: 'Inicia sesión para continuar: después volverás a la página que querías abrir.',
  en: 'Sign in to continue: you will then be taken back to the page you wanted to open.',
};

test.each([
  { locale: 'es' as const, page: '/profile', login: '/login' },
  { locale: 'en' as const, page: '/en/profile', login: '/en/login' },
])('$locale: a private page sends a signed-out visitor to a login that says "sign in to continue", then back to it', async (l) => {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'olga', role: 'ORG', name: 'Olga', lastName: 'Organización' });
  const browser = plainBrowser(app);
  const login = await browser.open(l.page);
  expect(login.url.pathname).toBe(l.login);
  const notice = within(login.document.querySelector('main')!).getByText(CONTINUE[l.locale]);
  expect(notice.getAttribute('role')).toBe('status');
  // Signing in opens the page that was asked for, and the notice is gone with the remembered page.
  const after = await browser.signIn('olga', DEFAULT_PASSWORD, l.login);
  expect(after.url.pathname).toBe(l.page);
  const again = await browser.open(l.login);
  expect(again.document.body.textContent).not.toContain(CONTINUE[l.locale]);
});

test('a visitor who opens the login themselves is not told to sign in to continue', async () => {
  const { app } = await createTestApp();
  for (const [path, text] of [
    ['/login', CONTINUE.es],
    ['/en/login', CONTINUE.en],
  ] as const) {
    const page = await plainBrowser(app).open(path);
    expect(page.status).toBe(200);
    expect(page.document.body.textContent).not.toContain(text);
  }
});

// The navbar's burger as the server renders it, in both locales (docs/decisions/047): named for
// screen readers by its hidden text (the icon is decorative), closed, and saying which menu it
// controls. Its toggle is test/ui/navbar-burger.test.tsx's; the breakpoints, the keyboard and
// what is visible are the browser's (test/e2e/navbar.test.ts, burger.test.ts).
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { testApp } from '../helpers/app.ts';
import { plainBrowser } from '../helpers/plain-browser.ts';

test.each([
  { path: '/', open: 'Abrir menú', nav: 'Principal' },
  { path: '/en', open: 'Open menu', nav: 'Main' },
])('the burger is named "$open" for screen readers and says what it controls ($path)', async ({ path, open, nav }) => {
  const page = await plainBrowser(await testApp()).open(path);
  const navigation = within(within(page.document.body).getByRole('navigation', { name: nav }));
  const burger = navigation.getByRole('button', { name: open });
  expect(burger.getAttribute('aria-expanded')).toBe('false');
  const controls = burger.getAttribute('aria-controls');
  expect(controls).toBeTruthy();
  const menus = page.document.querySelectorAll(`[id="${controls}"]`);
  expect(menus).toHaveLength(1);
  expect(menus[0]!.classList.contains('navbar-menu')).toBe(true);
  // The icon is decorative: the name comes from the hidden text only.
  expect(burger.querySelector('.burger-icon')?.getAttribute('aria-hidden')).toBe('true');
});

// The navbar's theme switch without JavaScript, on the app in this process (docs/decisions/047):
// a form post that remembers the choice in the `theme` cookie and comes back to the same page,
// which the server then renders in that theme. The colours each theme paints, the switch with
// JavaScript and its size are test/e2e/theme.test.ts's.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { testApp } from '../helpers/app.ts';
import { plainBrowser } from '../helpers/plain-browser.ts';

test('without JavaScript the theme switch posts the form and comes back to the same page in the theme chosen', async () => {
  const browser = plainBrowser(await testApp());
  let page = await browser.open('/en/blog?q=data');
  page = await browser.submit(
    page,
    within(page.document.body).getByRole('button', { name: 'Switch to the dark theme' }) as HTMLButtonElement,
  );
  expect(page.url.pathname + page.url.search).toBe('/en/blog?q=data');
  expect(page.document.documentElement.getAttribute('data-theme')).toBe('dark');
  expect(browser.cookies.get('theme')).toBe('dark');
  page = await browser.submit(
    page,
    within(page.document.body).getByRole('button', { name: 'Switch to the light theme' }) as HTMLButtonElement,
  );
  expect(page.url.pathname).toBe('/en/blog');
  expect(page.document.documentElement.getAttribute('data-theme')).toBe('light');
  expect(browser.cookies.get('theme')).toBe('light');
});

// A visitor who chose Spanish gets Spanish, whatever their browser prefers, without JavaScript,
// on the app in this process (docs/decisions/047): the bare / sends an English browser to /en,
// and the switcher's Spanish home is /es, also after a reload. With JavaScript, and the
// LOCALE_COOKIE choice, it is test/e2e/locale-choice.test.ts's.
import { expect, test } from 'vitest';
import { testApp } from '../helpers/app.ts';
import { plainBrowser } from '../helpers/plain-browser.ts';

test('an English-preferring browser that chooses Spanish without JavaScript stays on the Spanish home, also after a reload', async () => {
  const browser = plainBrowser(await testApp(), { acceptLanguage: 'en-US,en;q=0.9' });
  let page = await browser.open('/');
  // The bare root sends this browser to its language first.
  expect(page.url.pathname).toBe('/en');
  page = await browser.follow(page, page.document.querySelector('.locale-switcher a[data-locale="es"]')!);
  expect(page.url.pathname).toBe('/es');
  expect(page.document.documentElement.lang).toBe('es');
  page = await browser.open('/es');
  expect(page.url.pathname).toBe('/es');
  expect(page.document.documentElement.lang).toBe('es');
  expect(page.document.querySelector('.locale-switcher a[data-locale="en"]')?.getAttribute('href')).toBe('/en');
});

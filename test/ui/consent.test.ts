// The cookie banner without JavaScript, on the app in this process (docs/decisions/047): its
// buttons are a form that posts to /consent, answered 303 back to the page, and the choice is
// remembered for a year — as a notice on a site without analytics, as a question on a site with
// an analytics id. With JavaScript (sent in the background, the footer's "Cookie settings", the
// tag manager only after consent) it is test/e2e/consent.test.ts's.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { testApp } from '../helpers/app.ts';
import { plainBrowser, type PlainPage } from '../helpers/plain-browser.ts';

const DAY_S = 24 * 60 * 60;

function banner(page: PlainPage) {
  return page.document.querySelector('section.cookie-banner');
}

/** Max-Age of the consent cookie, in seconds. */
function maxAge(line: string | undefined): number {
  return Number(/;\s*max-age=(\d+)/i.exec(line ?? '')?.[1] ?? 0);
}

test.each([
  { site: 'without analytics', env: undefined, locale: 'en', path: '/en/blog', button: 'OK', value: 'v1:notice' },
  {
    site: 'with an analytics id',
    env: { ANALYTICS_GA_ID: 'G-TEST12345' },
    locale: 'en',
    path: '/en/blog',
    button: 'Only necessary',
    value: 'v1:analytics=0',
  },
  {
    site: 'with an analytics id',
    env: { ANALYTICS_GA_ID: 'G-TEST12345' },
    locale: 'es',
    path: '/blog',
    button: 'Aceptar todas',
    value: 'v1:analytics=1',
  },
])(
  'without JavaScript "$button" ($site, $locale) is a form post to /consent: 303 back to the page, remembered for a year',
  async ({ env, locale, path, button, value }) => {
    const browser = plainBrowser(await testApp(env));
    let page = await browser.open(path);
    expect(banner(page)).toBeTruthy();
    page = await browser.submit(page, within(banner(page) as HTMLElement).getByRole('button', { name: button }) as HTMLButtonElement);
    expect(page.redirects).toEqual([{ method: 'POST', url: locale === 'es' ? '/consent' : '/en/consent', status: 303, location: path }]);
    expect(page.url.pathname + page.url.search).toBe(path);
    expect(banner(page)).toBeNull();
    expect(decodeURIComponent(browser.cookies.get('cookie_consent') ?? '')).toBe(value);
    expect(maxAge(browser.setCookieLine('cookie_consent'))).toBeGreaterThan(364 * DAY_S);
  },
);

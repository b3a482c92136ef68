// The profile's account sections without JavaScript, on the app in this process
// (docs/decisions/047): a user signed in on three browsers sees them all with their device and
// ends the other two with a form post; "Download my data" is a plain link to a JSON file of the
// user. Ending a session with JavaScript, the deletion request, the admin's confirmation, the
// layout at 1366 and 390 px and axe-core are test/e2e/account.test.ts's.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser, textOf } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';

const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0';
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

test('without JavaScript: "end all other sessions" is a form post, the page says so, and the current session goes on', async () => {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'ernesto', role: 'CONS', name: 'Ernesto', lastName: 'Experto' });
  const others = [plainBrowser(app, { userAgent: FIREFOX_WINDOWS }), plainBrowser(app, { userAgent: CHROME_ANDROID })];
  for (const other of others) await other.signIn('ernesto', DEFAULT_PASSWORD);
  const browser = plainBrowser(app, { userAgent: CHROME_LINUX });
  await browser.signIn('ernesto', DEFAULT_PASSWORD);
  let page = await browser.open('/en/profile');
  const sessions = () => page.document.querySelector<HTMLElement>('section[aria-labelledby="sessions-title"]')!;
  expect(sessions().querySelectorAll('li.session-item')).toHaveLength(3);
  expect(textOf(sessions().querySelector('li.session-current'))).toContain('Chrome on Linux');
  page = await browser.submit(page, within(sessions()).getByRole('button', { name: 'End the other 2 sessions' }) as HTMLButtonElement);
  expect(page.url.search).toMatch(/saved=sessionsEnded/);
  expect(within(sessions()).getAllByRole('status').map(textOf)).toContain('All your other sessions have been ended.');
  expect(sessions().querySelectorAll('li.session-item')).toHaveLength(1);
  for (const other of others) expect((await other.open('/en/profile')).url.pathname).toBe('/en/login');
  expect((await browser.open('/en/profile')).url.pathname).toBe('/en/profile');
});

test('"Download my data" is a link to a JSON file of the user, with their sessions and no secret', async () => {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'carla', role: 'CLI', name: 'Carla', lastName: 'Cliente' });
  const browser = plainBrowser(app, { userAgent: CHROME_ANDROID });
  await browser.signIn('carla', DEFAULT_PASSWORD);
  const page = await browser.open('/en/profile');
  const link = within(page.document.body).getByRole('link', { name: 'Download my data (JSON)' });
  // A plain link that says `download`: the browser saves what it answers, with JavaScript too.
  expect(link.hasAttribute('download')).toBe(true);
  const download = await browser.get(link.getAttribute('href')!);
  expect(download.status).toBe(200);
  expect(download.headers['content-disposition']).toMatch(/^attachment; filename="my-data-carla-\d{4}-\d{2}-\d{2}\.json"/);
  const data = JSON.parse(download.body.toString('utf8')) as { profile: object; sessions: unknown[] };
  expect(data.profile).toMatchObject({ userName: 'carla', name: 'Carla', role: 'CLI' });
  expect(data.sessions.length).toBeGreaterThan(0);
  expect(JSON.stringify(data)).not.toMatch(/passwordHash|password_hash|token/i);
});

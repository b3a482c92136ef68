// The admin console as pages (docs/decisions/039): /admin is its home, each section a page of its own with
// the console's sub-navigation; the users page offers nothing destructive on the admin's own row,
// and the server refuses it too; an admin lands home after signing in, the console one link away.
import type { Express } from 'express';
import { within } from '@testing-library/dom';
import request from 'supertest';
import { expect, test } from 'vitest';
import { findUser } from '../server/users/users.ts';
import { createTestApp, ORIGIN } from './helpers/app.ts';
import { addUser, DEFAULT_PASSWORD } from './helpers/users.ts';
import { plainBrowser } from './helpers/plain-browser.ts';

const { app, db } = await createTestApp();
for (const [userName, role] of [
  ['ada', 'ADMIN'],
  ['carla', 'CLI'],
  ['olga', 'ORG'],
  ['elena', 'CONS'],
] as const)
  await addUser(db, { userName, role });

async function signIn(target: Express, identifier: string, path = '/login') {
  return request(target).post(path).set('Origin', ORIGIN).type('form').send({ identifier, password: DEFAULT_PASSWORD });
}
const admin = String((await signIn(app, 'ada')).headers['set-cookie']).split(';')[0]!;

const PAGES = [
  { path: '/admin', heading: 'admin-home-title' },
  { path: '/admin/projects', heading: 'pipeline-title' },
  { path: '/admin/users', heading: 'admin-users-title' },
  { path: '/admin/inbox', heading: 'admin-inbox-title' },
  { path: '/admin/audit', heading: 'admin-audit-title' },
  { path: '/admin/deletions', heading: 'admin-deletions-title' },
  { path: '/admin/branding', heading: 'admin-branding-title' },
];
const CASES = PAGES.flatMap((page) => ['', '/en'].map((prefix) => ({ ...page, url: `${prefix}${page.path}` })));

test.each(CASES)(
  '$url renders its section on the server, with the sub-navigation marking it the current page',
  async ({ url, heading }) => {
    const res = await request(app).get(url).set('Cookie', admin);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`id="${heading}"`);
    const nav = /<nav class="admin-sections"[^>]*>([\s\S]*?)<\/nav>/.exec(res.text)?.[1] ?? '';
    // Every console page is linked; only this one is the current page.
    expect(nav.match(/<a /g)).toHaveLength(PAGES.length);
    expect(nav.match(/aria-current="page"/g)).toHaveLength(1);
    expect(nav).toMatch(new RegExp(`href="${url}" aria-current="page"|aria-current="page" href="${url}"`));
  },
);

test('the console’s home counts what waits for the admin and links to those pages', async () => {
  const res = await request(app).get('/en/admin').set('Cookie', admin);
  expect(res.text).toContain('href="/en/admin/projects"');
  expect(res.text).toMatch(/0 unread contact messages/);
  expect(res.text).toMatch(/0 account deletion requests to decide/);
});

test('the users page renders the search and page of its URL (?q=), without JavaScript', async () => {
  const res = await request(app).get('/en/admin/users?q=olga').set('Cookie', admin);
  expect(res.status).toBe(200);
  expect(res.text).toContain('>olga<');
  expect(res.text).not.toContain('>carla<');
  expect(res.text).toContain('value="olga"');
});

test('the users page: the new-user form is behind a "New user" disclosure, each other row’s actions in a menu', async () => {
  const res = await request(app).get('/en/admin/users').set('Cookie', admin);
  expect(res.text).toMatch(/<details class="admin-new-user"><summary[^>]*>New user<\/summary>/);
  // One menu per user but the admin: carla, elena, olga.
  expect(res.text.match(/<details class="row-menu"/g)).toHaveLength(3);
});

test('the users page offers nothing destructive on the admin’s own row: no menu, a link to their profile', async () => {
  const res = await request(app).get('/en/admin/users').set('Cookie', admin);
  const own = /<tr><th scope="row">ada<[\s\S]*?<\/tr>/.exec(res.text)?.[0] ?? '';
  expect(own).not.toBe('');
  expect(own).not.toContain('row-menu');
  expect(own).not.toMatch(/Disable|Reset password|End sessions|Change role/);
  expect(own).toContain('href="/en/profile"');
});

test.each([
  { what: 'disable themselves', method: 'patch', path: '/api/admin/users/ada', body: { disabled: true }, code: 'self_lockout' },
  { what: 'drop their own ADMIN role', method: 'patch', path: '/api/admin/users/ada', body: { role: 'CLI' }, code: 'self_lockout' },
  { what: 'set their own password', method: 'post', path: '/api/admin/users/ada/password', body: {}, code: 'self_password' },
] as const)('the server refuses an admin who would $what: 409 $code, nothing changes', async ({ method, path, body, code }) => {
  const before = await findUser(db, 'ada');
  const res = await request(app)[method](path).set('Origin', ORIGIN).set('Cookie', admin).send(body);
  expect(res.status).toBe(409);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.message).toMatch(/own/);
  expect(await findUser(db, 'ada')).toEqual(before);
});

// docs/specification.md §5.4, §7.1: a signed-in user goes home; the role guard takes CLI, ORG and
// CONS on to their area (the sign-in goes there at once), and does not move ADMIN.
test.each([
  { role: 'ADMIN', user: 'ada', es: '/', en: '/en' },
  { role: 'CLI', user: 'carla', es: '/client', en: '/en/client' },
  { role: 'ORG', user: 'olga', es: '/organization', en: '/en/organization' },
  { role: 'CONS', user: 'elena', es: '/expert', en: '/en/expert' },
])('after signing in a $role user lands on $es ($en)', async ({ user, es, en }) => {
  expect((await signIn(app, user)).headers.location).toBe(es);
  expect((await signIn(app, user, '/es/login')).headers.location).toBe(es === '/' ? '/es' : `/es${es}`);
  expect((await signIn(app, user, '/en/login')).headers.location).toBe(en);
});

test.each([
  { locale: 'es', login: '/login', home: '/', link: 'Administración', console: '/admin' },
  { locale: 'en', login: '/en/login', home: '/en', link: 'Admin console', console: '/en/admin' },
])(
  'an ADMIN who signs in ($locale) lands on the home page with the admin console one click away in the navbar',
  async ({ login, home, link, console: consolePath }) => {
    const browser = plainBrowser(app);
    const page = await browser.signIn('ada', DEFAULT_PASSWORD, login);
    expect(page.url.pathname).toBe(home);
    expect(page.status).toBe(200);
    const navbar = page.document.querySelector('header.navbar') as HTMLElement;
    const consoleLink = within(navbar).getByRole('link', { name: link });
    expect(consoleLink.getAttribute('href')).toBe(consolePath);
    const opened = await browser.follow(page, consoleLink);
    expect(opened.url.pathname).toBe(consolePath);
    expect(opened.status).toBe(200);
    expect(opened.document.getElementById('admin-home-title')).not.toBeNull();
  },
);

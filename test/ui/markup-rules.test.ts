// Rules of HTML that a page's server-rendered markup keeps, read in process (docs/decisions/047),
// page by page: a required <select> starts with its placeholder option (an empty value: HTML's
// "placeholder label option", which the Nu checker asks for), no heading is empty (a closed dialog
// included), and no link opens a new tab without an address.
import request from 'supertest';
import { expect, test } from 'vitest';
import { projectPath } from '../../shared/projects.ts';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser, textOf, type PlainPage } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD, loginToken } from '../helpers/users.ts';

function problems(page: PlainPage): string[] {
  const found: string[] = [];
  for (const select of page.document.querySelectorAll<HTMLSelectElement>('select[required]')) {
    if (select.multiple || select.size > 1) continue;
    const first = select.querySelector('option');
    if (!first || first.parentElement !== select || first.getAttribute('value') !== '') {
      found.push(`required <select name="${select.name}"> has no placeholder option first`);
    }
  }
  for (const heading of page.document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    if (!textOf(heading)) found.push(`empty <${heading.tagName.toLowerCase()} id="${heading.id}">`);
  }
  for (const link of page.document.querySelectorAll('a[target]'))
    if (!link.hasAttribute('href')) found.push(`<a target> without href: ${link.outerHTML}`);
  return found;
}

test('the admin’s users page, a project’s page, a new brief, the profile and the privacy policy keep the rules of HTML in both languages', async () => {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'ada', role: 'ADMIN', name: 'Ada', lastName: 'Admin' });
  await addUser(db, { userName: 'carla', role: 'CLI', name: 'Carla', lastName: 'Client' });
  const created = await request(app)
    .post('/api/projects')
    .set('Authorization', `Bearer ${await loginToken(app, 'carla')}`)
    .send({ title: 'Dashboards', description: 'Twelve shops and one place for their figures.', practice: 'data' });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  const admin = plainBrowser(app);
  await admin.signIn('ada', DEFAULT_PASSWORD);
  const client = plainBrowser(app);
  await client.signIn('carla', DEFAULT_PASSWORD);
  for (const locale of ['es', 'en'] as const) {
    const prefix = locale === 'es' ? '' : '/en';
    const pages: [string, ReturnType<typeof plainBrowser>][] = [
      [`${prefix}/admin/users`, admin],
      [projectPath('ADMIN', id, locale)!, admin],
      [projectPath('CLI', id, locale)!, client],
      [`${prefix}/client/projects/new`, client],
      [`${prefix}/profile`, client],
      [`${prefix}/privacy`, client],
    ];
    for (const [path, browser] of pages) {
      const page = await browser.open(path);
      expect(page.status, path).toBe(200);
      expect(problems(page), path).toEqual([]);
    }
  }
});

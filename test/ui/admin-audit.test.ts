// The admin's audit log without JavaScript, read from the app's server-rendered HTML
// (docs/decisions/047): the filter is a GET form and the pager links; and the log speaks
// Spanish on /admin/audit. The log with JavaScript (filtering and paging in place, ending a
// user's sessions, both widths) is in test/e2e/admin-audit.test.ts.
import { within } from '@testing-library/dom';
import request from 'supertest';
import { expect, test } from 'vitest';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { plainBrowser, textOf, type PlainPage } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD, loginToken } from '../helpers/users.ts';

/** Role changes made through the API first: more entries than one page (20) holds. */
const ROLE_CHANGES = 24;

/** An app with one user per role, a failed sign-in and ROLE_CHANGES role changes in its log; a browser signed in as the admin. */
async function auditedSite() {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'ada', role: 'ADMIN', name: 'Ada', lastName: 'Lovelace' });
  await addUser(db, { userName: 'carla', role: 'CLI', name: 'Carla', lastName: 'Cliente' });
  await addUser(db, { userName: 'olga', role: 'ORG', name: 'Olga', lastName: 'Organización', email: 'olga@example.test' });
  await addUser(db, { userName: 'ernesto', role: 'CONS', name: 'Ernesto', lastName: 'Experto' });
  const failed = await request(app)
    .post('/api/login')
    .set('Origin', ORIGIN)
    .send({ identifier: 'Olga@Example.test', password: 'not the password' });
  expect(failed.status).toBe(401);
  const token = await loginToken(app, 'ada');
  for (let i = 0; i < ROLE_CHANGES; i++) {
    const answer = await request(app)
      .patch('/api/admin/users/olga')
      .set('Authorization', `Bearer ${token}`)
      .send({ role: i % 2 === 0 ? 'CLI' : 'ORG' });
    expect(answer.status, answer.text).toBe(200);
  }
  const browser = plainBrowser(app);
  await browser.signIn('ada', DEFAULT_PASSWORD);
  return browser;
}

/** The action column of every row shown. */
function actionsShown(page: PlainPage): string[] {
  return [...page.document.querySelectorAll('.admin-audit-action')].map(textOf);
}

test('the audit log filters and pages without JavaScript (a GET form and links)', async () => {
  const browser = await auditedSite();
  let page = await browser.open('/en/admin/audit');
  const log = () => within(within(page.document.body).getByRole('region', { name: 'Audit log' }));
  const form = log().getByRole('search', { name: 'Filter the audit log' });
  const action = within(form).getByLabelText('Action') as HTMLSelectElement;
  action.value = [...action.options].find((option) => textOf(option) === 'Role changed')!.value;
  page = await browser.submit(page, within(form).getByRole('button', { name: 'Filter' }) as HTMLButtonElement);
  expect(page.url.searchParams.get('auditAction')).toBe('role_changed');
  expect(textOf(page.document.querySelector('.admin-summary'))).toBe(`${ROLE_CHANGES} entries match the filter.`);
  expect(new Set(actionsShown(page))).toEqual(new Set(['Role changed']));
  page = await browser.follow(
    page,
    within(log().getByRole('navigation', { name: 'Pages of the audit log' })).getByRole('link', { name: /Older/ }),
  );
  expect(page.url.searchParams.get('auditPage')).toBe('2');
  expect(
    log()
      .getAllByRole('row')
      .filter((row) => row.closest('tbody')),
  ).toHaveLength(ROLE_CHANGES - 20);
  expect(new Set(actionsShown(page))).toEqual(new Set(['Role changed']));
});

test('the audit log speaks Spanish on /admin/audit', async () => {
  const page = await (await auditedSite()).open('/admin/audit');
  const log = within(within(page.document.body).getByRole('region', { name: 'Registro de actividad' }));
  expect([...log.getAllByRole('columnheader')].map(textOf)).toEqual(['Cuándo', 'Acción', 'Quién', 'A quién', 'Detalles', 'Dirección IP']);
  expect(actionsShown(page)).toContain('Rol cambiado');
  expect([...(log.getByLabelText('Acción') as HTMLSelectElement).options].map(textOf)).toContain('Inicio de sesión fallido');
});

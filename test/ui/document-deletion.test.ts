// Deleting a project document from its page without JavaScript, on the app in this process
// (docs/decisions/031, 047): the delete button posts its form and the page comes back with the
// outcome. The alert dialog with JavaScript, and who sees a delete button, are
// test/e2e/document-deletion.test.ts's.
import { within } from '@testing-library/dom';
import request from 'supertest';
import { expect, test } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser, textOf } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD, loginToken } from '../helpers/users.ts';

test('without JavaScript, the delete button posts its form and the page comes back with the outcome', async () => {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'carla', role: 'CLI', name: 'Carla', lastName: 'Cliente' });
  await addUser(db, { userName: 'ada', role: 'ADMIN', name: 'Ada', lastName: 'Lovelace' });
  // A brief of the client's with their two documents and one of the admin's.
  const client = await loginToken(app, 'carla');
  const created = await request(app)
    .post('/api/projects')
    .set('Authorization', `Bearer ${client}`)
    .send({ title: 'Archive of contracts', description: 'Contracts to review.', practice: 'compliance' });
  expect(created.status, created.text).toBe(201);
  const id = (created.body as { id: number }).id;
  for (const [token, name] of [
    [client, 'contract.pdf'],
    [client, 'notes.pdf'],
    [await loginToken(app, 'ada'), 'checklist.pdf'],
  ] as const) {
    const uploaded = await request(app)
      .post(`/api/projects/${id}/documents`)
      .set('Authorization', `Bearer ${token}`)
      .attach('file', Buffer.from(`%PDF-1.4\n% ${name}\n%%EOF\n`), { filename: name, contentType: 'application/pdf' });
    expect(uploaded.status, uploaded.text).toBe(201);
  }
  const browser = plainBrowser(app);
  await browser.signIn('carla', DEFAULT_PASSWORD);
  let page = await browser.open(`/en/client/projects/${id}`);
  page = await browser.submit(page, within(page.document.body).getByRole('button', { name: 'Delete contract.pdf' }) as HTMLButtonElement);
  expect(page.redirects[0]).toMatchObject({ method: 'POST', status: 303 });
  expect(page.url.searchParams.get('done')).toBe('deleteDocument');
  expect(textOf(page.document.body)).toContain('The document has been deleted.');
  expect([...page.document.querySelectorAll('#documents-title ~ ul.documents a')].map(textOf)).toEqual(['checklist.pdf', 'notes.pdf']);
});

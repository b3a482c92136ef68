// Deleting a project document from its page (docs/decisions/031), in Chromium: the uploader sees
// a delete button on their own documents only; with JavaScript it asks first in the alert dialog
// (cancel keeps the document, confirm deletes it without a reload). Without JavaScript (the form
// posts) it is test/ui/document-deletion.test.ts's. This file starts its own server with one user
// of each role.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { collectProblems, ROLE_PASSWORD, ROLE_USERS } from './helpers.ts';

const CLIENT = ROLE_USERS.find((user) => user.role === 'CLI')!;
const ADMIN = ROLE_USERS.find((user) => user.role === 'ADMIN')!;

const site = setupSite({ users: ROLE_USERS });

async function token(userName: string): Promise<string> {
  const res = await fetch(`${site.baseURL}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: site.baseURL },
    body: JSON.stringify({ identifier: userName, password: ROLE_PASSWORD }),
  });
  return ((await res.json()) as { token: string }).token;
}

async function upload(bearer: string, project: number, name: string): Promise<void> {
  const body = new FormData();
  body.set('file', new Blob([`%PDF-1.4\n% ${name}\n%%EOF\n`], { type: 'application/pdf' }), name);
  const res = await fetch(`${site.baseURL}/api/projects/${project}/documents`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${bearer}`, Origin: site.baseURL },
    body,
  });
  expect(res.status).toBe(201);
}

/** A brief of the client's with their two documents and one of the admin's; its page's path. */
async function projectWithDocuments(): Promise<string> {
  const client = await token(CLIENT.userName);
  const res = await fetch(`${site.baseURL}/api/projects`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${client}`, Origin: site.baseURL, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: 'Archive of contracts', description: 'Contracts to review.', practice: 'compliance' }),
  });
  const id = ((await res.json()) as { id: number }).id;
  await upload(client, id, 'contract.pdf');
  await upload(client, id, 'notes.pdf');
  await upload(await token(ADMIN.userName), id, 'checklist.pdf');
  return `/en/client/projects/${id}`;
}

async function open(path: string, js: boolean): Promise<Page> {
  const page = await site.newPage({ as: CLIENT.userName, javaScriptEnabled: js });
  const response = await page.goto(path);
  expect(response?.status()).toBe(200);
  if (js) await waitForHydration(page);
  return page;
}

const documentLinks = (page: Page) => page.locator('#documents-title ~ ul.documents a').allTextContents();

test('with JavaScript, deleting a document asks in the alert dialog: cancel keeps it, confirm deletes it without a reload', async () => {
  const path = await projectWithDocuments();
  const page = await open(path, true);
  const problems = collectProblems(page);
  expect(await documentLinks(page)).toEqual(['checklist.pdf', 'notes.pdf', 'contract.pdf']);
  // The client's own documents have a delete button; the admin's has none.
  expect(
    await page.getByRole('button', { name: /^Delete / }).evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))),
  ).toEqual(['Delete notes.pdf', 'Delete contract.pdf']);
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST') posts++;
  });
  await page.evaluate(() => Object.assign(window, { __marker: 1 }));

  const dialog = page.locator('dialog.alert-dialog[open]');
  await page.getByRole('button', { name: 'Delete notes.pdf' }).click();
  await expect.poll(() => dialog.textContent()).toContain('“notes.pdf” is deleted for everyone on the project. This cannot be undone.');
  expect(await dialog.getAttribute('role')).toBe('alertdialog');
  await dialog.locator('.alert-cancel').click();
  await expect.poll(() => dialog.count()).toBe(0);
  expect(posts).toBe(0);
  expect(await documentLinks(page)).toContain('notes.pdf');

  await page.getByRole('button', { name: 'Delete notes.pdf' }).click();
  const answered = page.waitForResponse((r) => r.request().method() === 'POST');
  await dialog.locator('.alert-confirm').click();
  const answer = await answered;
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toMatchObject({ ok: true, success: 'deleteDocument' });
  await page.getByText('The document has been deleted.').waitFor();
  await expect.poll(() => documentLinks(page)).toEqual(['checklist.pdf', 'contract.pdf']);
  expect(posts).toBe(1);
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker), 'no full page load').toBe(1);
  expect(problems).toEqual([]);
});

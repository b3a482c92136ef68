// Deleting a project's documents (docs/decisions/031): the person who uploaded a
// document and admins delete it, from the API (DELETE /api/projects/{id}/documents/{docId}) and
// from the project page (a form per document); the project's other participants get 403, anyone
// who cannot see the document 404; a read-only project keeps its documents (409). Deleting frees
// the quota and removes the chunks, and leaves an audit entry and a line of history. The list of
// documents is a page (API and project page alike). On SQLite and PostgreSQL alike.
import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, expect, test } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { signIn } from '../my-account/helpers.ts';
import { createTestApp, ORIGIN, TEST_ENGINE } from '../helpers/app.ts';
import { activeProject, api, BRIEF, PDF, PEOPLE, signInEveryone, type Person, UNLIMITED } from './fixtures.ts';
import { scaled } from '../helpers/time-scale.ts';

let app: Express;
let db: Db;
let tokens: Record<Person, string>;
const cookies = {} as Record<Person, string>;
beforeAll(async () => {
  // 1 MB per user: a deletion must give the room back.
  const created = await createTestApp({ ...UNLIMITED, PROJECT_DOCUMENTS_QUOTA_MB_PER_USER: '1' });
  app = created.app;
  db = created.db;
  tokens = await signInEveryone(app, db);
  for (const person of ['owner', 'expert', 'admin'] as const) cookies[person] = await signIn(app, PEOPLE[person].userName);
}, scaled(60_000));

const KiB = 1024;
const pdfOf = (bytes: number) => Buffer.concat([PDF, Buffer.alloc(bytes - PDF.length, 0x20)]);

async function upload(who: Person, id: number, name: string, bytes = PDF.length): Promise<number> {
  const res = await api(app, tokens[who]).upload(`/projects/${id}/documents`, pdfOf(bytes), name);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

const chunksOf = async (documentId: number) =>
  Number(
    (
      await db.k
        .selectFrom('project_document_chunks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('document_id', '=', documentId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const pagePath = (who: Person, id: number) => `/en/${{ owner: 'client', expert: 'expert', admin: 'admin' }[who as string]}/projects/${id}`;

function deleteForm(who: Person, id: number, documentId: number | string) {
  return request(app)
    .post(pagePath(who, id))
    .set('Cookie', cookies[who])
    .set('Origin', ORIGIN)
    .type('form')
    .send({ intent: 'deleteDocument', document: String(documentId) });
}

test(`the uploader deletes their document: 204, gone from the list and the download, its chunks removed, its bytes free again (${TEST_ENGINE})`, async () => {
  const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
  const documentId = await upload('owner', id, 'plan.pdf', 900 * KiB);
  expect(await chunksOf(documentId)).toBe(4);
  // 900 KB of 1 MB used: another 900 KB does not fit …
  expect((await api(app, tokens.owner).upload(`/projects/${id}/documents`, pdfOf(900 * KiB), 'again.pdf')).status).toBe(413);
  const deleted = await api(app, tokens.owner).delete(`/projects/${id}/documents/${documentId}`);
  expect(deleted.status).toBe(204);
  expect((await api(app, tokens.owner).get(`/projects/${id}/documents`)).body.items).toEqual([]);
  expect((await api(app, tokens.owner).get(`/projects/${id}/documents/${documentId}`)).status).toBe(404);
  expect(await chunksOf(documentId)).toBe(0);
  // … until the first one is deleted.
  await upload('owner', id, 'again.pdf', 900 * KiB);
});

test(`an admin deletes anyone's document; the history says who deleted which, and the audit log records who, which document, which project (${TEST_ENGINE})`, async () => {
  const id = await activeProject(app, tokens);
  const documentId = await upload('expert', id, 'survey.pdf');
  const deleted = await api(app, tokens.admin).delete(`/projects/${id}/documents/${documentId}`);
  expect(deleted.status).toBe(204);
  const project = (await api(app, tokens.owner).get(`/projects/${id}`)).body;
  expect(project.documents).toEqual([]);
  const history = (await api(app, tokens.owner).get(`/projects/${id}/events`)).body;
  expect(history.items[0]).toMatchObject({ kind: 'document_deleted', actor: 'staff', actorName: 'Sara Staff', detail: 'survey.pdf' });
  const entry = await db.k
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', 'document_deleted')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  expect(entry).toMatchObject({ actor: 'staff', target: 'eva' });
  expect(JSON.parse(entry.detail!)).toEqual({ project: id, document: documentId, name: 'survey.pdf', bytes: PDF.length });
  // The page's history says it in words.
  const page = await request(app).get(pagePath('owner', id)).set('Cookie', cookies.owner);
  expect(page.text).toContain('Sara Staff deleted the document &quot;survey.pdf&quot;');
});

test(`the owner may not delete an expert's document nor an expert the owner's: 403, the document kept (${TEST_ENGINE})`, async () => {
  const id = await activeProject(app, tokens);
  const owners = await upload('owner', id, 'brief.pdf');
  const experts = await upload('expert', id, 'model.pdf');
  for (const [who, documentId] of [
    ['expert', owners],
    ['owner', experts],
  ] as const) {
    const refused = await api(app, tokens[who]).delete(`/projects/${id}/documents/${documentId}`);
    expect(refused.status, who).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
  }
  expect((await api(app, tokens.owner).get(`/projects/${id}/documents`)).body.total).toBe(2);
  expect(await chunksOf(owners)).toBe(1);
});

test(`a document that does not exist, is in another project, or whose project the caller cannot see is 404, the same answer every time (${TEST_ENGINE})`, async () => {
  const id = await activeProject(app, tokens);
  const documentId = await upload('owner', id, 'secret.pdf');
  const elsewhere = (await api(app, tokens.org).post('/projects', BRIEF)).body.id as number;
  const answers = [
    await api(app, tokens.otherClient).delete(`/projects/${id}/documents/${documentId}`),
    await api(app, tokens.otherExpert).delete(`/projects/${id}/documents/${documentId}`),
    await api(app, tokens.owner).delete(`/projects/${id}/documents/999999`),
    await api(app, tokens.owner).delete(`/projects/${id}/documents/abc`),
    await api(app, tokens.org).delete(`/projects/${elsewhere}/documents/${documentId}`),
  ];
  expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404]);
  expect(answers.map((a) => a.body.error.code)).toEqual(['not_found', 'not_found', 'not_found', 'not_found', 'not_found']);
  expect(await chunksOf(documentId)).toBe(1);
});

test(`a closed, declined or cancelled project keeps its documents: deleting is refused with 409 read_only, as uploading is (${TEST_ENGINE})`, async () => {
  const id = await activeProject(app, tokens);
  const documentId = await upload('owner', id, 'final.pdf');
  expect((await api(app, tokens.admin).patch(`/projects/${id}`, { action: 'cancel' })).status).toBe(200);
  for (const who of ['owner', 'admin'] as const) {
    const refused = await api(app, tokens[who]).delete(`/projects/${id}/documents/${documentId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('read_only');
  }
  expect(await chunksOf(documentId)).toBe(1);
});

test(`the page's delete form without JavaScript: 303 back with the outcome; refused, the page again with 403 and the error beside the document (${TEST_ENGINE})`, async () => {
  const id = await activeProject(app, tokens);
  const mine = await upload('expert', id, 'notes.pdf');
  const theirs = await upload('owner', id, 'contract.pdf');
  // Each participant sees a delete button on their own documents only; admins on every one.
  const form = (html: string, documentId: number) => html.includes(`name="document" value="${documentId}"`);
  const expertPage = (await request(app).get(pagePath('expert', id)).set('Cookie', cookies.expert)).text;
  expect([form(expertPage, mine), form(expertPage, theirs)]).toEqual([true, false]);
  const adminPage = (await request(app).get(pagePath('admin', id)).set('Cookie', cookies.admin)).text;
  expect([form(adminPage, mine), form(adminPage, theirs)]).toEqual([true, true]);

  const done = await deleteForm('expert', id, mine);
  expect(done.status).toBe(303);
  expect(done.headers.location).toBe(`${pagePath('expert', id)}?done=deleteDocument#documents-title`);
  const after = await request(app)
    .get(done.headers.location as string)
    .set('Cookie', cookies.expert);
  expect(after.text).toContain('The document has been deleted.');
  expect(after.text).not.toContain('notes.pdf</a>');

  const refused = await deleteForm('expert', id, theirs);
  expect(refused.status).toBe(403);
  expect(refused.text).toContain('You may not do this.');
  expect(refused.text).toContain('contract.pdf');
  const gone = await deleteForm('expert', id, mine);
  expect(gone.status).toBe(404);
  expect(gone.text).toContain('It no longer exists.');
});

test(`the page's delete form with JavaScript is answered as JSON (${TEST_ENGINE})`, async () => {
  const id = await activeProject(app, tokens);
  const documentId = await upload('owner', id, 'draft.pdf');
  const refused = await deleteForm('expert', id, documentId).set('Accept', 'application/json');
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({
    ok: false,
    form: { form: 'deleteDocument', values: { document: String(documentId) }, error: { code: 'forbidden' } },
  });
  const ok = await deleteForm('owner', id, documentId).set('Accept', 'application/json');
  expect(ok.status).toBe(200);
  expect(ok.body).toEqual({
    ok: true,
    redirect: `${pagePath('owner', id)}?done=deleteDocument#documents-title`,
    success: 'deleteDocument',
  });
  expect(await chunksOf(documentId)).toBe(0);
});

test(`the documents are a page: newest first, 20 by default, at most 100 (400 naming the parameter past it), the project page showing the newest with a link to older ones (${TEST_ENGINE})`, async () => {
  const project = await activeProject(app, tokens);
  const ids: number[] = [];
  for (let i = 1; i <= 23; i++) ids.push(await upload('expert', project, `doc-${String(i).padStart(2, '0')}.pdf`));
  const first = await api(app, tokens.owner).get(`/projects/${project}/documents`);
  expect(first.body).toMatchObject({ total: 23, page: 1, pageSize: 20 });
  expect(first.body.items).toHaveLength(20);
  expect(first.body.items[0].name).toBe('doc-23.pdf');
  const second = await api(app, tokens.owner).get(`/projects/${project}/documents?page=2`);
  expect(second.body.items.map((d: { name: string }) => d.name)).toEqual(['doc-03.pdf', 'doc-02.pdf', 'doc-01.pdf']);
  const small = await api(app, tokens.owner).get(`/projects/${project}/documents?pageSize=5&page=5`);
  expect(small.body.items.map((d: { id: number }) => d.id)).toEqual([ids[2], ids[1], ids[0]]);
  for (const [query, parameter] of [
    ['pageSize=101', 'pageSize'],
    ['pageSize=0', 'pageSize'],
    ['page=0', 'page'],
    ['page=x', 'page'],
  ] as const) {
    const bad = await api(app, tokens.owner).get(`/projects/${project}/documents?${query}`);
    expect(bad.status, query).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    expect(bad.body.error.message).toMatch(new RegExp(`^Invalid request: ${parameter} `));
  }

  const page = await request(app).get(pagePath('owner', project)).set('Cookie', cookies.owner);
  expect(page.text).toContain('doc-23.pdf');
  expect(page.text).toContain('doc-04.pdf');
  expect(page.text).not.toContain('doc-03.pdf');
  expect(page.text).toContain('Documents 1–20 of 23, newest first.');
  expect(page.text).toContain(`href="${pagePath('owner', project)}?documents=2#documents-title"`);
  const older = await request(app)
    .get(`${pagePath('owner', project)}?documents=2`)
    .set('Cookie', cookies.owner);
  expect(older.text).toContain('doc-01.pdf');
  expect(older.text).not.toContain('doc-04.pdf');
  expect(older.text).toContain('Show newer documents');
  expect(older.text).not.toContain('Show older documents');
});

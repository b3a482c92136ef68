// Byte quotas of project documents (docs/decisions/031): one user's documents over
// every project (PROJECT_DOCUMENTS_QUOTA_MB_PER_USER) and one project's documents
// (PROJECT_DOCUMENTS_QUOTA_MB_PER_PROJECT), counted in the database. Past either: 413 naming the
// quota and what is left, nothing stored; refused unread when the declared length cannot fit;
// two uploads racing for the last bytes: one wins. On SQLite and PostgreSQL alike.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { expect, test } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { signIn } from '../my-account/helpers.ts';
import { createTestApp, ORIGIN, TEST_ENGINE } from '../helpers/app.ts';
import { activeProject, api, BRIEF, PDF, signInEveryone, UNLIMITED } from './fixtures.ts';

const MiB = 1024 * 1024;

/** A PDF of exactly `bytes` bytes (documents are judged by their first bytes). */
function pdfOf(bytes: number): Buffer {
  return Buffer.concat([PDF, Buffer.alloc(bytes - PDF.length, 0x20)]);
}

async function quotaApp(quotas: { perUserMb: string; perProjectMb: string }) {
  const created = await createTestApp({
    ...UNLIMITED,
    PROJECT_DOCUMENTS_QUOTA_MB_PER_USER: quotas.perUserMb,
    PROJECT_DOCUMENTS_QUOTA_MB_PER_PROJECT: quotas.perProjectMb,
  });
  const tokens = await signInEveryone(created.app, created.db);
  return { ...created, tokens };
}

/** What is stored: documents, their chunks and their bytes. */
async function stored(db: Db) {
  const documents = await db.k
    .selectFrom('project_documents')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.val(0)).as('bytes')])
    .executeTakeFirstOrThrow();
  const chunks = await db.k
    .selectFrom('project_document_chunks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { documents: Number(documents.n), bytes: Number(documents.bytes), chunks: Number(chunks.n) };
}

test(`past the per-user quota an upload is refused with 413 user_quota_exceeded, naming the quota and the bytes left, and nothing is stored (${TEST_ENGINE})`, async () => {
  const { app, db, tokens } = await quotaApp({ perUserMb: '1', perProjectMb: '100' });
  const owner = api(app, tokens.owner);
  const first = (await owner.post('/projects', BRIEF)).body.id as number;
  const second = (await owner.post('/projects', BRIEF)).body.id as number;
  expect((await owner.upload(`/projects/${first}/documents`, pdfOf(700 * 1024), 'a.pdf')).status).toBe(201);
  // The quota counts every project of the user: the second project has room, the user has not.
  const refused = await owner.upload(`/projects/${second}/documents`, pdfOf(400 * 1024), 'b.pdf');
  expect(refused.status).toBe(413);
  expect(refused.body.error.code).toBe('user_quota_exceeded');
  const left = MiB - 700 * 1024;
  expect(refused.body.error.message).toBe(
    `Your documents may take 1 MB in all, over every project (PROJECT_DOCUMENTS_QUOTA_MB_PER_USER): ${left} bytes (0.3 MB) are left`,
  );
  expect(await stored(db)).toMatchObject({ documents: 1, bytes: 700 * 1024 });
  // What is left is still there to take, to the byte.
  expect((await owner.upload(`/projects/${second}/documents`, pdfOf(left), 'c.pdf')).status).toBe(201);
  const full = await owner.upload(`/projects/${second}/documents`, PDF, 'd.pdf');
  expect(full.status).toBe(413);
  expect(full.body.error.message).toContain(': 0 bytes (0 MB) are left');
  // Another user's quota is their own.
  expect((await api(app, tokens.expert).upload(`/projects/${await activeProject(app, tokens)}/documents`, PDF, 'e.pdf')).status).toBe(201);
});

test(`past the per-project quota an upload is refused with 413 project_quota_exceeded, whoever uploads, and nothing is stored (${TEST_ENGINE})`, async () => {
  const { app, db, tokens } = await quotaApp({ perUserMb: '100', perProjectMb: '1' });
  const id = await activeProject(app, tokens);
  expect((await api(app, tokens.owner).upload(`/projects/${id}/documents`, pdfOf(600 * 1024), 'a.pdf')).status).toBe(201);
  const refused = await api(app, tokens.expert).upload(`/projects/${id}/documents`, pdfOf(600 * 1024), 'b.pdf');
  expect(refused.status).toBe(413);
  expect(refused.body.error).toEqual({
    code: 'project_quota_exceeded',
    message: `This project's documents may take 1 MB in all (PROJECT_DOCUMENTS_QUOTA_MB_PER_PROJECT): ${MiB - 600 * 1024} bytes (0.4 MB) are left`,
  });
  expect(await stored(db)).toEqual({ documents: 1, bytes: 600 * 1024, chunks: 3 });
  // The expert's own room is untouched: another project takes their file.
  const other = await activeProject(app, tokens);
  expect((await api(app, tokens.expert).upload(`/projects/${other}/documents`, pdfOf(600 * 1024), 'b.pdf')).status).toBe(201);
});

test(`a body whose declared Content-Length cannot fit is refused with 413 before a byte of it is read (${TEST_ENGINE})`, async () => {
  const { app, db, tokens } = await quotaApp({ perUserMb: '1', perProjectMb: '100' });
  const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
  const server = app.listen(0, '127.0.0.1');
  try {
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    // The headers of a 5 MB upload, and not one byte of its body: the answer comes anyway.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `/api/projects/${id}/documents`,
          headers: {
            Authorization: `Bearer ${tokens.owner}`,
            Origin: ORIGIN,
            'Content-Type': 'multipart/form-data; boundary=x',
            'Content-Length': String(5 * MiB),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => {
            resolve({ status: res.statusCode!, body });
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'user_quota_exceeded' } });
    // Refused before it counted against the upload rate, and nothing stored.
    expect(await stored(db)).toEqual({ documents: 0, bytes: 0, chunks: 0 });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test(`a file that passes what is left while it streams is cut off there with 413, nothing stored half-way (${TEST_ENGINE})`, async () => {
  const { app, db, tokens } = await quotaApp({ perUserMb: '1', perProjectMb: '100' });
  const owner = api(app, tokens.owner);
  const id = (await owner.post('/projects', BRIEF)).body.id as number;
  expect((await owner.upload(`/projects/${id}/documents`, pdfOf(MiB - 100 * 1024), 'a.pdf')).status).toBe(201);
  // 140 KB for 100 KB left: within the multipart framing's allowance, so it is read — up to 100 KB.
  const refused = await owner.upload(`/projects/${id}/documents`, pdfOf(140 * 1024), 'b.pdf');
  expect(refused.status).toBe(413);
  expect(refused.body.error.code).toBe('user_quota_exceeded');
  expect(refused.body.error.message).toContain(`: ${100 * 1024} bytes (0 MB) are left`);
  expect(await stored(db)).toMatchObject({ documents: 1, bytes: MiB - 100 * 1024 });
});

test(`one user's uploads to two projects racing for the last bytes of their quota: exactly one wins (${TEST_ENGINE})`, async () => {
  const { app, db, tokens } = await quotaApp({ perUserMb: '1', perProjectMb: '100' });
  const owner = api(app, tokens.owner);
  const projects = [(await owner.post('/projects', BRIEF)).body.id as number, (await owner.post('/projects', BRIEF)).body.id as number];
  // Six uploads of 600 KB at once, three to each project: each fits alone, any two do not.
  const answers = await Promise.all(
    Array.from({ length: 6 }, (_, i) => owner.upload(`/projects/${projects[i % 2]}/documents`, pdfOf(600 * 1024), `race-${i}.pdf`)),
  );
  const statuses = answers.map((a) => a.status).sort();
  expect(statuses).toEqual([201, 413, 413, 413, 413, 413]);
  expect(answers.filter((a) => a.status === 413).every((a) => a.body.error.code === 'user_quota_exceeded')).toBe(true);
  expect(await stored(db)).toEqual({ documents: 1, bytes: 600 * 1024, chunks: 3 });
});

test(`two participants' uploads to one project racing for the last bytes of its quota: exactly one wins (${TEST_ENGINE})`, async () => {
  const { app, db, tokens } = await quotaApp({ perUserMb: '100', perProjectMb: '1' });
  const id = await activeProject(app, tokens);
  const uploaders = [tokens.owner, tokens.expert, tokens.admin];
  const answers = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      api(app, uploaders[i % 3]!).upload(`/projects/${id}/documents`, pdfOf(600 * 1024), `race-${i}.pdf`),
    ),
  );
  expect(answers.map((a) => a.status).sort()).toEqual([201, 413, 413, 413, 413, 413]);
  expect(answers.filter((a) => a.status === 413).every((a) => a.body.error.code === 'project_quota_exceeded')).toBe(true);
  expect(await stored(db)).toEqual({ documents: 1, bytes: 600 * 1024, chunks: 3 });
});

test(`the page's upload form past a quota: without JavaScript the page again with 413 and the quota in the form's error, with it the same as JSON (${TEST_ENGINE})`, async () => {
  const { app, db, tokens } = await quotaApp({ perUserMb: '1', perProjectMb: '100' });
  const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
  expect((await api(app, tokens.owner).upload(`/projects/${id}/documents`, pdfOf(700 * 1024), 'a.pdf')).status).toBe(201);
  const cookie = await signIn(app, 'acme');
  const post = (path: string) =>
    request(app)
      .post(path)
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .field('intent', 'document')
      .attach('file', pdfOf(400 * 1024), 'b.pdf');

  const es = await post(`/client/projects/${id}`);
  expect(es.status).toBe(413);
  expect(es.text).toContain(
    'Tus documentos pueden ocupar 1 MB en total, entre todos los proyectos, y quedan 0,3 MB: este archivo no cabe. Borra los documentos que ya no necesites para hacer sitio.',
  );
  const en = await post(`/en/client/projects/${id}`);
  expect(en.status).toBe(413);
  expect(en.text).toContain('Your documents may take 1 MB in all, on every project together, and 0.3 MB are left: this file does not fit.');

  const json = await post(`/en/client/projects/${id}`).set('Accept', 'application/json');
  expect(json.status).toBe(413);
  expect(json.body).toMatchObject({
    ok: false,
    form: { form: 'document', error: { code: 'user_quota_exceeded', params: { quota: 1, left: 0.3 } } },
  });
  expect(await stored(db)).toMatchObject({ documents: 1, bytes: 700 * 1024 });
});

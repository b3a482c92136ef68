// Uploads of project documents hold bounded memory (issue 23, M1; docs/decisions/031): a file
// is read straight into the 256 KiB chunks it is stored in, never joined into one buffer, and
// stored whole, byte for byte. On SQLite and PostgreSQL alike.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Request } from 'express';
import request from 'supertest';
import { afterEach, expect, test, vi } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { readMultipartFile } from '../../server/http/multipart.ts';
import { DOCUMENT_CHUNK_BYTES } from '../../server/projects/document-chunks.ts';
import { signIn } from '../account/helpers.ts';
import { createTestApp, ORIGIN, TEST_ENGINE } from '../helpers/app.ts';
import { api, BRIEF, PDF, signInEveryone, UNLIMITED } from './fixtures.ts';

const BOUNDARY = 'upload-boundary-7c1e';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A PDF of `bytes` bytes that no two calls share (random after the PDF's first bytes). */
function randomPdf(bytes: number): Buffer {
  return Buffer.concat([PDF.subarray(0, 16), randomBytes(bytes - 16)]);
}

/** A multipart/form-data body with the form's `intent` and `file` as a browser sends it. */
function multipartBody(file: Buffer, name: string): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="intent"\r\n\r\ndocument\r\n`),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** A request whose body arrives in pieces of `piece` bytes, as a slow network hands them over. */
function requestInPieces(body: Buffer, piece: number): Request {
  const headers: Record<string, string> = {
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    'content-length': String(body.length),
  };
  const pieces = function* () {
    for (let at = 0; at < body.length; at += piece) yield body.subarray(at, at + piece);
  };
  return Object.assign(Readable.from(pieces(), { objectMode: false }), {
    headers,
    get: (name: string) => headers[name.toLowerCase()],
  }) as unknown as Request;
}

test('the multipart reader keeps a file in pieces of the size asked, the last one shorter, and never joins the file into one buffer', async () => {
  const file = randomPdf(3 * DOCUMENT_CHUNK_BYTES + 1234);
  const req = requestInPieces(multipartBody(file, 'report.pdf'), 777);
  const concat = vi.spyOn(Buffer, 'concat');
  const read = await readMultipartFile(req, {
    field: 'file',
    maxBytes: 10 * 1024 * 1024,
    chunkBytes: DOCUMENT_CHUNK_BYTES,
  });
  // No buffer the size of a chunk or more was made by joining others while the file was read.
  const joined = concat.mock.results.map((result) => (result.value as Buffer).length);
  concat.mockRestore();
  expect(joined.filter((bytes) => bytes >= DOCUMENT_CHUNK_BYTES)).toEqual([]);
  expect(read.name).toBe('report.pdf');
  expect(read.fields).toEqual({ intent: 'document' });
  expect(read.chunks.map((chunk) => chunk.length)).toEqual([DOCUMENT_CHUNK_BYTES, DOCUMENT_CHUNK_BYTES, DOCUMENT_CHUNK_BYTES, 1234]);
  expect(Buffer.compare(Buffer.concat(read.chunks), file)).toBe(0);
});

/** The stored chunks of a document, in order. */
async function storedChunks(db: Db, documentId: number): Promise<Buffer[]> {
  const rows = await db.k
    .selectFrom('project_document_chunks')
    .select(['seq', 'data'])
    .where('document_id', '=', documentId)
    .orderBy('seq')
    .execute();
  return rows.map((row) => (Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data)));
}

const binary = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

test(`a document uploaded through the API or the page form is stored whole, byte for byte, in chunks of 256 KiB (${TEST_ENGINE})`, async () => {
  const { app, db } = await createTestApp(UNLIMITED);
  const tokens = await signInEveryone(app, db);
  const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
  const viaApi = randomPdf(2 * DOCUMENT_CHUNK_BYTES + 5000);
  const stored = await api(app, tokens.owner).upload(`/projects/${id}/documents`, viaApi, 'api.pdf');
  expect(stored.status, JSON.stringify(stored.body)).toBe(201);
  expect(stored.body).toMatchObject({ name: 'api.pdf', contentType: 'application/pdf', bytes: viaApi.length });

  const viaPage = randomPdf(DOCUMENT_CHUNK_BYTES);
  const cookie = await signIn(app, 'acme');
  const posted = await request(app)
    .post(`/en/client/projects/${id}`)
    .set('Cookie', cookie)
    .set('Origin', ORIGIN)
    .field('intent', 'document')
    .attach('file', viaPage, 'page.pdf');
  expect(posted.status, posted.text.slice(0, 300)).toBe(303);

  const documents = (await api(app, tokens.owner).get(`/projects/${id}/documents`)).body.items as { id: number; name: string }[];
  for (const [name, bytes] of [
    ['api.pdf', viaApi],
    ['page.pdf', viaPage],
  ] as const) {
    const doc = documents.find((d) => d.name === name)!;
    const chunks = await storedChunks(db, doc.id);
    const sizes = Array.from({ length: Math.ceil(bytes.length / DOCUMENT_CHUNK_BYTES) }, (_, seq) =>
      Math.min(DOCUMENT_CHUNK_BYTES, bytes.length - seq * DOCUMENT_CHUNK_BYTES),
    );
    expect(chunks.map((chunk) => chunk.length)).toEqual(sizes);
    expect(Buffer.compare(Buffer.concat(chunks), bytes)).toBe(0);
    const downloaded = await api(app, tokens.owner).get(`/projects/${id}/documents/${doc.id}`).buffer(true).parse(binary);
    expect(downloaded.status).toBe(200);
    expect(Buffer.compare(downloaded.body as Buffer, bytes)).toBe(0);
  }
});

// Uploads of project documents hold bounded memory (docs/decisions/031): a file
// is read straight into the 256 KiB chunks it is stored in, never joined into one buffer, and
// stored whole, byte for byte; at most UPLOADS_MAX_CONCURRENT are read at once per process, one
// more waits its turn up to UPLOADS_WAIT_SECONDS, then gets 503 `uploads_busy` with Retry-After
// (API: JSON with the code; page form: the message in the reader's language). On SQLite and
// PostgreSQL alike.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { Express, Request, Response } from 'express';
import request from 'supertest';
import { afterEach, expect, test, vi } from 'vitest';
import { loadConfig } from '../../server/base/config.ts';
import type { Db } from '../../server/db/index.ts';
import { downloadSlots } from '../../server/downloads/slots.ts';
import { readMultipartFile } from '../../server/http/multipart.ts';
import { DOCUMENT_CHUNK_BYTES } from '../../server/projects/document-chunks.ts';
import { signIn } from '../my-account/helpers.ts';
import { createTestApp, ORIGIN, TEST_ENGINE } from '../helpers/app.ts';
import { activeProject, api, BRIEF, PDF, signInEveryone, UNLIMITED } from './fixtures.ts';
import { scaled } from '../helpers/time-scale.ts';

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

test('UPLOADS_MAX_CONCURRENT defaults to 4 and UPLOADS_WAIT_SECONDS to 10; an empty value means the default, a bad one names the variable', () => {
  const defaults = { UPLOADS_MAX_CONCURRENT: 4, UPLOADS_WAIT_SECONDS: 10 };
  expect(loadConfig({})).toMatchObject(defaults);
  expect(loadConfig({ UPLOADS_MAX_CONCURRENT: '', UPLOADS_WAIT_SECONDS: '' })).toMatchObject(defaults);
  expect(loadConfig({ UPLOADS_MAX_CONCURRENT: '1', UPLOADS_WAIT_SECONDS: '0' })).toMatchObject({
    UPLOADS_MAX_CONCURRENT: 1,
    UPLOADS_WAIT_SECONDS: 0,
  });
  expect(() => loadConfig({ UPLOADS_MAX_CONCURRENT: '0' })).toThrow(/UPLOADS_MAX_CONCURRENT/);
  expect(() => loadConfig({ UPLOADS_WAIT_SECONDS: 'long' })).toThrow(/UPLOADS_WAIT_SECONDS/);
});

/** A response as the turns see it: closed once, when a test says so. */
function fakeResponse() {
  const res = Object.assign(new EventEmitter(), { closed: false });
  const close = () => {
    res.closed = true;
    res.emit('close');
  };
  return { res: res as unknown as Response, close };
}

test('past the cap a request waits for a turn, first come first served, and gets one as soon as a request ahead of it ends, whoever sent it', async () => {
  const turns = downloadSlots({ total: 1 });
  const first = fakeResponse();
  expect(turns.take('bea', first.res)).toBeNull();
  const second = fakeResponse();
  const third = fakeResponse();
  const order: string[] = [];
  const waits = [
    turns.wait('bea', second.res, 60_000).then((answer) => order.push(`second ${answer}`)),
    turns.wait('cai', third.res, 60_000).then((answer) => order.push(`third ${answer}`)),
  ];
  await new Promise((resolve) => setImmediate(resolve));
  expect(order).toEqual([]);
  first.close();
  await new Promise((resolve) => setImmediate(resolve));
  expect(order).toEqual(['second null']);
  expect(turns.running()).toBe(1);
  second.close();
  await Promise.all(waits);
  expect(order).toEqual(['second null', 'third null']);
});

test('a request that waited UPLOADS_WAIT_SECONDS without a turn is refused, and one whose client left stops waiting without taking a turn', async () => {
  const turns = downloadSlots({ total: 1 });
  const holder = fakeResponse();
  expect(turns.take('ana', holder.res)).toBeNull();
  expect(await turns.wait('bea', fakeResponse().res, 30)).toBe('process');
  const gone = fakeResponse();
  const waiting = turns.wait('cai', gone.res, 60_000);
  gone.close();
  expect(await waiting).toBe('user');
  holder.close();
  expect(turns.running()).toBe(0);
  // The turn left free is there for the next one.
  expect(await turns.wait('dan', fakeResponse().res, 0)).toBeNull();
});

/**
 * An upload whose body is sent but for its last bytes: it holds its turn while the server waits
 * for them, until `finish()` sends them and reads the answer.
 */
function heldUpload(port: number, path: string, headers: Record<string, string>, body: Buffer) {
  let req!: ClientRequest;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: {
          ...headers,
          Origin: ORIGIN,
          'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
          'Content-Length': String(body.length),
        },
      },
      (res: IncomingMessage) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
  });
  req.write(body.subarray(0, body.length - 100));
  return {
    finish: () => {
      req.end(body.subarray(body.length - 100));
      return answer;
    },
  };
}

/** Resolves once the owner's upload has been admitted: its turn is taken and its body is being read. */
async function admitted(db: Db, uploads: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const row = await db.k.selectFrom('rate_limits').select('count').where('key', '=', 'project-document:acme').executeTakeFirst();
      expect(Number(row?.count ?? 0), 'uploads admitted').toBeGreaterThanOrEqual(uploads);
    },
    { timeout: scaled(10_000), interval: 20 },
  );
}

async function capApp(env: Record<string, string>) {
  const created = await createTestApp({ ...UNLIMITED, ...env });
  const tokens = await signInEveryone(created.app, created.db);
  // Owner and expert both upload to it.
  const id = await activeProject(created.app, tokens);
  const server = created.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const hold = () =>
    heldUpload(
      port,
      `/api/projects/${id}/documents`,
      { Authorization: `Bearer ${tokens.owner}` },
      multipartBody(randomPdf(300_000), 'held.pdf'),
    );
  return { ...created, tokens, id, hold, close: () => new Promise((resolve) => server.close(resolve)) };
}

function pageUpload(app: Express, path: string, cookie: string) {
  return request(app).post(path).set('Cookie', cookie).set('Origin', ORIGIN).field('intent', 'document').attach('file', PDF, 'late.pdf');
}

test(
  `past UPLOADS_MAX_CONCURRENT uploads being read, one more gets 503 uploads_busy with Retry-After once UPLOADS_WAIT_SECONDS have passed: JSON from the API, the message in the reader's language on the page form (${TEST_ENGINE})`,
  async () => {
    const { app, db, tokens, id, hold, close } = await capApp({ UPLOADS_MAX_CONCURRENT: '1', UPLOADS_WAIT_SECONDS: '0' });
    try {
      const held = hold();
      await admitted(db, 1);

      const refused = await api(app, tokens.expert).upload(`/projects/${id}/documents`, PDF, 'late.pdf');
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('10');
      expect(refused.body).toEqual({
        error: { code: 'uploads_busy', message: 'Too many documents are being uploaded right now: send yours again in 10 seconds' },
      });

      const cookie = await signIn(app, 'acme');
      const es = await pageUpload(app, `/client/projects/${id}`, cookie);
      expect(es.status).toBe(503);
      expect(es.headers['retry-after']).toBe('10');
      expect(es.text).toContain(
        'Ahora mismo se están subiendo muchos documentos y el tuyo no se ha podido recibir. Vuelve a enviarlo dentro de 10 segundos.',
      );
      const en = await pageUpload(app, `/en/client/projects/${id}`, cookie);
      expect(en.status).toBe(503);
      expect(en.text).toContain(
        'Many documents are being uploaded right now and yours could not be received. Send it again in 10 seconds.',
      );
      const json = await pageUpload(app, `/en/client/projects/${id}`, cookie).set('Accept', 'application/json');
      expect(json.status).toBe(503);
      expect(json.body).toMatchObject({ ok: false, form: { form: 'document', error: { code: 'uploads_busy', retryAfter: 10 } } });

      // The refused ones were not counted against the owner's uploads per minute; the held one is stored.
      expect((await held.finish()).status).toBe(201);
      const row = await db.k.selectFrom('rate_limits').select('count').where('key', '=', 'project-document:acme').executeTakeFirst();
      expect(Number(row?.count)).toBe(1);
      // Its turn is free again.
      expect((await api(app, tokens.expert).upload(`/projects/${id}/documents`, PDF, 'next.pdf')).status).toBe(201);
    } finally {
      await close();
    }
  },
  scaled(30_000),
);

test(
  `an upload past UPLOADS_MAX_CONCURRENT waits its turn and is stored when the one before it ends (${TEST_ENGINE})`,
  async () => {
    const { app, db, tokens, id, hold, close } = await capApp({ UPLOADS_MAX_CONCURRENT: '1', UPLOADS_WAIT_SECONDS: '30' });
    try {
      const held = hold();
      await admitted(db, 1);
      const events: string[] = [];
      const waiting = api(app, tokens.expert)
        .upload(`/projects/${id}/documents`, PDF, 'patient.pdf')
        .then((res) => {
          events.push('patient answered');
          return res;
        });
      // A moment in which a wrong answer (503, or its turn taken past the limit) would come.
      await new Promise((resolve) => setTimeout(resolve, 300));
      events.push('held finishing');
      expect((await held.finish()).status).toBe(201);
      const patient = await waiting;
      expect(patient.status, JSON.stringify(patient.body)).toBe(201);
      expect(events).toEqual(['held finishing', 'patient answered']);
    } finally {
      await close();
    }
  },
  scaled(30_000),
);

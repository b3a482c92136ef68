import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import { expect, test } from 'vitest';
import type { PdfRenderer } from '../../server/pdf/renderer.ts';
import { createUser } from '../../server/users/users.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { pdfInfo } from './pdf-text.ts';

const PASSWORD = 'correct horse battery';

async function site() {
  const { app, db, contactStore } = await createTestApp();
  await createUser(db, { userName: 'root', password: PASSWORD, role: 'ADMIN', name: 'Rosa', lastName: 'Admin', email: 'rosa@example.com' });
  await createUser(db, {
    userName: 'acme',
    password: PASSWORD,
    role: 'CLI',
    name: 'Acme',
    lastName: 'Corp',
    email: 'acme-unique@example.com',
  });
  contactStore.add(
    { name: 'Lucía', email: 'lucia@example.com', subject: 'Hola', message: 'Un mensaje de prueba.', locale: 'es', ip: null },
    false,
  );
  const cookie = async (identifier: string) => {
    const res = await request(app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier, password: PASSWORD });
    return String(res.headers['set-cookie']).split(';')[0]!;
  };
  return { app, cookie };
}

const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

test('"my profile" is a PDF for every signed-in user, localised, not cached, with a sensible file name', async () => {
  const { app, cookie } = await site();
  const acme = await cookie('acme');
  const en = await binary(request(app).get('/en/documents/my-profile.pdf').set('Cookie', acme));
  expect(en.status).toBe(200);
  expect(en.headers['content-type']).toBe('application/pdf');
  expect(en.headers['cache-control']).toBe('private, no-store, no-transform');
  expect(en.headers['content-disposition']).toMatch(/^attachment; filename="my-profile-acme-\d{4}-\d{2}-\d{2}\.pdf"$/);
  const pdf = en.body as Buffer;
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdfInfo(pdf, 'Title')).toBe('My profile');
  for (const weight of ['Regular', 'Bold', 'Black'])
    expect(pdf.toString('latin1')).toMatch(new RegExp(`/BaseFont /[A-Z]{6}\\+Montserrat-${weight}`));
  const es = await binary(request(app).get('/documents/my-profile.pdf').set('Cookie', acme));
  expect(pdfInfo(es.body as Buffer, 'Title')).toBe('Mi perfil');
  expect(es.headers['content-disposition']).toContain('mi-perfil-acme-');
});

test('the profile PDF holds no other user’s data', async () => {
  const { app, cookie } = await site();
  const res = await binary(
    request(app)
      .get('/en/documents/my-profile.pdf')
      .set('Cookie', await cookie('root')),
  );
  expect((res.body as Buffer).toString('latin1')).not.toContain('acme-unique@example.com');
});

test('the admin reports are for admins only: signed out goes to login, other roles get 403', async () => {
  const { app, cookie } = await site();
  for (const path of ['/en/documents/users.pdf', '/en/documents/contact-messages.pdf', '/en/documents/my-profile.pdf']) {
    const out = await request(app).get(path);
    expect(out.status).toBe(302);
    expect(out.headers.location).toBe('/en/login');
  }
  const acme = await cookie('acme');
  expect((await request(app).get('/documents/users.pdf').set('Cookie', acme)).status).toBe(403);
  expect((await request(app).get('/documents/contact-messages.pdf').set('Cookie', acme)).status).toBe(403);
});

test('admins download the users and contact-messages reports', async () => {
  const { app, cookie } = await site();
  const root = await cookie('root');
  const users = await binary(request(app).get('/en/documents/users.pdf').set('Cookie', root));
  expect(users.status).toBe(200);
  expect(pdfInfo(users.body as Buffer, 'Title')).toBe('Users');
  const messages = await binary(request(app).get('/documents/contact-messages.pdf').set('Cookie', root));
  expect(messages.status).toBe(200);
  expect(pdfInfo(messages.body as Buffer, 'Title')).toBe('Mensajes de contacto');
  expect(messages.headers['content-disposition']).toContain('mensajes-contacto-');
});

test.each(['from=0000-01-01&to=9999-12-31', 'to=9999-12-31', 'from=0099-12-31'])(
  'the contact-messages report takes both ends of the days the contract allows: ?%s',
  async (query) => {
    const { app, cookie } = await site();
    const res = await binary(
      request(app)
        .get(`/en/documents/contact-messages.pdf?${query}`)
        .set('Cookie', await cookie('root')),
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
  },
);

test("an administrator's documents are queued as staff's (a full queue makes room for them), a client's as their own", async () => {
  const asked: { owner?: string; staff?: boolean }[] = [];
  const renderer: PdfRenderer = {
    render: async (_job, options = {}) => {
      asked.push({ owner: options.owner, staff: options.staff });
      return Buffer.from('%PDF-1.4\n%%EOF\n');
    },
    state: () => ({ running: false, waiting: 0, thread: false }),
    close: async () => {},
  };
  const { app, db } = await createTestApp({}, { pdfRenderer: renderer });
  await createUser(db, { userName: 'root', password: PASSWORD, role: 'ADMIN', name: 'Rosa', lastName: 'Admin' });
  await createUser(db, { userName: 'acme', password: PASSWORD, role: 'CLI', name: 'Acme', lastName: 'Corp' });
  const cookie = async (identifier: string) => {
    const res = await request(app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier, password: PASSWORD });
    return String(res.headers['set-cookie']).split(';')[0]!;
  };
  expect(
    (
      await request(app)
        .get('/en/documents/users.pdf')
        .set('Cookie', await cookie('root'))
    ).status,
  ).toBe(200);
  expect(
    (
      await request(app)
        .get('/en/documents/my-profile.pdf')
        .set('Cookie', await cookie('acme'))
    ).status,
  ).toBe(200);
  expect(asked).toEqual([
    { owner: 'root', staff: true },
    { owner: 'acme', staff: false },
  ]);
});

test('a client that stops reading its PDF has the connection closed after DOWNLOAD_STALL_SECONDS, and the PDF is not held', async () => {
  // A "PDF" far larger than the socket buffers take, so that a client that reads nothing stalls it.
  const huge = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(32 * 1024 * 1024, 0x20)]);
  const renderer: PdfRenderer = {
    render: async () => huge,
    state: () => ({ running: false, waiting: 0, thread: false }),
    close: async () => {},
  };
  const { app, db } = await createTestApp({ DOWNLOAD_STALL_SECONDS: '1' }, { pdfRenderer: renderer });
  await createUser(db, { userName: 'acme', password: PASSWORD, role: 'CLI', name: 'Acme', lastName: 'Corp' });
  const login = await request(app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier: 'acme', password: PASSWORD });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.on('error', () => undefined);
    // Reads nothing for longer than the deadline, then everything there is.
    socket.pause();
    socket.write(`GET /en/documents/my-profile.pdf HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    let received = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.resume();
    await once(socket, 'close');
    // Ended by the server half-way: what had been handed to the socket's buffers, never the whole PDF.
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(huge.length);
  } finally {
    server.close();
  }
});

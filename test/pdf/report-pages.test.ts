// A report is one page of its list: the route checks the query, reads only that page (LIMIT /
// OFFSET, texts cut in SQL), says what it covers, and hands the layout to the renderer.
import { userRow } from '../helpers/users.ts';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createUser } from '../../server/users/users.ts';
import type { Backend } from '../../server/auth/backend.ts';
import { contactMessages } from '../../server/contact/messages.ts';
import type { Db } from '../../server/db/index.ts';
import { renderJob, type PdfJob } from '../../server/pdf/jobs.ts';
import { pdfRenderer, type PdfRenderer } from '../../server/pdf/renderer.ts';
import { reportSlice } from '../../server/pdf/report-query.ts';
import { usersSlice } from '../../server/pdf/routes.ts';
import type { UserList } from '../../shared/page-data.ts';
import { createTestApp, ORIGIN, testDatabase } from '../helpers/app.ts';
import { pdfText } from './pdf-text.ts';

const PASSWORD = 'correct horse battery';

/** Lays out in this thread and keeps each job, to see what the route read. */
function recordingRenderer(): { renderer: PdfRenderer; jobs: PdfJob[] } {
  const jobs: PdfJob[] = [];
  const renderer: PdfRenderer = {
    render: async (job) => {
      jobs.push(structuredClone(job));
      return renderJob(job);
    },
    state: () => ({ running: false, waiting: 0, thread: false }),
    close: async () => {},
  };
  return { renderer, jobs };
}

/** Messages 0…count-1, one a day at noon UTC from 1 January 2026, message i read when `read(i)`. */
async function addMessages(db: Db, count: number, read: (i: number) => boolean = () => false) {
  const rows = Array.from({ length: count }, (_, i) => {
    const at = new Date(Date.UTC(2026, 0, 1 + i, 12)).toISOString();
    return {
      name: `Sender ${i}`,
      email: `s${i}@example.com`,
      subject: `Asunto ${String(i).padStart(3, '0')}`,
      message: `Texto ${i}.`,
      locale: 'es',
      consent_at: at,
      read: read(i) ? 1 : 0,
      notify_status: 'none',
      notify_attempts: 0,
      created_at: at,
    };
  });
  await db.k.insertInto('contact_messages').values(rows).execute();
}

function binary(req: request.Test) {
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}

async function site(renderer: PdfRenderer) {
  const made = await createTestApp(undefined, { pdfRenderer: renderer });
  await createUser(made.db, { userName: 'root', password: PASSWORD, role: 'ADMIN', name: 'Rosa', lastName: 'Admin' });
  const login = await request(made.app).post('/login').set('Origin', ORIGIN).type('form').send({ identifier: 'root', password: PASSWORD });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const get = (path: string) => binary(request(made.app).get(path).set('Cookie', cookie));
  return { ...made, get };
}

const subjects = (job: PdfJob | undefined) => (job?.kind === 'messages' ? job.messages.map((m) => m.subject) : []);

describe('the contact-messages report', () => {
  test('is one page of 50 messages, newest first: page 3 of 120 holds messages 101–120 and says so', async () => {
    const { renderer, jobs } = recordingRenderer();
    const { db, get } = await site(renderer);
    await addMessages(db, 120);
    const res = await get('/documents/contact-messages.pdf?page=3');
    expect(res.status).toBe(200);
    expect(subjects(jobs[0])).toEqual(Array.from({ length: 20 }, (_, i) => `Asunto ${String(19 - i).padStart(3, '0')}`));
    expect(pdfText(res.body as Buffer)).toContain('Mensajes 101–120 de 120 · 120 sin leer');
    const first = await get('/en/documents/contact-messages.pdf');
    expect(subjects(jobs[1])).toHaveLength(50);
    expect(subjects(jobs[1])[0]).toBe('Asunto 119');
    expect(pdfText(first.body as Buffer)).toContain('Messages 1–50 of 120 · 120 unread');
  });

  test('a page past the end is a 404 that says where the end is, and nothing is laid out', async () => {
    const { renderer, jobs } = recordingRenderer();
    const { db, get } = await site(renderer);
    await addMessages(db, 120);
    const res = await get('/en/documents/contact-messages.pdf?page=4');
    expect(res.status).toBe(404);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(String(res.body)).toBe('Page 4 is past the end of this report: 120 messages make 3 page(s) of 50');
    expect(jobs).toHaveLength(0);
  });

  test('an empty inbox still has its page 1, which says there is nothing', async () => {
    const { renderer } = recordingRenderer();
    const { get } = await site(renderer);
    const res = await get('/en/documents/contact-messages.pdf?from=2026-01-01');
    expect(res.status).toBe(200);
    expect(pdfText(res.body as Buffer)).toContain('0 messages from January 1, 2026 on');
    expect((await get('/en/documents/contact-messages.pdf?page=2')).status).toBe(404);
  });

  test('a date range takes whole days in Madrid, and the document gives its count and unread', async () => {
    const { renderer, jobs } = recordingRenderer();
    const { db, get } = await site(renderer);
    await addMessages(db, 120, (i) => i % 2 === 0);
    // 23:30 UTC on 31 January is 00:30 on 1 February in Madrid: in February.
    await db.k
      .updateTable('contact_messages')
      .set({ created_at: '2026-01-31T23:30:00.000Z' })
      .where('subject', '=', 'Asunto 029')
      .execute();
    const res = await get('/en/documents/contact-messages.pdf?from=2026-02-01&to=2026-02-28');
    expect(res.status).toBe(200);
    // 1–28 February are messages 31–58, and message 29 moved into 1 February.
    expect(subjects(jobs[0])).toHaveLength(29);
    expect(subjects(jobs[0])).toContain('Asunto 029');
    expect(subjects(jobs[0])).not.toContain('Asunto 030');
    expect(subjects(jobs[0])).not.toContain('Asunto 059');
    // Even messages are read: 29 (odd) and the 14 odd ones among 31–58 are not.
    expect(pdfText(res.body as Buffer)).toContain('Messages 1–29 of 29 from February 1, 2026 to February 28, 2026 · 15 unread');
  });

  test.each([
    ['?page=0', 'Bad query parameter page: page must be a whole number from 1 to 100000, not "0"'],
    ['?page=abc', 'Bad query parameter page: page must be a whole number from 1 to 100000, not "abc"'],
    ['?page=1&page=2', 'Bad query parameter page: page must be given once, not repeated'],
    ['?from=2026-13-01', 'Bad query parameter from: from must be a day written YYYY-MM-DD, not "2026-13-01"'],
    ['?to=yesterday', 'Bad query parameter to: to must be a day written YYYY-MM-DD, not "yesterday"'],
    ['?from=2026-02-01&to=2026-01-01', 'Bad query parameter to: to (2026-01-01) must not be before from (2026-02-01)'],
  ])('refuses %s with a 400 naming the parameter, before reading or laying out anything', async (query, message) => {
    const { renderer, jobs } = recordingRenderer();
    const { get } = await site(renderer);
    const res = await get(`/en/documents/contact-messages.pdf${query}`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(String(res.body)).toBe(message);
    expect(jobs).toHaveLength(0);
  });
});

describe('the contact store', () => {
  test('reads one page with LIMIT/OFFSET, each text cut by the database with its full length', async () => {
    const db = await testDatabase();
    const store = contactMessages(db);
    await addMessages(db, 10);
    await db.k
      .updateTable('contact_messages')
      .set({ message: 'x'.repeat(1_000_000) })
      .where('subject', '=', 'Asunto 009')
      .execute();
    const page = await store.page({ offset: 0, limit: 3, bodyChars: 100 });
    expect(page.map((m) => m.subject)).toEqual(['Asunto 009', 'Asunto 008', 'Asunto 007']);
    expect(page[0]).toMatchObject({ message: 'x'.repeat(100), length: 1_000_000 });
    expect(page[1]).toMatchObject({ message: 'Texto 8.', length: 8 });
    expect((await store.page({ offset: 9, limit: 3, bodyChars: 100 })).map((m) => m.subject)).toEqual(['Asunto 000']);
    expect(await store.page({ offset: 10, limit: 3, bodyChars: 100 })).toEqual([]);
  });

  test('counts a range and its unread without reading the rows', async () => {
    const db = await testDatabase();
    const store = contactMessages(db);
    await addMessages(db, 10, (i) => i < 4);
    expect(await store.count()).toEqual({ total: 10, unread: 6 });
    const range = { since: '2026-01-03T00:00:00.000Z', before: '2026-01-06T00:00:00.000Z' };
    // Messages 2, 3 (read) and 4 (unread).
    expect(await store.count(range)).toEqual({ total: 3, unread: 1 });
    expect((await store.page({ ...range, offset: 0, limit: 50, bodyChars: 10 })).map((m) => m.subject)).toEqual([
      'Asunto 004',
      'Asunto 003',
      'Asunto 002',
    ]);
  });
});

describe('the users report', () => {
  /** A users API of `total` users that hands out pages of at most `largest`, recording what it is asked. */
  function fakeBackend(total: number, largest = 100) {
    const asked: { page: number; pageSize: number }[] = [];
    const backend = {
      listUsers: async (_token: string, query: { page?: number; pageSize?: number }): Promise<UserList> => {
        const page = query.page ?? 1;
        const pageSize = Math.min(largest, query.pageSize ?? 20);
        asked.push({ page, pageSize });
        const items = Array.from({ length: Math.max(0, Math.min(pageSize, total - (page - 1) * pageSize)) }, (_, i) => ({
          userName: `user-${(page - 1) * pageSize + i}`,
        })) as UserList['items'];
        return { items, total, page, pageSize };
      },
    } as unknown as Backend;
    return { backend, asked };
  }

  test('page 2 of 1,234 users reads API pages 6–10 of 100 and nothing else', async () => {
    const { backend, asked } = fakeBackend(1234);
    const { items, total } = await usersSlice(backend, 'token', reportSlice(2, 500));
    expect(asked.map((a) => a.page)).toEqual([6, 7, 8, 9, 10]);
    expect(asked.every((a) => a.pageSize === 100)).toBe(true);
    expect(total).toBe(1234);
    expect(items.map((u) => u.userName)).toEqual(Array.from({ length: 500 }, (_, i) => `user-${500 + i}`));
  });

  test('the last page stops at the end of the list', async () => {
    const { backend, asked } = fakeBackend(1234);
    const { items } = await usersSlice(backend, 'token', reportSlice(3, 500));
    expect(asked.map((a) => a.page)).toEqual([11, 12, 13]);
    expect(items.map((u) => u.userName)).toEqual(Array.from({ length: 234 }, (_, i) => `user-${1000 + i}`));
  });

  test('an API that hands out smaller pages than asked is followed in its own pages', async () => {
    const { backend, asked } = fakeBackend(1234, 30);
    const { items } = await usersSlice(backend, 'token', reportSlice(2, 500));
    // The first answer (page 6 of 30) is only used to learn the size; then pages 17–34 of 30.
    expect(asked[0]).toEqual({ page: 6, pageSize: 30 });
    expect(asked.slice(1).map((a) => a.page)).toEqual(Array.from({ length: 18 }, (_, i) => 17 + i));
    expect(items.map((u) => u.userName)).toEqual(Array.from({ length: 500 }, (_, i) => `user-${500 + i}`));
  });

  test('over HTTP: page 3 of 1,235 users holds users 1,001–1,235 and says so; page 4 is a 404; a date range is refused', async () => {
    const { renderer, jobs } = recordingRenderer();
    const { db, get } = await site(renderer);
    const rows = Array.from({ length: 1234 }, (_, i) => userRow({ user_name: `user-${String(i).padStart(4, '0')}` }));
    // In chunks: PostgreSQL takes at most 65,535 parameters in one statement.
    for (let i = 0; i < rows.length; i += 500)
      await db.k
        .insertInto('users')
        .values(rows.slice(i, i + 500))
        .execute();
    const res = await get('/en/documents/users.pdf?page=3');
    expect(res.status).toBe(200);
    const job = jobs[0]!;
    expect(job.kind === 'users' && job.users.length).toBe(235);
    expect(pdfText(res.body as Buffer)).toContain('Users 1,001–1,235 of 1,235');
    const past = await get('/en/documents/users.pdf?page=4');
    expect(past.status).toBe(404);
    expect(String(past.body)).toBe('Page 4 is past the end of this report: 1235 users make 3 page(s) of 500');
    const range = await get('/en/documents/users.pdf?from=2026-01-01');
    expect(range.status).toBe(400);
    expect(String(range.body)).toBe('Bad query parameter from: from is not a parameter of this report: it has no date range');
    expect(jobs).toHaveLength(1);
  });
});

describe('the layout queue', () => {
  test('a document beyond the queue is a 503 with Retry-After, while the one in progress is made', async () => {
    const renderer = pdfRenderer({ maxWaiting: 0 });
    try {
      const { db, get } = await site(renderer);
      await addMessages(db, 50);
      const answers = await Promise.all([get('/en/documents/contact-messages.pdf'), get('/en/documents/contact-messages.pdf')]);
      const [made, refused] = answers.sort((a, b) => a.status - b.status);
      expect(made!.status).toBe(200);
      expect((made!.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(refused!.status).toBe(503);
      expect(refused!.headers['retry-after']).toBe('5');
      expect(String(refused!.body)).toBe('Too many documents are being made: try again in 5 seconds');
    } finally {
      await renderer.close();
    }
  });
});

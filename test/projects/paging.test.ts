// A project's history and conversation are pages (docs/decisions/030): at
// 25,000 events and 5,000 messages the project page, its /_data and the API answer one page
// each, newest first, with the way to the older ones — a link without JavaScript, `before=<id>`
// in the API. The rows are written straight into the database, as years of use would leave them.
import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { PAGE_SIZES } from '../../shared/paging.ts';
import { createTestApp, ORIGIN, TEST_ENGINE } from '../helpers/app.ts';
import { revealStreamed } from '../helpers/streamed-html.ts';
import { DEFAULT_PASSWORD } from '../helpers/users.ts';
import { activeProject, api, PEOPLE, signInEveryone, type Person, UNLIMITED } from './fixtures.ts';
import { scaled } from '../helpers/time-scale.ts';

const EVENTS = 25_000;
const MESSAGES = 5_000;
/** The project page with one page of each list, whatever the project holds (it was 7.3 MB at 25,000 events). */
const PAGE_BYTES_MAX = 150_000;

let app: Express;
let db: Db;
let tokens: Record<Person, string>;
let id: number;
let cookie: string;

async function bulkInsert(table: 'project_events' | 'project_messages', count: number, row: (i: number) => object) {
  for (let i = 0; i < count; i += 500) {
    const rows = Array.from({ length: Math.min(500, count - i) }, (_, j) => row(i + j));
    await db.k
      .insertInto(table)
      .values(rows as never)
      .execute();
  }
}

beforeAll(async () => {
  const created = await createTestApp(UNLIMITED);
  app = created.app;
  db = created.db;
  tokens = await signInEveryone(app, db);
  id = await activeProject(app, tokens);
  const at = new Date().toISOString();
  await bulkInsert('project_events', EVENTS, (i) => ({
    project_id: id,
    at,
    actor: 'eva',
    actor_name: 'Eva Expert',
    kind: 'milestone_done',
    from_state: null,
    to_state: null,
    detail: `Step ${String(i).padStart(5, '0')}`,
  }));
  await bulkInsert('project_messages', MESSAGES, (i) => ({
    project_id: id,
    author: 'eva',
    author_name: 'Eva Expert',
    author_role: 'CONS',
    body: `Note ${String(i).padStart(4, '0')}`,
    created_at: at,
  }));
  const login = await request(app)
    .post('/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: PEOPLE.owner.userName, password: DEFAULT_PASSWORD });
  cookie = ([] as string[])
    .concat(login.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('auth._token.local=') && !c.startsWith('auth._token.local=;'))!
    .split(';')[0]!;
}, scaled(120_000));

const page = (path: string) => request(app).get(path).set('Cookie', cookie);
const historyItems = (html: string) => [...html.matchAll(/Step (\d{5})/g)].map((m) => Number(m[1]));
const messageItems = (html: string) => [...html.matchAll(/<p class="project-text">Note (\d{4})<\/p>/g)].map((m) => Number(m[1]));
const decode = (href: string) => href.replace(/&amp;/g, '&');

describe(`a project with ${EVENTS} events and ${MESSAGES} messages (${TEST_ENGINE})`, () => {
  test(`its page lists exactly one page of each, newest first, in under ${PAGE_BYTES_MAX} bytes`, async () => {
    const res = await page(`/en/client/projects/${id}`);
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.text)).toBeLessThan(PAGE_BYTES_MAX);
    // Without JavaScript the page is whole: a section React moves into place by a script (one
    // that streamed) comes with the noscript style that shows it; one that was there is in place.
    if (/\$RC\(/.test(res.text)) expect(res.text).toContain('<noscript><style');
    const html = revealStreamed(res.text);
    // The page shows each list once (the boot data carries the same values for hydration).
    const body = html.slice(0, html.indexOf('id="__BOOT__"'));
    expect(historyItems(body)).toEqual(Array.from({ length: PAGE_SIZES.history.default }, (_, i) => EVENTS - 1 - i));
    // The thread reads oldest first: the newest page, turned over.
    expect(messageItems(body)).toEqual(Array.from({ length: PAGE_SIZES.messages.default }, (_, i) => MESSAGES - 50 + i));
    // The project's own four events (created, proposal, accepted, expert assigned) are the oldest.
    expect(body).toContain(`Showing 50 of ${EVENTS + 4}.`);
    expect(body).toContain(`Showing 50 of ${MESSAGES}.`);
    expect(body).toMatch(/<a href="\?historyBefore=\d+#history-title"[^>]*>Show older events<\/a>/);
    expect(body).toMatch(/<a href="\?messagesBefore=\d+#messages-title"[^>]*>Show older messages<\/a>/);
  });

  test('"Show older" works without JavaScript: a GET with the cursor shows the next older page, and the way back', async () => {
    const first = revealStreamed((await page(`/en/client/projects/${id}`)).text);
    const older = decode(/<a href="(\?historyBefore=\d+)#history-title"/.exec(first)![1]!);
    const next = revealStreamed((await page(`/en/client/projects/${id}${older}`)).text);
    const body = next.slice(0, next.indexOf('id="__BOOT__"'));
    expect(historyItems(body)).toEqual(Array.from({ length: 50 }, (_, i) => EVENTS - 51 - i));
    expect(body).toContain('Back to the newest events');
    // The conversation stays on its newest page; its own link keeps the history's place.
    expect(messageItems(body)).toEqual(Array.from({ length: 50 }, (_, i) => MESSAGES - 50 + i));
    const olderMessages = decode(/<a href="(\?[^"#]*messagesBefore=\d+)#messages-title"/.exec(body)![1]!);
    expect(olderMessages).toContain('historyBefore=');
    const both = revealStreamed((await page(`/en/client/projects/${id}${olderMessages}`)).text);
    const shown = both.slice(0, both.indexOf('id="__BOOT__"'));
    expect(messageItems(shown)).toEqual(Array.from({ length: 50 }, (_, i) => MESSAGES - 100 + i));
    expect(historyItems(shown)[0]).toBe(EVENTS - 51);
  });

  test('a cursor that is not an id shows the newest page (a bad link is no error page)', async () => {
    for (const bad of ['abc', '-1', '0', '99999999999']) {
      const res = await page(`/en/client/projects/${id}?historyBefore=${bad}&messagesBefore=${bad}`);
      expect(res.status).toBe(200);
      expect(historyItems(revealStreamed(res.text))[0]).toBe(EVENTS - 1);
    }
  });

  test('/_data answers the same single pages, and the next cursor, within the page budget', async () => {
    const res = await page(`/_data?path=${encodeURIComponent(`/en/client/projects/${id}`)}`);
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.text)).toBeLessThan(PAGE_BYTES_MAX / 2);
    const data = res.body.payload.state.data;
    expect(data.project).not.toHaveProperty('events');
    expect(data.history).toMatchObject({ total: EVENTS + 4, pageSize: 50, before: null });
    expect(data.history.items).toHaveLength(50);
    expect(data.history.nextBefore).toBe(data.history.items[49].id);
    expect(data.messages).toMatchObject({ total: MESSAGES, pageSize: 50, before: null });
    expect(data.messages.items).toHaveLength(50);
    const older = await page(`/_data?path=${encodeURIComponent(`/en/client/projects/${id}?historyBefore=${data.history.nextBefore}`)}`);
    expect(older.body.payload.state.data.history.items[0].id).toBeLessThan(data.history.nextBefore);
    expect(older.body.payload.state.data.history.items).toHaveLength(50);
  });

  test('the API: the project holds no history; its events and messages come a page at a time, at most the maximum', async () => {
    const owner = api(app, tokens.owner);
    const project = await owner.get(`/projects/${id}`);
    expect(project.status).toBe(200);
    expect(project.body).not.toHaveProperty('events');
    expect(Buffer.byteLength(project.text)).toBeLessThan(5_000);
    for (const list of ['events', 'messages'] as const) {
      const max = PAGE_SIZES[list === 'events' ? 'history' : 'messages'].max;
      const newest = await owner.get(`/projects/${id}/${list}`);
      expect(newest.body.items).toHaveLength(50);
      const biggest = await owner.get(`/projects/${id}/${list}?pageSize=${max}`);
      expect(biggest.body.items).toHaveLength(max);
      // Each page follows the one before, none skipped, none twice.
      const next = await owner.get(`/projects/${id}/${list}?pageSize=${max}&before=${biggest.body.nextBefore}`);
      expect(next.body.items[0].id).toBeLessThan(biggest.body.items[max - 1].id);
      const ids = [...biggest.body.items, ...next.body.items].map((item: { id: number }) => item.id);
      expect(new Set(ids).size).toBe(2 * max);
      const tooMany = await owner.get(`/projects/${id}/${list}?pageSize=${max + 1}`);
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error.fields).toHaveProperty('pageSize');
      for (const [query, field] of [
        ['before=abc', 'before'],
        ['before=0', 'before'],
        ['page=2', 'page'],
      ] as const) {
        const bad = await owner.get(`/projects/${id}/${list}?${query}`);
        expect(bad.status, query).toBe(400);
        expect(bad.body.error.fields, query).toHaveProperty(field);
      }
    }
  });

  test('the oldest page ends the list: no cursor after it', async () => {
    const owner = api(app, tokens.owner);
    const firstMessage = await db.k
      .selectFrom('project_messages')
      .select((eb) => eb.fn.min('id').as('id'))
      .where('project_id', '=', id)
      .executeTakeFirstOrThrow();
    const last = await owner.get(`/projects/${id}/messages?before=${Number(firstMessage.id) + 3}`);
    expect(last.body.items.map((m: { body: string }) => m.body)).toEqual(['Note 0002', 'Note 0001', 'Note 0000']);
    expect(last.body.nextBefore).toBeNull();
  });

  test('reading an older page of the conversation does not mark it read; the newest page does', async () => {
    await api(app, tokens.expert).post(`/projects/${id}/messages`, { body: 'A new one' });
    const owner = api(app, tokens.owner);
    expect((await owner.get(`/projects/${id}`)).body.unread).toBe(1);
    const newest = await db.k
      .selectFrom('project_messages')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('project_id', '=', id)
      .executeTakeFirstOrThrow();
    expect((await owner.get(`/projects/${id}/messages?before=${Number(newest.id)}`)).status).toBe(200);
    expect((await owner.get(`/projects/${id}`)).body.unread).toBe(1);
    await owner.get(`/projects/${id}/messages`);
    expect((await owner.get(`/projects/${id}`)).body.unread).toBe(0);
  });
});

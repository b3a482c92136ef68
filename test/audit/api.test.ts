// GET /api/admin/audit: for admins only; newest first, in pages; filtered by action, user (as
// actor or target), actor, target and Madrid days; a bad filter is a 400 that names it.
import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, expect, test } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { addUser, DEFAULT_PASSWORD, loginToken } from '../helpers/users.ts';

const USERS = [
  { userName: 'ada', role: 'ADMIN' },
  { userName: 'carla', role: 'CLI' },
  { userName: 'olga', role: 'ORG' },
  { userName: 'ernesto', role: 'CONS' },
] as const;

/** The seeded entries, oldest first (each an hour after the one before, from 2026-03-01 09:00 UTC). */
const SEEDED = [
  { action: 'user_created', actor: 'ops', target: 'ada', detail: { role: 'ADMIN' } },
  { action: 'sign_in', actor: 'ana', target: null, detail: { via: 'form' } },
  { action: 'sign_in_failed', actor: null, target: 'Ana', detail: { via: 'form' } },
  { action: 'role_changed', actor: 'ada', target: 'ana', detail: { from: 'CLI', to: 'ORG' } },
  { action: 'role_changed', actor: 'ada', target: 'bob', detail: { from: 'CLI', to: 'CONS' } },
  { action: 'sessions_ended', actor: 'ada', target: 'bob', detail: { count: 2 } },
  { action: 'sign_out', actor: 'ana', target: null, detail: {} },
] as const;
const FIRST_AT = Date.parse('2026-03-01T09:00:00Z');
const HOUR = 3_600_000;

let app: Express;
let db: Db;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  ({ app, db } = await createTestApp());
  for (const user of USERS) await addUser(db, user);
  for (const user of USERS) tokens[user.role] = await loginToken(app, user.userName);
  // Only the seeded entries: the sign-ins above are dated now, far after them; the tests ask for March 2026.
  await db.k
    .insertInto('audit_log')
    .values(
      SEEDED.map((entry, i) => ({
        at: new Date(FIRST_AT + i * HOUR).toISOString(),
        action: entry.action,
        actor: entry.actor,
        target: entry.target,
        ip: '198.51.100.4',
        detail: JSON.stringify(entry.detail),
      })),
    )
    .execute();
});

const MARCH = 'from=2026-03-01&to=2026-03-31';
const get = (query: string, token = tokens.ADMIN!) => request(app).get(`/api/admin/audit?${query}`).set('Authorization', `Bearer ${token}`);
/** The seeded entries a list holds, by their index in SEEDED. */
const indexes = (items: { action: string; at: string }[]) => items.map((item) => (Date.parse(item.at) - FIRST_AT) / HOUR);

test('GET /api/admin/audit signed out answers 401 with WWW-Authenticate: Bearer', async () => {
  const res = await request(app).get('/api/admin/audit').set('Origin', ORIGIN);
  expect(res.status).toBe(401);
  expect(res.body.error.code).toBe('unauthorized');
  expect(res.headers['www-authenticate']).toBe('Bearer');
});

test.each(['CLI', 'ORG', 'CONS'])('GET /api/admin/audit as %s without the scope audit:read answers 403 forbidden', async (role) => {
  const res = await get('', tokens[role]);
  expect(res.status).toBe(403);
  expect(res.body).toEqual({
    error: { code: 'forbidden', message: 'Only administrators and users with the scope audit:read may do this' },
  });
});

test('an admin reads the log newest first, with total, page and pageSize, and no cache', async () => {
  const res = await get(MARCH);
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(res.body).toMatchObject({ total: SEEDED.length, page: 1, pageSize: 20 });
  expect(indexes(res.body.items)).toEqual([6, 5, 4, 3, 2, 1, 0]);
  expect(res.body.items[3]).toEqual({
    id: expect.any(Number),
    at: '2026-03-01T12:00:00.000Z',
    action: 'role_changed',
    actor: 'ada',
    target: 'ana',
    ip: '198.51.100.4',
    detail: { from: 'CLI', to: 'ORG' },
  });
});

test('the log comes in pages of pageSize', async () => {
  const pages = await Promise.all([1, 2, 3].map((page) => get(`${MARCH}&pageSize=3&page=${page}`)));
  expect(pages.map((res) => indexes(res.body.items))).toEqual([[6, 5, 4], [3, 2, 1], [0]]);
  expect(pages.map((res) => res.body.total)).toEqual([7, 7, 7]);
  expect((await get(`${MARCH}&pageSize=3&page=4`)).body.items).toEqual([]);
});

test.each([
  { query: 'action=role_changed', expected: [4, 3] },
  { query: 'user=ana', expected: [6, 3, 2, 1] },
  { query: 'user=BOB', expected: [5, 4] },
  { query: 'actor=ada', expected: [5, 4, 3] },
  { query: 'actor=ops', expected: [0] },
  { query: 'target=ana', expected: [3, 2] },
  { query: 'action=sign_in_failed&user=ana', expected: [2] },
  { query: 'action=sign_in&user=bob', expected: [] },
  { query: 'from=2026-03-01&to=2026-03-01', expected: [6, 5, 4, 3, 2, 1, 0] },
  { query: 'from=2026-03-02&to=2026-03-31', expected: [] },
])('GET /api/admin/audit?$query filters the log', async ({ query, expected }) => {
  const res = await get(query.startsWith('from=') ? query : `${MARCH}&${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(indexes(res.body.items)).toEqual(expected);
  expect(res.body.total).toBe(expected.length);
});

test.each([
  { query: 'action=made_up', field: 'action' },
  { query: 'from=2026-02-30', field: 'from' },
  { query: 'to=yesterday', field: 'to' },
  { query: 'from=2026-03-10&to=2026-03-09', field: 'to' },
  { query: 'page=0', field: 'page' },
  { query: 'pageSize=101', field: 'pageSize' },
  { query: 'user=', field: 'user' },
  { query: 'action=sign_in&action=sign_out', field: 'action' },
])('GET /api/admin/audit?$query answers 400 naming $field', async ({ query, field }) => {
  const res = await get(query);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('invalid_request');
  expect(Object.keys(res.body.error.fields)).toEqual([field]);
  expect(res.body.error.message).toContain(field);
});

test.each([
  { query: 'to=9999-12-31', expected: [6, 5, 4, 3, 2, 1, 0] },
  { query: 'from=0000-01-01&to=9999-12-31', expected: [6, 5, 4, 3, 2, 1, 0] },
  { query: 'from=0000-01-01&to=0099-12-31', expected: [] },
  { query: 'from=9999-12-31', expected: [] },
])(
  'GET /api/admin/audit?$query takes both ends of the days the contract allows (0000-01-01 to 9999-12-31)',
  async ({ query, expected }) => {
    const res = await get(query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The sign-ins of beforeAll are dated now: only the seeded entries are counted.
    const seeded = res.body.items.filter((item: { at: string }) => item.at.startsWith('2026-03-01'));
    expect(indexes(seeded)).toEqual(expected);
  },
);

test('the admin console reads it with the session cookie (no token in the browser)', async () => {
  const login = await request(app)
    .post('/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: 'ada', password: DEFAULT_PASSWORD });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const res = await request(app).get(`/api/admin/audit?${MARCH}&action=sessions_ended`).set('Cookie', cookie);
  expect(res.status).toBe(200);
  expect(indexes(res.body.items)).toEqual([5]);
});

test('the audit page carries the first page of the log for the filter in its URL (and ignores a bad one)', async () => {
  const login = await request(app)
    .post('/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: 'ada', password: DEFAULT_PASSWORD });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const data = async (query: string) => {
    const res = await request(app)
      .get(`/_data?path=${encodeURIComponent(`/en/admin/audit?${query}`)}`)
      .set('Cookie', cookie);
    expect(res.status).toBe(200);
    return res.body.payload.state.data.audit as { list: { items: { at: string; action: string }[]; total: number }; filter: object };
  };
  const filtered = await data('auditAction=role_changed&auditUser=bob&auditFrom=2026-03-01&auditTo=2026-03-31');
  expect(filtered.filter).toEqual({ action: 'role_changed', user: 'bob', from: '2026-03-01', to: '2026-03-31' });
  expect(indexes(filtered.list.items)).toEqual([4]);
  const bad = await data('auditAction=made_up&auditFrom=2026-02-30&auditUser=bob');
  expect(bad.filter).toEqual({ user: 'bob' });
  expect(bad.list.total).toBe(2);
});

// The audit log's store (server/audit/log.ts): what an entry keeps, that recording never fails
// the action, reading newest first with filters and pages, and the 365 days it is kept.
import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { AUDIT_RETENTION_DAYS, createAuditLog, PRUNE_BATCH } from '../../server/audit/log.ts';
import type { AuditAction } from '../../server/audit/types.ts';
import type { Db } from '../../server/db/index.ts';
import { createLogger } from '../../server/base/logger.ts';
import { testDatabase } from '../helpers/app.ts';
import { capturingLogger } from '../helpers/log.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const silent = createLogger('silent');

/** A store whose clock the test moves. */
function clockedLog(db: Db, start = Date.parse('2026-06-15T10:00:00Z')) {
  let now = start;
  const log = createAuditLog({ db, logger: silent, now: () => now });
  return { log, set: (iso: string) => (now = Date.parse(iso)), advance: (ms: number) => (now += ms) };
}

test('an entry keeps when, what, who, to whom, from where and its facts', async () => {
  const db = await testDatabase();
  const { log } = clockedLog(db);
  await log.record({ action: 'role_changed', actor: 'ada', target: 'carla', ip: '203.0.113.7', detail: { from: 'CLI', to: 'ORG' } });
  const page = await log.list({}, { page: 1, pageSize: 20 });
  expect(page).toEqual({
    items: [
      {
        id: expect.any(Number),
        at: '2026-06-15T10:00:00.000Z',
        action: 'role_changed',
        actor: 'ada',
        target: 'carla',
        ip: '203.0.113.7',
        detail: { from: 'CLI', to: 'ORG' },
      },
    ],
    total: 1,
    page: 1,
    pageSize: 20,
  });
  await db.close();
});

test('recording never makes the action fail: a store that cannot write logs the error and resolves', async () => {
  const db = await testDatabase();
  const { logger, lines } = capturingLogger();
  const log = createAuditLog({ db, logger });
  await sql`DROP TABLE audit_log`.execute(db.k);
  await expect(log.record({ action: 'sign_in', actor: 'ada', ip: null })).resolves.toBeUndefined();
  const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'audit entry not recorded');
  expect(line).toMatchObject({ level: 50, action: 'sign_in', actor: 'ada' });
  await db.close();
});

test('an unknown action is not recorded, and says so in the log', async () => {
  const db = await testDatabase();
  const { logger, lines } = capturingLogger();
  const log = createAuditLog({ db, logger });
  await log.record({ action: 'made_up' as AuditAction, actor: 'ada' });
  expect((await log.list({}, { page: 1, pageSize: 5 })).total).toBe(0);
  expect(lines.join('')).toContain('Unknown audit action \\"made_up\\"');
  await db.close();
});

test('a detail never keeps a secret: keys that name a password or a token are dropped, long values cut', async () => {
  const db = await testDatabase();
  const { log } = clockedLog(db);
  await log.record({
    action: 'password_set',
    actor: 'ada',
    target: 'carla',
    detail: { password: 'hunter2', newPassword: 'x', token: 't', apiToken: 'y', secret: 's', note: 'n'.repeat(1000), generated: true },
  });
  const [entry] = (await log.list({}, { page: 1, pageSize: 5 })).items;
  expect(Object.keys(entry!.detail).sort()).toEqual(['generated', 'note']);
  expect(String(entry!.detail.note).length).toBe(300);
  const stored = await db.k.selectFrom('audit_log').select('detail').executeTakeFirstOrThrow();
  expect(stored.detail).not.toContain('hunter2');
  await db.close();
});

test('the list is newest first, in pages, with the total', async () => {
  const db = await testDatabase();
  const { log, advance } = clockedLog(db);
  for (let i = 1; i <= 7; i++) {
    await log.record({ action: 'sign_in', actor: `user${i}` });
    advance(60_000);
  }
  const first = await log.list({}, { page: 1, pageSize: 3 });
  expect(first.total).toBe(7);
  expect(first.items.map((e) => e.actor)).toEqual(['user7', 'user6', 'user5']);
  const last = await log.list({}, { page: 3, pageSize: 3 });
  expect(last.items.map((e) => e.actor)).toEqual(['user1']);
  expect((await log.list({}, { page: 4, pageSize: 3 })).items).toEqual([]);
  await db.close();
});

test('entries of the same instant keep the order they were recorded in (newest first)', async () => {
  const db = await testDatabase();
  const { log } = clockedLog(db);
  for (const actor of ['a', 'b', 'c']) await log.record({ action: 'sign_out', actor });
  expect((await log.list({}, { page: 1, pageSize: 5 })).items.map((e) => e.actor)).toEqual(['c', 'b', 'a']);
  await db.close();
});

test.each([
  { filter: { action: 'sign_in_failed' }, expected: ['visitor → ana (failed)', 'visitor → ghost (failed)'] },
  { filter: { user: 'ANA' }, expected: ['visitor → ana (failed)', 'ada → ana', 'ana signs in'] },
  { filter: { actor: 'ada' }, expected: ['ada → ana', 'ada → bob'] },
  { filter: { target: 'ana' }, expected: ['visitor → ana (failed)', 'ada → ana'] },
  { filter: { action: 'role_changed', user: 'bob' }, expected: ['ada → bob'] },
  { filter: { user: 'nobody' }, expected: [] },
])('the list filters by $filter', async ({ filter, expected }) => {
  const db = await testDatabase();
  const { log, advance } = clockedLog(db);
  const entries: [string, Parameters<typeof log.record>[0]][] = [
    ['ana signs in', { action: 'sign_in', actor: 'ana' }],
    ['ada → bob', { action: 'role_changed', actor: 'ada', target: 'bob', detail: { from: 'CLI', to: 'ORG' } }],
    ['ada → ana', { action: 'role_changed', actor: 'ada', target: 'ana', detail: { from: 'CLI', to: 'ADMIN' } }],
    ['visitor → ghost (failed)', { action: 'sign_in_failed', actor: null, target: 'ghost' }],
    ['visitor → ana (failed)', { action: 'sign_in_failed', actor: null, target: 'Ana' }],
  ];
  for (const [name, entry] of entries) {
    await log.record({ ...entry, detail: { ...entry.detail, name } });
    advance(1000);
  }
  const page = await log.list(filter, { page: 1, pageSize: 20 });
  expect(page.items.map((e) => e.detail.name)).toEqual(expected);
  expect(page.total).toBe(expected.length);
  await db.close();
});

test('the days of the date filter are Madrid days, both included', async () => {
  const db = await testDatabase();
  const { log, set } = clockedLog(db);
  // Madrid is UTC+2 in summer: its 1 July starts at 30 June 22:00 UTC.
  for (const at of ['2026-06-30T21:59:59Z', '2026-06-30T22:00:00Z', '2026-07-02T21:59:59Z', '2026-07-02T22:00:00Z']) {
    set(at);
    await log.record({ action: 'sign_in', actor: 'ana', detail: { at } });
  }
  const within = await log.list({ from: '2026-07-01', to: '2026-07-02' }, { page: 1, pageSize: 20 });
  expect(within.items.map((e) => e.detail.at)).toEqual(['2026-07-02T21:59:59Z', '2026-06-30T22:00:00Z']);
  expect((await log.list({ from: '2026-07-03' }, { page: 1, pageSize: 20 })).total).toBe(1);
  expect((await log.list({ to: '2026-06-30' }, { page: 1, pageSize: 20 })).total).toBe(1);
  await db.close();
});

test(`entries older than ${AUDIT_RETENTION_DAYS} days are gone after pruning; newer ones are kept`, async () => {
  const db = await testDatabase();
  const { log, set } = clockedLog(db);
  const today = Date.parse('2027-06-15T12:00:00Z');
  const ages = {
    old: AUDIT_RETENTION_DAYS + 1,
    'just over': AUDIT_RETENTION_DAYS + 0.01,
    'just under': AUDIT_RETENTION_DAYS - 0.01,
    new: 1,
  };
  for (const [name, days] of Object.entries(ages)) {
    set(new Date(today - days * DAY_MS).toISOString());
    await log.record({ action: 'sign_in', actor: 'ana', detail: { name } });
  }
  set(new Date(today).toISOString());
  expect(await log.prune()).toBe(2);
  const left = await log.list({}, { page: 1, pageSize: 20 });
  expect(left.items.map((e) => e.detail.name)).toEqual(['new', 'just under']);
  await db.close();
});

test('pruning deletes a long backlog in bounded batches, all of it', async () => {
  const db = await testDatabase();
  const old = new Date(Date.now() - (AUDIT_RETENTION_DAYS + 30) * DAY_MS).toISOString();
  const rows = Array.from({ length: PRUNE_BATCH * 2 + 7 }, (_, i) => ({
    at: old,
    action: 'sign_in',
    actor: `u${i}`,
    target: null,
    ip: null,
    detail: null,
  }));
  for (let i = 0; i < rows.length; i += 200)
    await db.k
      .insertInto('audit_log')
      .values(rows.slice(i, i + 200))
      .execute();
  const log = createAuditLog({ db, logger: silent });
  await log.record({ action: 'sign_in', actor: 'today' });
  const statements: number[] = [];
  const counting = createAuditLog({
    db: {
      ...db,
      k: db.k.withPlugin({
        transformQuery: (args) => {
          if (args.node.kind === 'DeleteQueryNode') statements.push(1);
          return args.node;
        },
        transformResult: async (args) => args.result,
      }),
    },
    logger: silent,
  });
  expect(await counting.prune()).toBe(rows.length);
  // Three full or partial batches: each statement deletes at most PRUNE_BATCH rows.
  expect(statements.length).toBe(3);
  expect((await log.list({}, { page: 1, pageSize: 5 })).items.map((e) => e.actor)).toEqual(['today']);
  await db.close();
});

test('the store prunes when it starts (and then once a day)', async () => {
  const db = await testDatabase();
  const old = new Date(Date.now() - (AUDIT_RETENTION_DAYS + 2) * DAY_MS).toISOString();
  await db.k.insertInto('audit_log').values({ at: old, action: 'sign_in', actor: 'old', target: null, ip: null, detail: null }).execute();
  const log = createAuditLog({ db, logger: silent });
  log.startPruning();
  await log.stop();
  expect((await log.list({}, { page: 1, pageSize: 5 })).total).toBe(0);
  await db.close();
});

// A project's unread messages are counted like the navbar's badge: up to UNREAD_BADGE_MAX, and the
// database reads no further (100,000 unread messages made /admin/projects take 0.8 s).
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import request from 'supertest';
import { expect, test } from 'vitest';
import { openDatabase, type Db } from '../../server/db/index.ts';
import { unreadOf } from '../../server/projects/queries.ts';
import { UNREAD_BADGE_MAX } from '../../shared/projects.ts';
import { createTestApp, TEST_ENGINE, testDatabase } from '../helpers/app.ts';
import { signIn } from '../my-account/helpers.ts';
import { activeProject, api, PEOPLE, signInEveryone, UNLIMITED } from './fixtures.ts';

/** A project with `count` messages of the expert's, none read by the admin; the app and the project's id. */
async function projectWithUnread(count: number, db?: Db) {
  const created = await createTestApp(UNLIMITED, db ? { db } : {});
  const tokens = await signInEveryone(created.app, created.db);
  const id = await activeProject(created.app, tokens);
  const at = new Date().toISOString();
  const rows = Array.from({ length: count }, (_, i) => ({
    project_id: id,
    author: PEOPLE.expert.userName,
    author_name: 'Eva',
    author_role: 'CONS',
    body: `m${i}`,
    created_at: at,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await created.db.k
      .insertInto('project_messages')
      .values(rows.slice(i, i + 500))
      .execute();
  return { ...created, tokens, id };
}

/** The query that counts a project's unread messages for `userName`, as the lists and a project's page run it. */
function unreadQuery(db: Db, id: number, userName: string) {
  return db.k
    .selectFrom('projects as p')
    .select((eb) => unreadOf(eb, userName).as('unread'))
    .where('p.id', '=', id)
    .compile();
}

type PlanNode = {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
};

/** PostgreSQL: the rows of project_messages the plan read (returned or filtered out), from EXPLAIN ANALYZE. */
async function messageRowsReadOnPostgres(db: Db, query: CompiledQuery): Promise<number> {
  const result = await db.k.executeQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    CompiledQuery.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.sql}`, [...query.parameters]),
  );
  const walk = (node: PlanNode): number =>
    (node['Relation Name'] === 'project_messages'
      ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops']
      : 0) + (node.Plans ?? []).reduce((sum, child) => sum + walk(child), 0);
  return walk(result.rows[0]!['QUERY PLAN'][0]!.Plan);
}

/**
 * SQLite: the rows of project_messages the query read, counted by a function that a temporary
 * view of the same name (which SQLite resolves before the table) calls once per row it yields.
 */
function messageRowsReadOnSqlite(file: string, query: CompiledQuery): number {
  const raw = new Database(file);
  let read = 0;
  raw.function('counted', { deterministic: false }, () => {
    read += 1;
    return 1;
  });
  raw.exec('CREATE TEMP VIEW project_messages AS SELECT * FROM main.project_messages WHERE counted() = 1');
  raw.prepare(query.sql).get(...(query.parameters as unknown[]));
  raw.close();
  return read;
}

test(`a project's unread count stops at ${UNREAD_BADGE_MAX}, like the navbar's badge: the list shows "99+ unread" and the API ${UNREAD_BADGE_MAX}`, async () => {
  const { app, tokens, id } = await projectWithUnread(UNREAD_BADGE_MAX + 50);
  const listed = await api(app, tokens.admin).get('/projects');
  expect(listed.status).toBe(200);
  expect(listed.body.items.find((p: { id: number }) => p.id === id).unread).toBe(UNREAD_BADGE_MAX);
  expect((await api(app, tokens.admin).get(`/projects/${id}`)).body.unread).toBe(UNREAD_BADGE_MAX);
  const cookie = await signIn(app, PEOPLE.admin.userName);
  const spanish = await request(app).get('/admin/projects').set('Cookie', cookie);
  expect(spanish.status).toBe(200);
  expect(spanish.text).toContain('99+ sin leer');
  const english = await request(app).get('/en/admin/projects').set('Cookie', cookie);
  expect(english.text).toContain('99+ unread');
  expect(english.text).not.toContain(`${UNREAD_BADGE_MAX + 50} unread`);
});

test('below the cap a project shows its exact unread count', async () => {
  const { app, tokens, id } = await projectWithUnread(UNREAD_BADGE_MAX - 1);
  expect((await api(app, tokens.admin).get(`/projects/${id}`)).body.unread).toBe(UNREAD_BADGE_MAX - 1);
  const cookie = await signIn(app, PEOPLE.admin.userName);
  expect((await request(app).get('/en/admin/projects').set('Cookie', cookie)).text).toContain(`${UNREAD_BADGE_MAX - 1} unread`);
});

test(`counting a project's unread messages reads at most ${UNREAD_BADGE_MAX} of them, however many wait`, async () => {
  const unread = UNREAD_BADGE_MAX * 5;
  if (TEST_ENGINE === 'postgres') {
    const { db, id } = await projectWithUnread(unread, await testDatabase());
    await db.k.executeQuery(CompiledQuery.raw('ANALYZE project_messages'));
    expect(await messageRowsReadOnPostgres(db, unreadQuery(db, id, PEOPLE.admin.userName))).toBeLessThanOrEqual(UNREAD_BADGE_MAX);
    return;
  }
  const file = join(mkdtempSync(join(tmpdir(), 'unread-')), 'site.db');
  const { db, id } = await projectWithUnread(unread, await openDatabase({ file }));
  const query = unreadQuery(db, id, PEOPLE.admin.userName);
  expect(messageRowsReadOnSqlite(file, query)).toBeLessThanOrEqual(UNREAD_BADGE_MAX);
});

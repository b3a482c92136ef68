// Every list of the product is a page with a maximum size (docs/decisions/030; no answer grows with the data;
// docs/decisions/030): for each one, more rows than its maximum are written straight into the
// database, the API refuses a larger page by naming `pageSize` (400), and the service the pages
// use answers at most the maximum whatever it is asked. Lists bounded by a rule (a project's
// experts and milestones) hold under concurrent additions. On SQLite and PostgreSQL.
import { readFileSync } from 'node:fs';
import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { createDeletions } from '../server/my-account/deletion.ts';
import { createAuditLog } from '../server/audit/log.ts';
import { contactMessages } from '../server/contact/messages.ts';
import type { Db } from '../server/db/index.ts';
import { createLogger } from '../server/base/logger.ts';
import { createExpertise } from '../server/projects/expertise.ts';
import { createProjects } from '../server/projects/service.ts';
import { createConversation } from '../server/projects/conversation.ts';
import { SITEMAP_POSTS_MAX, sitemapXml } from '../server/seo/sitemap.ts';
import { listUsers } from '../server/users/users.ts';
import { blogList, BLOG_PAGE_SIZE } from '../shared/blog.ts';
import type { PostSummary } from '../shared/page-data.ts';
import { PAGE_SIZES, SEARCH_COUNT_MAX, type PagedList } from '../shared/paging.ts';
import { PROJECT_LIMITS } from '../shared/projects.ts';
import type { ContentSource } from '../server/content/source.ts';
import { createTestApp, ORIGIN, TEST_ENGINE } from './helpers/app.ts';
import { DEFAULT_PASSWORD, userRow } from './helpers/users.ts';
import { activeProject, api, PEOPLE, signInEveryone, type Person, UNLIMITED } from './projects/fixtures.ts';
import { scaled } from './helpers/time-scale.ts';

/** Rows each list gets: more than any list's maximum. */
const ROWS = 150;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();

let app: Express;
let db: Db;
let tokens: Record<Person, string>;
const admin = { userName: PEOPLE.admin.userName, role: 'ADMIN', name: PEOPLE.admin.name, lastName: PEOPLE.admin.lastName };

async function insertInBatches<R>(rows: R[], insert: (batch: R[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += 50) await insert(rows.slice(i, i + 50));
}

beforeAll(async () => {
  const created = await createTestApp(UNLIMITED);
  app = created.app;
  db = created.db;
  tokens = await signInEveryone(app, db);
  const many = Array.from({ length: ROWS }, (_, i) => i);
  await insertInBatches(many, (batch) =>
    db.k
      .insertInto('users')
      .values(
        batch.map((i) => userRow({ user_name: `cons${String(i).padStart(3, '0')}`, role: 'CONS', name: 'Con', last_name: `Sultant ${i}` })),
      )
      .execute(),
  );
  await insertInBatches(many, (batch) =>
    db.k
      .insertInto('deletion_requests')
      .values(
        batch.map((i) => ({
          user_name: `cons${String(i).padStart(3, '0')}`,
          status: 'pending',
          requested_at: at(i),
          decided_at: null,
          decided_by: null,
        })),
      )
      .execute(),
  );
  await insertInBatches(many, (batch) =>
    db.k
      .insertInto('contact_messages')
      .values(
        batch.map((i) => ({
          name: `Sender ${i}`,
          email: `s${i}@example.com`,
          subject: `Subject ${i}`,
          message: 'Hello',
          locale: 'en',
          consent_at: at(i),
          ip: null,
          read: 0,
          notify_status: 'none',
          notify_attempts: 0,
          notify_error: null,
          created_at: at(i),
        })),
      )
      .execute(),
  );
  await insertInBatches(many, (batch) =>
    db.k
      .insertInto('audit_log')
      .values(batch.map((i) => ({ at: at(i), action: 'sign_in', actor: 'staff', target: null, ip: null, detail: null })))
      .execute(),
  );
  await insertInBatches(many, (batch) =>
    db.k
      .insertInto('projects')
      .values(
        batch.map((i) => ({
          title: `Project ${i}`,
          description: 'Bulk',
          practice: 'data',
          state: 'brief',
          owner: PEOPLE.owner.userName,
          owner_name: 'Carla Acme',
          owner_role: 'CLI',
          organisation: null,
          budget: null,
          wished_start: null,
          deadline: null,
          procurement_ref: null,
          proposal_scope: null,
          proposal_fee: null,
          proposal_timeline: null,
          proposal_sent_at: null,
          proposal_sent_by: null,
          proposal_answered_at: null,
          created_at: at(i),
          updated_at: at(i),
        })),
      )
      .execute(),
  );
}, scaled(120_000));

/** A list of the API: its path, its page-size table entry, and the service the pages read it through. */
type ApiList = { name: string; path: string; list: PagedList; service: (pageSize: number) => Promise<{ items: unknown[] }> };
const API_LISTS: ApiList[] = [
  { name: 'the admin’s users', path: '/admin/users', list: 'users', service: (pageSize) => listUsers(db, { pageSize }) },
  { name: 'the contact inbox', path: '/admin/messages', list: 'inbox', service: (pageSize) => contactMessages(db).list({ pageSize }) },
  {
    name: 'the audit log',
    path: '/admin/audit',
    list: 'audit',
    service: (pageSize) => createAuditLog({ db, logger: createLogger('silent') }).list({}, { page: 1, pageSize }),
  },
  {
    name: 'the experts (GET /api/experts)',
    path: '/experts',
    list: 'experts',
    service: (pageSize) => createExpertise({ db }).experts(admin, { pageSize }),
  },
  {
    name: 'the account deletion requests',
    path: '/admin/deletion-requests',
    list: 'deletionRequests',
    service: (pageSize) =>
      createDeletions({ db, sessions: { forgetUser: () => {} }, logger: createLogger('silent') }).pending({ pageSize }),
  },
  {
    name: 'the projects',
    path: '/projects',
    list: 'projects',
    service: (pageSize) => createProjects({ db, notify: async () => {} }).list(admin, { pageSize }),
  },
];

describe(`every list of the API is a page (${TEST_ENGINE})`, () => {
  test.each(API_LISTS)('$name: pageSize past the maximum is a 400 naming it; the maximum answers at most the maximum', async (entry) => {
    const { default: fallback, max } = PAGE_SIZES[entry.list];
    const caller = api(app, tokens.admin);
    const tooMany = await caller.get(`${entry.path}?pageSize=${max + 1}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('invalid_request');
    expect(tooMany.body.error.fields).toHaveProperty('pageSize');
    for (const bad of ['0', 'ten', '-5', '2.5']) {
      const res = await caller.get(`${entry.path}?pageSize=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.fields, bad).toHaveProperty('pageSize');
    }
    const pageOfMax = await caller.get(`${entry.path}?pageSize=${max}`);
    expect(pageOfMax.status).toBe(200);
    expect(pageOfMax.body.items).toHaveLength(max);
    expect(pageOfMax.body.total).toBeGreaterThan(max);
    expect(pageOfMax.body.pageSize).toBe(max);
    const byDefault = await caller.get(entry.path);
    expect(byDefault.body.items).toHaveLength(fallback);
    expect((await caller.get(`${entry.path}?page=100001`)).status).toBe(400);
  });

  test.each(API_LISTS)('$name: the service the pages read answers at most the maximum, whatever it is asked', async (entry) => {
    const answer = await entry.service(100_000);
    expect(answer.items).toHaveLength(PAGE_SIZES[entry.list].max);
  });
});

test(`a search of the admin's users counts ${SEARCH_COUNT_MAX} matches at most and says so; a narrower one is counted whole (${TEST_ENGINE})`, async () => {
  const common = await api(app, tokens.admin).get('/admin/users?q=CONS');
  expect(common.status).toBe(200);
  expect(common.body).toMatchObject({ total: SEARCH_COUNT_MAX, totalCapped: true, page: 1, pageSize: PAGE_SIZES.users.default });
  expect(common.body.items.map((u: { userName: string }) => u.userName)).toEqual(
    Array.from({ length: PAGE_SIZES.users.default }, (_, i) => `cons${String(i).padStart(3, '0')}`),
  );
  expect(await listUsers(db, { q: 'cons14' })).toMatchObject({ total: 10, totalCapped: false });
  expect(await listUsers(db, {})).toMatchObject({ totalCapped: false });
  expect((await listUsers(db, {})).total).toBeGreaterThan(ROWS);
});

describe(`a project's lists (${TEST_ENGINE})`, () => {
  test('its history and conversation: the services answer at most their maximum (their API: test/projects/paging.test.ts)', async () => {
    const id = await activeProject(app, tokens);
    const rows = Array.from({ length: ROWS }, (_, i) => i);
    await insertInBatches(rows, (batch) =>
      db.k
        .insertInto('project_events')
        .values(
          batch.map((i) => ({
            project_id: id,
            at: at(i),
            actor: 'eva',
            actor_name: 'Eva',
            kind: 'created',
            from_state: null,
            to_state: null,
            detail: null,
          })),
        )
        .execute(),
    );
    await insertInBatches(rows, (batch) =>
      db.k
        .insertInto('project_messages')
        .values(
          batch.map((i) => ({ project_id: id, author: 'eva', author_name: 'Eva', author_role: 'CONS', body: `m${i}`, created_at: at(i) })),
        )
        .execute(),
    );
    const projects = createProjects({ db, notify: async () => {} });
    const conversation = createConversation({ db, projects });
    expect((await projects.history(admin, id, { pageSize: 100_000 })).items).toHaveLength(PAGE_SIZES.history.max);
    expect((await conversation.messages(admin, id, { pageSize: 100_000 })).items).toHaveLength(PAGE_SIZES.messages.max);
  });

  test(`at most ${PROJECT_LIMITS.expertsPerProject} experts, however many admins assign at once`, async () => {
    const id = await activeProject(app, tokens);
    const caller = api(app, tokens.admin);
    const names = Array.from({ length: PROJECT_LIMITS.expertsPerProject + 5 }, (_, i) => `cons${String(i).padStart(3, '0')}`);
    const answers = await Promise.all(names.map((userName) => caller.post(`/projects/${id}/experts`, { userName })));
    expect(answers.filter((a) => a.status === 422).every((a) => a.body.error.code === 'too_many_experts')).toBe(true);
    const assigned = await db.k
      .selectFrom('project_experts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', id)
      .executeTakeFirstOrThrow();
    // The fixture's project has one expert already.
    expect(Number(assigned.n)).toBe(PROJECT_LIMITS.expertsPerProject);
    expect((await caller.get(`/projects/${id}`)).body.experts).toHaveLength(PROJECT_LIMITS.expertsPerProject);
  });

  test(`at most ${PROJECT_LIMITS.milestonesPerProject} milestones, however many are added at once`, async () => {
    const id = await activeProject(app, tokens);
    const caller = api(app, tokens.admin);
    const answers = await Promise.all(
      Array.from({ length: PROJECT_LIMITS.milestonesPerProject + 10 }, (_, i) =>
        caller.post(`/projects/${id}/milestones`, { title: `Step ${i}` }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(PROJECT_LIMITS.milestonesPerProject);
    expect(answers.filter((a) => a.status === 422).every((a) => a.body.error.code === 'too_many_milestones')).toBe(true);
    expect((await caller.get(`/projects/${id}`)).body.milestones).toHaveLength(PROJECT_LIMITS.milestonesPerProject);
  });

  test('the admin’s candidates on the project page: one page, the project’s practice first, the others found by name', async () => {
    const id = await activeProject(app, tokens);
    await db.k
      .insertInto('expertise')
      .values({
        user_name: 'cons149',
        name: 'Con Sultant 149',
        practices: '["data"]',
        bio: '',
        day_rate: null,
        availability: 'available',
        busy_until: null,
        updated_at: at(0),
      })
      .execute();
    const login = await request(app)
      .post('/login')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ identifier: PEOPLE.admin.userName, password: DEFAULT_PASSWORD });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const data = async (query: string) =>
      (
        await request(app)
          .get(`/_data?path=${encodeURIComponent(`/en/admin/projects/${id}${query}`)}`)
          .set('Cookie', cookie)
      ).body.payload.state.data;
    const first = await data('');
    expect(first.candidates.items).toHaveLength(PAGE_SIZES.experts.default);
    expect(first.candidates.total).toBeGreaterThan(ROWS);
    // eva (assigned) is left out; the expert of the project's practice comes first.
    expect(first.candidates.items.map((e: { userName: string }) => e.userName)).not.toContain('eva');
    expect(first.candidates.items[0].userName).toBe('cons149');
    const found = await data('?expert=Sultant%2012');
    expect(found.expert).toBe('Sultant 12');
    expect(found.candidates.items.map((e: { userName: string }) => e.userName).sort()).toEqual([
      'cons012',
      'cons120',
      'cons121',
      'cons122',
      'cons123',
      'cons124',
      'cons125',
      'cons126',
      'cons127',
      'cons128',
      'cons129',
    ]);
  });
});

describe(`the profile's sessions (${TEST_ENGINE})`, () => {
  test(`list the ${PAGE_SIZES.sessions.max} most recently seen, this browser first, and say how many there are`, async () => {
    const login = await request(app)
      .post('/login')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ identifier: PEOPLE.org.userName, password: DEFAULT_PASSWORD });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const expires = Math.floor(Date.now() / 1000) + 3600;
    await db.k
      .insertInto('sessions')
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          id: `bulk-session-${i}`,
          user_name: PEOPLE.org.userName,
          created_at: at(i),
          // Seen after this browser's own sign-in: this browser still comes first.
          last_seen_at: new Date(Date.now() + 60_000 + i).toISOString(),
          expires_at: expires,
          user_agent: null,
          ip: null,
          api_token: 'x',
          token_digest: `digest-${i}`,
        })),
      )
      .execute();
    const res = await request(app)
      .get(`/_data?path=${encodeURIComponent('/en/profile')}`)
      .set('Cookie', cookie);
    const account = res.body.payload.state.data.account;
    expect(account.sessions).toHaveLength(PAGE_SIZES.sessions.max);
    expect(account.sessions[0].current).toBe(true);
    // The form's sign-in, and the API sign-in of signInEveryone.
    expect(account.sessionCount).toBe(32);
  });
});

describe('the blog and the sitemap', () => {
  const posts: PostSummary[] = Array.from({ length: 35 }, (_, i) => ({
    slug: `post-${i}`,
    locale: 'en',
    title: `Data post ${i}`,
    description: 'About data',
    date: '2026-01-01',
    tags: [{ slug: 'data', name: 'Data' }],
    translations: { en: `post-${i}` },
  })) as unknown as PostSummary[];

  test(`a blog page and a tag's page show at most ${BLOG_PAGE_SIZE} posts`, () => {
    for (const query of [{ page: 1 }, { page: 1, tag: 'data' }, { page: 4 }]) {
      const list = blogList(posts, query)!;
      expect(list.posts.length).toBeLessThanOrEqual(BLOG_PAGE_SIZE);
      expect(list.total).toBe(35);
    }
    expect(blogList(posts, { page: 5 })).toBeNull();
  });

  test(`the sitemap lists at most the newest ${SITEMAP_POSTS_MAX} posts of each language`, async () => {
    const many = Array.from({ length: SITEMAP_POSTS_MAX + 10 }, (_, i) => ({
      slug: `p-${i}`,
      locale: 'en',
      title: 'T',
      description: '',
      date: '2026-01-01',
      tags: [],
      translations: { en: `p-${i}` },
    })) as unknown as PostSummary[];
    const content = { listPosts: async (locale: string) => (locale === 'en' ? many : []) } as unknown as ContentSource;
    const xml = await sitemapXml(ORIGIN, content);
    expect(xml).toContain(`/en/blog/p-${SITEMAP_POSTS_MAX - 1}<`);
    expect(xml).not.toContain(`/en/blog/p-${SITEMAP_POSTS_MAX}<`);
  });
});

describe('docs/private-area.md', () => {
  /** The paging table's row of each list in docs/private-area.md (its first cell starts so). */
  const ROWS_OF: Record<PagedList, string> = {
    projects: 'projects (',
    history: "a project's history",
    messages: "a project's conversation",
    documents: "a project's documents",
    experts: 'experts (',
    users: 'users, inbox',
    inbox: 'users, inbox',
    audit: 'users, inbox',
    deletionRequests: 'users, inbox',
    sessions: "the profile's sessions",
    members: "a company's people",
    companies: 'companies (',
    notifications: 'notifications (',
    replies: "a contact message's replies",
  };

  test("its table of page sizes says shared/paging.ts's default and maximum of every list", () => {
    const doc = readFileSync(new URL('../docs/private-area.md', import.meta.url), 'utf8');
    const rows = doc.split('\n').filter((line) => line.startsWith('| '));
    for (const [list, start] of Object.entries(ROWS_OF) as [PagedList, string][]) {
      const row = rows.find((line) => line.slice(2).startsWith(start));
      expect(row, list).toBeDefined();
      const [, , fallback, max] = row!.split('|').map((cell) => cell.trim());
      expect([Number(fallback), Number(max)], list).toEqual([PAGE_SIZES[list].default, PAGE_SIZES[list].max]);
    }
  });
});

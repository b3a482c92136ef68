// The data of the scale bench (scale.ts, `npm run bench -- --scale`): 100× today's demo, written
// straight into the site's database (the real schema: the migrations of server/db/ run when it
// is opened) in multi-row inserts inside one transaction per table, and blog posts written as
// Markdown files into a content folder. Deterministic (a seeded PRNG): two runs seed the same rows.
// The users the bench signs in as are made by the caller with the real password hashing; every
// other user gets a hash that no password matches (hashing 10,000 passwords would take minutes).
import { companyIdOf, settleCompanies } from '../../server/companies/companies.ts';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Db } from '../../server/db/index.ts';
import type { ProjectEventsTable, ProjectsTable, Schema, UsersTable } from '../../server/db/schema.ts';
import { htmlKey, renderMarkdown } from '../../server/content/prerendered.ts';
import { parseFrontMatter } from '../../server/content/front-matter.ts';
import { canonicalIdentity } from '../../shared/identity.ts';
import { BUDGET_RANGES, PRACTICES, PROJECT_LIMITS, type ProjectState } from '../../shared/projects.ts';
import type { Locale } from '../../shared/locales.ts';
import type { Role } from '../../shared/user.ts';

/** 100× today's demo data, at factor 1 (docs/decisions/033). */
export const SCALE_TARGETS = {
  users: 10_000,
  projects: 50_000,
  /** The one project whose page is the worst case: its history… */
  bigProjectEvents: 50_000,
  /** …its conversation… */
  bigProjectMessages: 5_000,
  /** …and its documents (at factor 1 the most a project may have). */
  bigProjectDocuments: PROJECT_LIMITS.documentsPerProject,
  /** Blog posts, each in Spanish and English (one folder, two files). */
  posts: 5_000,
} as const;

export type ScaleTargets = { -readonly [K in keyof typeof SCALE_TARGETS]: number };

/** The targets times `factor`, at least one of each (the unit test seeds factor 0.001). */
export function scaledTargets(factor: number): ScaleTargets {
  if (!(factor > 0) || factor > 10) throw new Error(`The scale factor must be > 0 and ≤ 10, not ${factor}`);
  const n = (target: number) => Math.max(1, Math.round(target * factor));
  return {
    users: Math.max(8, n(SCALE_TARGETS.users)),
    projects: n(SCALE_TARGETS.projects),
    bigProjectEvents: n(SCALE_TARGETS.bigProjectEvents),
    bigProjectMessages: n(SCALE_TARGETS.bigProjectMessages),
    bigProjectDocuments: Math.min(PROJECT_LIMITS.documentsPerProject, n(SCALE_TARGETS.bigProjectDocuments)),
    posts: n(SCALE_TARGETS.posts),
  };
}

/** Share of each role among the seeded users (the rest are clients). */
const ROLE_SHARES: readonly (readonly [Role, number])[] = [
  ['ADMIN', 0.005],
  ['ORG', 0.2],
  ['CONS', 0.2],
];

/** The first seeded users' roles. */
const FIRST_ROLES: readonly Role[] = ['ADMIN', 'ORG', 'CONS', 'CONS', 'CLI'];

/** Share of each state among the projects, and the history that leads there. */
const STATE_SHARES: readonly (readonly [ProjectState, number])[] = [
  ['brief', 0.1],
  ['proposal', 0.1],
  ['active', 0.3],
  ['delivered', 0.1],
  ['closed', 0.25],
  ['declined', 0.05],
  ['cancelled', 0.1],
];

/** What the caller made with the real password hashing: the client owns the big project, the admin runs the site. */
export type ScalePeople = { client: string; admin: string };

export type ScaleSeeded = {
  bigProjectId: number;
  /** The experts assigned to the big project (seeded users without a password). */
  bigProjectExperts: string[];
  /** Rows written, per table. */
  rows: Record<'users' | 'projects' | 'events' | 'messages' | 'experts' | 'milestones' | 'documents' | 'expertise' | 'audit', number>;
  ms: number;
};

// ---------------------------------------------------------------------------------------------
// Deterministic variety.

/** mulberry32: a small seeded PRNG, so that every run seeds the same data. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  return { next, int, pick };
}

const FIRST = [
  'María',
  'Carlos',
  'Lucía',
  'Javier',
  'Elena',
  'Pablo',
  'Marta',
  'Daniel',
  'Sara',
  'Andrés',
  'Laura',
  'Miguel',
  'Ana',
  'Jorge',
  'Paula',
  'Diego',
  'Irene',
  'Sergio',
  'Claire',
  'James',
  'Emma',
  'Oliver',
  'Sofía',
  'Hugo',
  'Nuria',
  'Marco',
] as const;
const LAST = [
  'García',
  'Martínez',
  'López',
  'Sánchez',
  'Pérez',
  'Gómez',
  'Ruiz',
  'Díaz',
  'Moreno',
  'Álvarez',
  'Romero',
  'Navarro',
  'Torres',
  'Domínguez',
  'Vázquez',
  'Ramos',
  'Gil',
  'Serrano',
  'Smith',
  'Brown',
  'Taylor',
  'Wilson',
  'Evans',
  'Marín',
] as const;
const COMPANIES = [
  'Acme Retail S.L.',
  'Logística Norte S.A.',
  'Ferretería Central',
  'Clínica Dental Sol',
  'Hotel Mirador',
  'Bodegas del Valle',
  'Transportes Ruiz',
  'Northwind Ltd',
  'Talleres Unidos',
  'Editorial Brisa',
] as const;
const PUBLIC_BODIES = [
  'Ayuntamiento de Ejemplo',
  'Diputación Provincial',
  'Fundación Horizonte',
  'Consorcio de Aguas',
  'Universidad del Sur',
  'Asociación Vecinal Centro',
  'Cámara de Comercio',
] as const;
const TOPICS = [
  'Sales dashboards',
  'Customer portal redesign',
  'Open data portal',
  'GDPR review',
  'Carbon footprint baseline',
  'Accessibility audit',
  'Warehouse sensors pilot',
  'Data warehouse migration',
  'Online shop',
  'Energy audit',
  'Intranet search',
  'Procurement analytics',
  'Mobile app for staff',
  'Cybersecurity assessment',
] as const;
const SENTENCES = [
  'We went through the figures of the last quarter and the gaps are smaller than we feared.',
  'The team agreed on the scope at the kick-off; the open questions are listed in the shared document.',
  'Could you confirm who signs off the next milestone on your side?',
  'The first version is online in the test environment: please try it with real data this week.',
  'We need the export of the old system before Friday to keep to the plan.',
  'Thank you for the quick answer, that settles the question of the budget lines.',
  'The accessibility checks found a few contrast issues, which are fixed in the next build.',
  'Let us move the review to Tuesday morning so that the whole team can join.',
] as const;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------
// Bulk inserts.

/** Rows per INSERT: within SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
function rowsPerInsert(columns: number): number {
  return Math.max(1, Math.floor(30_000 / columns));
}

function* batches<T extends object>(rows: readonly T[]): Generator<T[]> {
  const size = rowsPerInsert(Object.keys(rows[0] ?? {}).length || 1);
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/**
 * The ids the database gave the rows of one multi-row INSERT, in the rows' order: both engines
 * number a VALUES list in order, so the returned ids sorted ascending match the rows.
 */
const inOrder = (returned: { id: number }[]) => returned.map((r) => Number(r.id)).sort((a, b) => a - b);

type Trx = Kysely<Schema>;

// ---------------------------------------------------------------------------------------------
// The database.

/**
 * Seeds `factor` × SCALE_TARGETS into `db`, beside the users `people` names (made by the caller,
 * with real passwords): users up to the target (all roles), projects over the clients and
 * organisations in every state with their history, experts, milestones and messages, the big
 * project owned by `people.client` with its long history and conversation, an expert profile
 * per expert and one audit entry per user.
 */
export async function seedScaleData(db: Db, people: ScalePeople, options: { factor: number; now?: Date }): Promise<ScaleSeeded> {
  const started = performance.now();
  const targets = scaledTargets(options.factor);
  const nowMs = (options.now ?? new Date()).getTime();
  const random = prng(20_261_123);
  const { k } = db;
  const existing = await k.selectFrom('users').select(['user_name', 'name', 'last_name', 'role']).execute();
  const client = existing.find((u) => u.user_name === canonicalIdentity(people.client));
  const admin = existing.find((u) => u.user_name === canonicalIdentity(people.admin));
  if (!client || client.role !== 'CLI') throw new Error(`seedScaleData: ${people.client} must exist and be a client (CLI)`);
  if (!admin || admin.role !== 'ADMIN') throw new Error(`seedScaleData: ${people.admin} must exist and be an ADMIN`);
  const rows: ScaleSeeded['rows'] = {
    users: 0,
    projects: 0,
    events: 0,
    messages: 0,
    experts: 0,
    milestones: 0,
    documents: 0,
    expertise: 0,
    audit: 0,
  };
  const yearMs = 365 * 86_400_000;

  // Users: a few admins, organisations, experts, the rest clients.
  const toSeed = Math.max(0, targets.users - existing.length);
  const users: Insertable<UsersTable>[] = [];
  const roleOf = (i: number): Role => {
    let edge = 0;
    for (const [role, share] of ROLE_SHARES) {
      edge += share;
      if (i / toSeed < edge) return role;
    }
    return 'CLI';
  };
  for (let i = 0; i < toSeed; i++) {
    // The first of each role come first (two experts: the big project's), so that even a tiny factor has every role.
    const role = i < FIRST_ROLES.length ? FIRST_ROLES[i]! : roleOf(i);
    const name = random.pick(FIRST);
    const lastName = random.pick(LAST);
    const userName = canonicalIdentity(`${foldAscii(name)}.${foldAscii(lastName)}.${i + 1}`);
    const at = new Date(nowMs - 3 * yearMs + ((i + 1) / (toSeed + 1)) * 3 * yearMs).toISOString();
    users.push({
      user_name: userName,
      email: `${userName}@example.com`,
      name,
      last_name: lastName,
      role,
      avatar: null,
      scopes: '[]',
      // No password: not the scrypt$… form, so verifyPassword never accepts one (server/users/passwords.ts).
      password_hash: '!seeded-without-password',
      disabled: i % 97 === 96 ? 1 : 0,
      password_changed_at: 0,
      created_at: at,
      updated_at: at,
      invited_at: null,
    });
  }
  await k.transaction().execute(async (trx) => {
    for (const batch of batches(users)) await trx.insertInto('users').values(batch).execute();
    rows.users = users.length;
    const audit = users.map((u) => ({
      at: u.created_at,
      action: 'user_created',
      actor: admin.user_name,
      target: u.user_name,
      ip: null,
      detail: JSON.stringify({ role: u.role, passwordGenerated: true }),
    }));
    for (const batch of batches(audit)) await trx.insertInto('audit_log').values(batch).execute();
    rows.audit = audit.length;
    const experts = users.filter((u) => u.role === 'CONS');
    const profiles = experts.map((u, i) => ({
      user_name: u.user_name,
      name: `${u.name} ${u.last_name}`,
      practices: JSON.stringify([PRACTICES[i % PRACTICES.length], PRACTICES[(i + 1) % PRACTICES.length]]),
      bio: `${random.pick(SENTENCES)} ${random.pick(SENTENCES)}`,
      day_rate: 400 + (i % 9) * 50,
      availability: i % 4 === 0 ? 'busy' : 'available',
      busy_until: i % 4 === 0 ? day(nowMs + (i % 60) * 86_400_000) : null,
      updated_at: u.created_at,
    }));
    for (const batch of batches(profiles)) await trx.insertInto('expertise').values(batch).execute();
    rows.expertise = profiles.length;
  });

  const person = (u: { user_name: string; name: string; last_name: string; role: string }) => ({
    userName: u.user_name,
    name: `${u.name} ${u.last_name}`.trim(),
    role: u.role,
  });
  const owners = [person(client), ...users.filter((u) => u.role === 'CLI' || u.role === 'ORG').map(person)];
  const experts = users.filter((u) => u.role === 'CONS').map(person);
  const adminPerson = person(admin);
  if (experts.length < 2) throw new Error('seedScaleData: at least two experts are needed (raise the factor)');

  // The big project: active, owned by the bench's client, two experts, the most milestones a
  // project may have; a history of toggled milestones (docs/decisions/030) and a long conversation.
  const bigExperts = experts.slice(0, 2);
  const bigProjectId = await insertBigProject(k, {
    counts: targets,
    nowMs,
    client: person(client),
    admin: adminPerson,
    experts: bigExperts,
    random,
    rows,
  });
  rows.projects = 1;

  // The other projects, oldest first (ids grow with created_at, as on a real site).
  const others = targets.projects - 1;
  const stateOf = (i: number): ProjectState => {
    const x = ((i * 7919) % 10_000) / 10_000;
    let edge = 0;
    for (const [state, share] of STATE_SHARES) {
      edge += share;
      if (x < edge) return state;
    }
    return 'brief';
  };
  const chunkSize = 5_000;
  for (let from = 0; from < others; from += chunkSize) {
    await k.transaction().execute(async (trx) => {
      const slice: { row: Insertable<ProjectsTable>; state: ProjectState; expert: (typeof experts)[number]; at: number }[] = [];
      for (let i = from; i < Math.min(others, from + chunkSize); i++) {
        const owner = i < owners.length ? owners[i]! : owners[random.int(owners.length)]!;
        const state = stateOf(i);
        const at = nowMs - 3 * yearMs + (i / others) * (3 * yearMs - 86_400_000);
        const proposed = state !== 'brief' && !(state === 'cancelled' && i % 2 === 0);
        const isOrg = owner.role === 'ORG';
        slice.push({
          state,
          at,
          expert: experts[i % experts.length]!,
          row: {
            title: `${random.pick(TOPICS)} — ${isOrg ? random.pick(PUBLIC_BODIES) : random.pick(COMPANIES)}`,
            description: `${random.pick(SENTENCES)} ${random.pick(SENTENCES)} ${random.pick(SENTENCES)}`,
            practice: PRACTICES[i % PRACTICES.length]!,
            state,
            owner: owner.userName,
            owner_name: owner.name,
            owner_role: owner.role,
            organisation: isOrg ? random.pick(PUBLIC_BODIES) : random.pick(COMPANIES),
            budget: i % 5 === 0 ? null : BUDGET_RANGES[i % BUDGET_RANGES.length]!,
            wished_start: day(at + 30 * 86_400_000),
            deadline: day(at + 150 * 86_400_000),
            procurement_ref: isOrg ? `EXP-${new Date(at).getUTCFullYear()}/${100 + (i % 900)}` : null,
            proposal_scope: proposed ? 'Discovery workshop, the build, rollout and training for the team.' : null,
            proposal_fee: proposed ? 5_000 + (i % 40) * 2_500 : null,
            proposal_timeline: proposed ? 'Eight weeks from the kick-off.' : null,
            proposal_sent_at: proposed ? new Date(at + 86_400_000).toISOString() : null,
            proposal_sent_by: proposed ? admin.user_name : null,
            proposal_answered_at: proposed && state !== 'proposal' ? new Date(at + 3 * 86_400_000).toISOString() : null,
            created_at: new Date(at).toISOString(),
            updated_at: new Date(at + 10 * 86_400_000).toISOString(),
          },
        });
      }
      const ids: number[] = [];
      for (const batch of batches(slice.map((s) => s.row))) {
        ids.push(...inOrder(await trx.insertInto('projects').values(batch).returning('id').execute()));
      }
      rows.projects += ids.length;
      await seedProjectChildren(trx, slice, ids, { admin: adminPerson, rows });
    });
  }
  // Clients and organisations belong to a company, which owns their projects (docs/decisions/041).
  await settleCompanies(db);
  // As after any bulk load: the planner's statistics now, not when autovacuum comes round to it
  // (SQLite's are gathered when the server opens the database: server/db/index.ts).
  if (db.engine === 'postgres') await sql`ANALYZE`.execute(k);
  return { bigProjectId, bigProjectExperts: bigExperts.map((e) => e.userName), rows, ms: performance.now() - started };
}

type Person = { userName: string; name: string; role: string };

/** What the big project holds: its history, its conversation, its documents. */
export type BigProjectCounts = Pick<ScaleTargets, 'bigProjectEvents' | 'bigProjectMessages' | 'bigProjectDocuments'>;

/**
 * The big project (the worst case of a project's page): active, owned by `client`, `experts`
 * assigned, created a year before `nowMs`, with what `counts` says in it; its id.
 */
async function insertBigProject(
  k: Trx,
  options: {
    counts: BigProjectCounts;
    nowMs: number;
    client: Person;
    admin: Person;
    experts: Person[];
    random: ReturnType<typeof prng>;
    rows: ScaleSeeded['rows'];
  },
): Promise<number> {
  const { counts, nowMs, client, admin, experts, random, rows } = options;
  const bigCreated = nowMs - 365 * 86_400_000;
  const company = await companyIdOf(k, client.userName).executeTakeFirst();
  const big: Insertable<ProjectsTable> = {
    title: 'Open data portal for the whole region',
    description: 'Publish the budget, the contracts and the statistics of every town as open data, with an accessible portal.',
    practice: 'data',
    state: 'active',
    owner: client.userName,
    owner_name: client.name,
    owner_role: client.role,
    company_id: company?.company_id ?? null,
    organisation: 'Acme Retail S.L.',
    budget: 'gt150k',
    wished_start: day(bigCreated + 30 * 86_400_000),
    deadline: day(nowMs + 90 * 86_400_000),
    procurement_ref: null,
    proposal_scope: 'Discovery, data model, the portal, training for the staff.',
    proposal_fee: 180_000,
    proposal_timeline: 'Twelve months from the kick-off.',
    proposal_sent_at: new Date(bigCreated + 86_400_000).toISOString(),
    proposal_sent_by: admin.userName,
    proposal_answered_at: new Date(bigCreated + 2 * 86_400_000).toISOString(),
    created_at: new Date(bigCreated).toISOString(),
    updated_at: new Date(nowMs - 60_000).toISOString(),
  };
  return k.transaction().execute(async (trx) => {
    const { id } = await trx.insertInto('projects').values(big).returning('id').executeTakeFirstOrThrow();
    await seedBigProject(trx, Number(id), {
      targets: counts,
      start: bigCreated,
      end: nowMs - 60_000,
      client,
      admin,
      experts,
      random,
      rows,
    });
    return Number(id);
  });
}

/**
 * The scale bench's big project alone, for a test that needs the worst case of a project's page
 * without the rest of the data (the abuse suite's flood of milestone toggles): owned by `people.client`, with
 * `people.experts` assigned (existing users, the first one's toggles make the history), and
 * everything in it dated before `now`; its id.
 */
export async function seedBigProjectOnly(
  db: Db,
  people: ScalePeople & { experts: string[] },
  counts: BigProjectCounts,
  options: { now?: Date } = {},
): Promise<number> {
  // The client's company owns the project (users written straight into the table have none yet).
  await settleCompanies(db);
  const names = [people.client, people.admin, ...people.experts].map(canonicalIdentity);
  const found = await db.k.selectFrom('users').select(['user_name', 'name', 'last_name', 'role']).where('user_name', 'in', names).execute();
  const personNamed = (userName: string): Person => {
    const user = found.find((u) => u.user_name === canonicalIdentity(userName));
    if (!user) throw new Error(`seedBigProjectOnly: ${userName} must exist`);
    return { userName: user.user_name, name: `${user.name} ${user.last_name}`.trim(), role: user.role };
  };
  const rows: ScaleSeeded['rows'] = {
    users: 0,
    projects: 0,
    events: 0,
    messages: 0,
    experts: 0,
    milestones: 0,
    documents: 0,
    expertise: 0,
    audit: 0,
  };
  return insertBigProject(db.k, {
    counts,
    nowMs: (options.now ?? new Date()).getTime(),
    client: personNamed(people.client),
    admin: personNamed(people.admin),
    experts: people.experts.map(personNamed),
    random: prng(20_261_123),
    rows,
  });
}

/** History, experts, milestones and two messages of each ordinary project, as its state implies. */
async function seedProjectChildren(
  trx: Trx,
  slice: { row: Insertable<ProjectsTable>; state: ProjectState; expert: Person; at: number }[],
  ids: number[],
  { admin, rows }: { admin: Person; rows: ScaleSeeded['rows'] },
) {
  const events: Insertable<ProjectEventsTable>[] = [];
  const experts: Insertable<Schema['project_experts']>[] = [];
  const milestones: Insertable<Schema['project_milestones']>[] = [];
  const messages: Insertable<Schema['project_messages']>[] = [];
  slice.forEach(({ row, state, expert, at }, i) => {
    const id = ids[i]!;
    const owner: Person = { userName: row.owner, name: row.owner_name, role: row.owner_role };
    let t = at;
    const event = (actor: Person, kind: string, from: string | null, to: string | null, detail: string | null = null) => {
      events.push({
        project_id: id,
        at: new Date(t).toISOString(),
        actor: actor.userName,
        actor_name: actor.name,
        kind,
        from_state: from,
        to_state: to,
        detail,
        milestone_id: null,
      });
      t += 86_400_000;
    };
    event(owner, 'created', null, 'brief');
    if (state === 'brief') return;
    if (state === 'cancelled' && !row.proposal_sent_at) {
      event(owner, 'state', 'brief', 'cancelled');
      return;
    }
    event(admin, 'proposal', 'brief', 'proposal', String(row.proposal_fee));
    if (state === 'proposal') return;
    if (state === 'declined' || state === 'cancelled') {
      event(state === 'declined' ? owner : admin, 'state', 'proposal', state);
      return;
    }
    event(owner, 'state', 'proposal', 'active');
    experts.push({
      project_id: id,
      user_name: expert.userName,
      name: expert.name,
      added_at: new Date(t).toISOString(),
      added_by: admin.userName,
    });
    event(admin, 'expert_added', null, null, expert.name);
    const created = new Date(t).toISOString();
    for (const [n, title] of ['Kick-off', 'First version', 'Training'].entries()) {
      const done = n === 0 || state !== 'active';
      milestones.push({
        project_id: id,
        title,
        due_date: day(at + (n + 1) * 30 * 86_400_000),
        done_at: done ? new Date(at + (n + 1) * 30 * 86_400_000).toISOString() : null,
        done_by: done ? expert.userName : null,
        done_by_name: done ? expert.name : null,
        created_at: created,
      });
    }
    const message = (author: Person, body: string, ms: number) => ({
      project_id: id,
      author: author.userName,
      author_name: author.name,
      author_role: author.role,
      body,
      created_at: new Date(ms).toISOString(),
    });
    messages.push(
      message(expert, SENTENCES[i % SENTENCES.length]!, t),
      message(owner, SENTENCES[(i + 3) % SENTENCES.length]!, t + 3_600_000),
    );
    if (state === 'active') return;
    event(expert, 'state', 'active', 'delivered');
    if (state === 'closed') event(owner, 'state', 'delivered', 'closed');
  });
  for (const batch of batches(events)) await trx.insertInto('project_events').values(batch).execute();
  for (const batch of batches(experts)) await trx.insertInto('project_experts').values(batch).execute();
  for (const batch of batches(milestones)) await trx.insertInto('project_milestones').values(batch).execute();
  for (const batch of batches(messages)) await trx.insertInto('project_messages').values(batch).execute();
  rows.events += events.length;
  rows.experts += experts.length;
  rows.milestones += milestones.length;
  rows.messages += messages.length;
}

/** A one-page PDF: what every seeded document holds. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

async function seedBigProject(
  trx: Trx,
  id: number,
  options: {
    targets: BigProjectCounts;
    start: number;
    end: number;
    client: Person;
    admin: Person;
    experts: Person[];
    random: ReturnType<typeof prng>;
    rows: ScaleSeeded['rows'];
  },
) {
  const { targets, start, end, client, admin, experts, random, rows } = options;
  const [lead = experts[0]!] = experts;
  const experted = experts.map((e, n) => ({
    project_id: id,
    user_name: e.userName,
    name: e.name,
    added_at: new Date(start + (3 + n) * 86_400_000).toISOString(),
    added_by: admin.userName,
  }));
  await trx.insertInto('project_experts').values(experted).execute();
  rows.experts += experted.length;
  const milestoneRows = Array.from({ length: PROJECT_LIMITS.milestonesPerProject }, (_, n) => ({
    project_id: id,
    title: `Milestone ${n + 1}: ${TOPICS[n % TOPICS.length]}`,
    due_date: day(start + (n + 1) * 7 * 86_400_000),
    done_at: null,
    done_by: null,
    done_by_name: null,
    created_at: new Date(start + 5 * 86_400_000).toISOString(),
  }));
  const milestoneIds = inOrder(await trx.insertInto('project_milestones').values(milestoneRows).returning('id').execute());
  rows.milestones += milestoneIds.length;

  // The history: how it began, then milestones toggled done and reopened, a flood of toggles (docs/decisions/030).
  const step = (end - start) / (targets.bigProjectEvents + 1);
  const events: Insertable<ProjectEventsTable>[] = [];
  const push = (actor: Person, kind: string, from: string | null, to: string | null, detail: string | null, milestone: number | null) =>
    events.push({
      project_id: id,
      at: new Date(start + events.length * step).toISOString(),
      actor: actor.userName,
      actor_name: actor.name,
      kind,
      from_state: from,
      to_state: to,
      detail,
      milestone_id: milestone,
    });
  push(client, 'created', null, 'brief', null, null);
  push(admin, 'proposal', 'brief', 'proposal', '180000', null);
  push(client, 'state', 'proposal', 'active', null, null);
  for (const e of experts) push(admin, 'expert_added', null, null, e.name, null);
  milestoneRows.forEach((m, n) => push(lead, 'milestone_added', null, null, m.title, milestoneIds[n]!));
  for (let n = 0; events.length < targets.bigProjectEvents; n++) {
    const index = n % milestoneIds.length;
    const done = Math.floor(n / milestoneIds.length) % 2 === 0;
    push(
      experts[n % experts.length]!,
      done ? 'milestone_done' : 'milestone_reopened',
      null,
      null,
      milestoneRows[index]!.title,
      milestoneIds[index]!,
    );
  }
  events.length = targets.bigProjectEvents;
  for (const batch of batches(events)) await trx.insertInto('project_events').values(batch).execute();
  rows.events += events.length;

  // The conversation: the client, the experts and the admin in turn.
  const speakers = [client, ...experts, admin];
  const messageStep = (end - start) / (targets.bigProjectMessages + 1);
  const messages = Array.from({ length: targets.bigProjectMessages }, (_, n) => {
    const author = speakers[n % speakers.length]!;
    return {
      project_id: id,
      author: author.userName,
      author_name: author.name,
      author_role: author.role,
      body: `${random.pick(SENTENCES)} ${random.pick(SENTENCES)} (${n + 1})`,
      created_at: new Date(start + (n + 1) * messageStep).toISOString(),
    };
  });
  const messageIds: number[] = [];
  for (const batch of batches(messages))
    messageIds.push(...inOrder(await trx.insertInto('project_messages').values(batch).returning('id').execute()));
  rows.messages += messages.length;
  // The client has read all but the last few.
  const lastRead = messageIds[Math.max(0, messageIds.length - 4)]!;
  await trx.insertInto('project_reads').values({ project_id: id, user_name: client.userName, last_read_id: lastRead }).execute();

  const documents = Array.from({ length: targets.bigProjectDocuments }, (_, n) => ({
    project_id: id,
    name: `report-${String(n + 1).padStart(3, '0')}.pdf`,
    content_type: 'application/pdf',
    bytes: PDF.length,
    uploaded_by: experts[n % experts.length]!.userName,
    uploaded_at: new Date(start + (n + 1) * 86_400_000).toISOString(),
  }));
  if (documents.length === 0) return;
  const documentIds = inOrder(await trx.insertInto('project_documents').values(documents).returning('id').execute());
  for (const batch of batches(documentIds.map((document_id) => ({ document_id, seq: 0, data: PDF })))) {
    await trx.insertInto('project_document_chunks').values(batch).execute();
  }
  rows.documents += documentIds.length;
}

/** "Álvarez" → "alvarez": user names stay within USER_NAME_PATTERN. */
function foldAscii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

// ---------------------------------------------------------------------------------------------
// Blog posts.

const TAGS = {
  es: ['Datos', 'Accesibilidad', 'Protección de datos', 'Sostenibilidad', 'Proyectos', 'Sector público', 'Transformación digital'],
  en: ['Data', 'Accessibility', 'Data protection', 'Sustainability', 'Projects', 'Public sector', 'Digital transformation'],
} as const;
const PARAGRAPHS = {
  es: [
    'Un proyecto con una persona experta empieza por un buen encargo: qué problema hay que resolver, para quién y cómo sabremos que está resuelto. Cuanto más claro es ese punto de partida, menos semanas se pierden después.',
    'Las organizaciones pequeñas suelen tener los datos repartidos entre hojas de cálculo, el programa de facturación y el correo. Reunirlos en un solo sitio, con definiciones que todo el equipo comparte, es el primer paso.',
    'La accesibilidad no es una capa que se añade al final: se decide en el diseño, en los textos y en cada componente. Revisarla pronto cuesta poco; corregirla tarde cuesta mucho más.',
    'El reglamento pide saber qué datos personales se tratan, con qué finalidad y durante cuánto tiempo. Un inventario sencillo, mantenido al día, responde a la mayoría de las preguntas de una inspección.',
  ],
  en: [
    'A project with an expert starts with a good brief: which problem to solve, for whom, and how we will know it is solved. The clearer that starting point, the fewer weeks are lost later.',
    'Small organisations often keep their data spread over spreadsheets, the invoicing program and e-mail. Bringing it into one place, with definitions the whole team shares, is the first step.',
    'Accessibility is not a layer added at the end: it is decided in the design, the copy and every component. Checking it early costs little; fixing it late costs far more.',
    'The regulation asks which personal data is processed, for what purpose and for how long. A simple inventory, kept up to date, answers most of the questions of an inspection.',
  ],
} as const satisfies Partial<Record<Locale, readonly string[]>>;
/** The bench's posts are in the languages it has words for: another locale of the site has none of them. */
type SeedLocale = keyof typeof PARAGRAPHS & keyof typeof TAGS;
const SEED_LOCALES = Object.keys(PARAGRAPHS) as SeedLocale[];

/** One post's Markdown in one language: front matter and ~3 kB of text, like the site's own posts. */
function postMarkdown(n: number, locale: SeedLocale, date: string): string {
  const paragraphs = PARAGRAPHS[locale];
  const tags = TAGS[locale];
  const title = locale === 'es' ? `Nota ${n}: ${tags[n % tags.length]} en la práctica` : `Note ${n}: ${tags[n % tags.length]} in practice`;
  const p = (i: number) => `${paragraphs[(n + i) % paragraphs.length]} (${n}.${i})`;
  const heading =
    locale === 'es'
      ? ['Por dónde empezar', 'Qué medir', 'Los errores más comunes']
      : ['Where to start', 'What to measure', 'The most common mistakes'];
  const body = [
    p(0),
    p(1),
    `## ${heading[0]}`,
    p(2),
    `- **${tags[(n + 1) % tags.length]}:** ${p(3).slice(0, 120)}.`,
    `- **${tags[(n + 2) % tags.length]}:** ${p(4).slice(0, 120)}.`,
    `- **${tags[(n + 3) % tags.length]}:** ${p(5).slice(0, 120)}.`,
    `## ${heading[1]}`,
    p(6),
    p(7),
    `## ${heading[2]}`,
    p(8),
    p(9),
  ].join('\n\n');
  return [
    '---',
    `title: ${title}`,
    `description: ${p(10).slice(0, 150)}`,
    `date: ${date}`,
    'author: Equipo',
    `tags: ${tags[n % tags.length]}, ${tags[(n + 3) % tags.length]}`,
    '---',
    '',
    body,
    '',
  ].join('\n');
}

/** The slug of post `n` (0: the newest). */
export const scalePostSlug = (n: number) => `scale-note-${n + 1}`;

/**
 * Writes `count` posts into `contentDir`/blog (one folder each, Spanish and English, newest
 * first: post n is n days old) and returns the Markdown bodies written, for pre-rendering.
 */
export async function writeScalePosts(contentDir: string, count: number, now: Date = new Date()): Promise<string[]> {
  const bodies: string[] = [];
  for (let n = 0; n < count; n++) {
    const folder = join(contentDir, 'blog', scalePostSlug(n));
    await mkdir(folder, { recursive: true });
    const date = day(now.getTime() - n * 86_400_000);
    for (const locale of SEED_LOCALES) {
      const source = postMarkdown(n + 1, locale, date);
      await writeFile(join(folder, `${locale}.md`), source);
      bodies.push(parseFrontMatter(source, `${scalePostSlug(n)}/${locale}.md`).body);
    }
  }
  return bodies;
}

/** The posts' HTML as the build pre-renders it (by key: server/content/prerendered.ts). */
export async function prerenderBodies(bodies: readonly string[]): Promise<Map<string, string>> {
  const html = new Map<string, string>();
  for (const body of bodies) html.set(htmlKey(body), await renderMarkdown(body));
  return html;
}

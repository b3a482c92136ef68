// The schema is written once and migrated on both engines; an install from before the query
// layer (SQLite, PRAGMA user_version) keeps its data; files it kept on disk move in.
import { userRow } from '../helpers/users.ts';
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect, inject, test } from 'vitest';
import { databaseFile, LEGACY_SQLITE_DIR, migrate, openDatabase, type Db } from '../../server/db/index.ts';
import { MIGRATIONS } from '../../server/db/migrations.ts';
import { DOCUMENT_CHUNK_BYTES, documentChunks } from '../../server/projects/document-chunks.ts';
import { createLogger } from '../../server/base/logger.ts';
import { moveUploadsIntoDatabase } from '../../server/uploads/images.ts';
import { findUser } from '../../server/users/users.ts';
import { TEST_ENGINE, testDatabase } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/postgres.ts';

/** A fresh database of the run's engine with no migration applied yet. */
async function unmigratedDatabase(): Promise<Db> {
  if (TEST_ENGINE === 'sqlite') return openDatabase({ file: ':memory:', migrate: false });
  return openDatabase({ url: await createTestDatabase(inject('postgresUrl')), poolMax: 2, migrate: false });
}

test(`a new database gets every migration, recorded once; migrating again applies nothing (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  try {
    const rows = await sql<{ version: number }>`SELECT version FROM schema_migrations ORDER BY version`.execute(db.k);
    expect(rows.rows.map((r) => Number(r.version))).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(db)).toEqual([]);
  } finally {
    await db.close();
  }
});

test(`user names and e-mails compare without regard to case, and stay unique that way (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  try {
    const row = userRow({ user_name: 'Ana', email: 'Ana@Example.com' });
    await db.k
      .insertInto('users')
      .values({ ...row, user_name: 'Ana' })
      .execute();
    expect((await findUser(db, 'ANA'))?.userName).toBe('Ana');
    await expect(
      db.k
        .insertInto('users')
        .values({ ...row, user_name: 'ana', email: null })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db.k
        .insertInto('users')
        .values({ ...row, user_name: 'other', email: 'ana@example.COM' })
        .execute(),
    ).rejects.toThrow();
  } finally {
    await db.close();
  }
});

test.runIf(TEST_ENGINE === 'sqlite')(
  'an install from before the query layer (SQLite, user_version 4) keeps its users and gets the new tables',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'legacy-'));
    const file = databaseFile(dir);
    const legacy = new Database(file);
    for (const name of readdirSync(LEGACY_SQLITE_DIR).sort().slice(0, 4)) legacy.exec(readFileSync(join(LEGACY_SQLITE_DIR, name), 'utf8'));
    legacy.pragma('user_version = 4');
    legacy
      .prepare("INSERT INTO users (user_name, name, last_name, role, password_hash) VALUES ('old.timer', 'Old', 'Timer', 'ORG', 'x')")
      .run();
    legacy.close();
    const db = await openDatabase({ file });
    try {
      expect((await findUser(db, 'old.timer'))?.role).toBe('ORG');
      const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(db.k);
      expect(tables.rows.map((r) => r.name)).toEqual(
        expect.arrayContaining(['sessions', 'uploads', 'changes', 'used_form_tokens', 'schema_migrations']),
      );
      expect(tables.rows.map((r) => r.name)).not.toContain('revoked_tokens');
    } finally {
      await db.close();
    }
  },
);

test(`files an older install kept in DATA_DIR move into the database; files nobody uses are deleted (${TEST_ENGINE})`, async () => {
  const db = await testDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'uploads-move-'));
  try {
    mkdirSync(join(dataDir, 'avatars'));
    const used = `${'a'.repeat(32)}.png`;
    const orphan = `${'b'.repeat(32)}.png`;
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 3)]);
    writeFileSync(join(dataDir, 'avatars', used), png);
    writeFileSync(join(dataDir, 'avatars', orphan), png);
    await db.k
      .insertInto('users')
      .values(userRow({ user_name: 'pat', avatar: `/api/avatars/${used}` }))
      .execute();
    expect(await moveUploadsIntoDatabase(db, dataDir, createLogger('silent'))).toBe(1);
    const row = await db.k.selectFrom('uploads').selectAll().where('url', '=', `/api/avatars/${used}`).executeTakeFirstOrThrow();
    expect(Buffer.compare(Buffer.from(row.data), png)).toBe(0);
    expect(row).toMatchObject({ owner: 'pat', bytes: png.length, content_type: 'image/png' });
    expect(existsSync(join(dataDir, 'avatars', used))).toBe(false);
    expect(existsSync(join(dataDir, 'avatars', orphan))).toBe(false);
    // Nothing to do the second time.
    expect(await moveUploadsIntoDatabase(db, dataDir, createLogger('silent'))).toBe(0);
  } finally {
    await db.close();
  }
});

test('a database file put straight into a shared directory (sticky, like /tmp) leaves that directory as it was', async () => {
  if (TEST_ENGINE !== 'sqlite') return;
  const shared = mkdtempSync(join(tmpdir(), 'shared-'));
  chmodSync(shared, 0o1777);
  const db = await openDatabase({ file: join(shared, 'site.sqlite') });
  await db.close();
  expect(statSync(shared).mode & 0o7777).toBe(0o1777);
  expect(statSync(join(shared, 'site.sqlite')).mode & 0o777).toBe(0o600);
});

test(`documents stored whole before migration 10 are cut into chunks of 256 KiB, byte for byte, and the whole copy goes (${TEST_ENGINE})`, async () => {
  const db = await unmigratedDatabase();
  try {
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 10),
    );
    const at = new Date().toISOString();
    const { id: projectId } = await db.k
      .insertInto('projects')
      .values({
        title: 'T',
        description: 'D',
        practice: 'data',
        state: 'active',
        owner: 'ana',
        owner_name: 'Ana',
        owner_role: 'CLI',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Exactly one chunk, one byte more than two chunks, and a small one.
    const files = [DOCUMENT_CHUNK_BYTES, 2 * DOCUMENT_CHUNK_BYTES + 1, 10].map((bytes, i) =>
      Buffer.from(Array.from({ length: bytes }, (_, k) => (k * 31 + i) % 256)),
    );
    const ids: number[] = [];
    for (const [i, data] of files.entries()) {
      const row = await sql<{ id: number }>`
        INSERT INTO project_documents (project_id, name, content_type, bytes, data, uploaded_by, uploaded_at)
        VALUES (${projectId}, ${`f${i}.pdf`}, 'application/pdf', ${data.length}, ${data}, 'ana', ${at}) RETURNING id`.execute(db.k);
      ids.push(Number(row.rows[0]!.id));
    }
    expect(await migrate(db)).toEqual(MIGRATIONS.filter((m) => m.version >= 10).map((m) => m.version));
    for (const [i, data] of files.entries()) {
      const chunks: Buffer[] = [];
      for await (const chunk of documentChunks(db, ids[i]!, data.length)) chunks.push(chunk);
      expect(chunks.map((c) => c.length)).toEqual(
        Array.from({ length: Math.ceil(data.length / DOCUMENT_CHUNK_BYTES) }, (_, k) =>
          Math.min(DOCUMENT_CHUNK_BYTES, data.length - k * DOCUMENT_CHUNK_BYTES),
        ),
      );
      expect(Buffer.compare(Buffer.concat(chunks), data)).toBe(0);
    }
    await expect(sql`SELECT data FROM project_documents`.execute(db.k)).rejects.toThrow();
  } finally {
    await db.close();
  }
});

test(`a project's history and conversation are counted by the database: filled in by migration 15, then kept by every insert and delete, multi-row ones included (${TEST_ENGINE})`, async () => {
  const db = await unmigratedDatabase();
  try {
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 15),
    );
    const at = new Date().toISOString();
    const project = () =>
      db.k
        .insertInto('projects')
        .values({
          title: 'T',
          description: 'D',
          practice: 'data',
          state: 'active',
          owner: 'ana',
          owner_name: 'Ana',
          owner_role: 'CLI',
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((row) => row.id);
    const events = (projectId: number, n: number) =>
      db.k
        .insertInto('project_events')
        .values(Array.from({ length: n }, () => ({ project_id: projectId, at, actor: 'ana', actor_name: 'Ana', kind: 'comment' })))
        .execute();
    const messages = (projectId: number, n: number) =>
      db.k
        .insertInto('project_messages')
        .values(
          Array.from({ length: n }, () => ({
            project_id: projectId,
            author: 'ana',
            author_name: 'Ana',
            author_role: 'CLI',
            body: 'Hi',
            created_at: at,
          })),
        )
        .execute();
    const counts = async (projectId: number) => {
      const row = await db.k
        .selectFrom('projects')
        .select(['event_count', 'message_count'])
        .where('id', '=', projectId)
        .executeTakeFirstOrThrow();
      return [Number(row.event_count), Number(row.message_count)];
    };
    const [a, b] = [await project(), await project()];
    await events(a, 3);
    await messages(a, 2);
    await events(b, 1);

    expect((await migrate(db)).slice(0, 1)).toEqual([15]);
    expect(await counts(a)).toEqual([3, 2]);
    expect(await counts(b)).toEqual([1, 0]);

    await events(a, 5);
    await messages(b, 4);
    await db.k
      .insertInto('project_messages')
      .values({ project_id: a, author: 'ana', author_name: 'Ana', author_role: 'CLI', body: 'One more', created_at: at })
      .execute();
    const oldest = await db.k.selectFrom('project_events').select('id').where('project_id', '=', a).orderBy('id').limit(2).execute();
    await db.k
      .deleteFrom('project_events')
      .where(
        'id',
        'in',
        oldest.map((e) => e.id),
      )
      .execute();
    expect(await counts(a)).toEqual([6, 3]);
    expect(await counts(b)).toEqual([1, 4]);
  } finally {
    await db.close();
  }
});

test(`the proposal each project held before versions becomes its v1, answered as its state says (${TEST_ENGINE})`, async () => {
  const db = await unmigratedDatabase();
  try {
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 16),
    );
    const at = '2026-11-01T10:00:00.000Z';
    const project = (state: string, proposal: boolean) =>
      db.k
        .insertInto('projects')
        .values({
          title: state,
          description: 'D',
          practice: 'data',
          state,
          owner: 'ana',
          owner_name: 'Ana',
          owner_role: 'CLI',
          created_at: at,
          updated_at: at,
          ...(proposal
            ? {
                proposal_scope: `Scope ${state}`,
                proposal_fee: 7800,
                proposal_timeline: 'Three weeks',
                proposal_sent_at: at,
                proposal_sent_by: 'sara',
                proposal_answered_at: ['proposal', 'cancelled'].includes(state) ? null : at,
              }
            : {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((row) => row.id);
    const ids = {
      brief: await project('brief', false),
      proposal: await project('proposal', true),
      active: await project('active', true),
      closed: await project('closed', true),
      declined: await project('declined', true),
      cancelled: await project('cancelled', true),
    };
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 16),
      ),
    ).toEqual([16]);
    const rows = await db.k
      .selectFrom('project_proposals')
      .select(['project_id', 'version', 'status', 'fee', 'scope', 'sent_by', 'answered_by'])
      .orderBy('project_id')
      .execute();
    expect(rows.map((r) => ({ ...r, fee: Number(r.fee) }))).toEqual([
      { project_id: ids.proposal, version: 1, status: 'open', fee: 7800, scope: 'Scope proposal', sent_by: 'sara', answered_by: null },
      { project_id: ids.active, version: 1, status: 'accepted', fee: 7800, scope: 'Scope active', sent_by: 'sara', answered_by: 'ana' },
      { project_id: ids.closed, version: 1, status: 'accepted', fee: 7800, scope: 'Scope closed', sent_by: 'sara', answered_by: 'ana' },
      { project_id: ids.declined, version: 1, status: 'declined', fee: 7800, scope: 'Scope declined', sent_by: 'sara', answered_by: 'ana' },
      {
        project_id: ids.cancelled,
        version: 1,
        status: 'withdrawn',
        fee: 7800,
        scope: 'Scope cancelled',
        sent_by: 'sara',
        answered_by: null,
      },
    ]);
  } finally {
    await db.close();
  }
});

test.runIf(TEST_ENGINE === 'sqlite')(
  "SQLite's query planner has the tables' statistics once the database is opened (sqlite_stat1)",
  async () => {
    const file = databaseFile(mkdtempSync(join(tmpdir(), 'statistics-')));
    const first = await openDatabase({ file });
    const at = new Date().toISOString();
    const states = ['brief', 'proposal', 'active', 'delivered', 'closed', 'declined', 'cancelled'];
    await first.k
      .insertInto('projects')
      .values(
        Array.from({ length: 700 }, (_, i) => ({
          title: 'T',
          description: 'D',
          practice: 'data',
          state: states[i % states.length]!,
          owner: `owner${i % 100}`,
          owner_name: 'O',
          owner_role: 'CLI',
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    await first.close();
    const db = await openDatabase({ file });
    try {
      const stats = await sql<{ idx: string; stat: string }>`SELECT idx, stat FROM sqlite_stat1 WHERE tbl = 'projects'`.execute(db.k);
      // Rows, then rows per distinct value: the planner knows a state is a seventh of the projects.
      expect(stats.rows.find((r) => r.idx === 'projects_state')?.stat).toBe('700 100');
    } finally {
      await db.close();
    }
  },
);

test(`every client and organisation becomes the manager of a company of their own, named by their latest organisation, owning their projects (${TEST_ENGINE})`, async () => {
  const db = await unmigratedDatabase();
  try {
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 17),
    );
    await db.k
      .insertInto('users')
      .values([
        userRow({ user_name: 'ana', name: 'Ana', last_name: 'Ruiz', role: 'CLI' }),
        userRow({ user_name: 'olga', name: 'Olga', last_name: 'Town', role: 'ORG' }),
        userRow({ user_name: 'eva', name: 'Eva', last_name: 'Expert', role: 'CONS' }),
        userRow({ user_name: 'nobrief', name: 'Nina', last_name: 'Nueva', role: 'CLI' }),
      ])
      .execute();
    let minute = 0;
    const project = (owner: string, role: string, organisation: string | null) =>
      db.k
        .insertInto('projects')
        .values({
          title: `${owner} ${minute}`,
          description: 'D',
          practice: 'data',
          state: 'brief',
          owner,
          owner_name: owner,
          owner_role: role,
          organisation,
          created_at: `2026-11-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
          updated_at: `2026-11-01T10:${String(minute++).padStart(2, '0')}:00.000Z`,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((row) => row.id);
    const anas = [
      await project('ana', 'CLI', 'Old Name S.L.'),
      await project('ana', 'CLI', 'Ruiz Shops S.L.'),
      await project('ana', 'CLI', null),
    ];
    const olgas = await project('olga', 'ORG', null);
    // An external API's client: no users row, a project of theirs.
    const external = await project('ext', 'CLI', 'Ext Ltd');
    const orphan = await project('~deleted', 'CLI', null);

    expect(
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 17),
      ),
    ).toEqual([17]);
    const companies = await db.k
      .selectFrom('company_members as m')
      .innerJoin('companies as c', 'c.id', 'm.company_id')
      .select(['m.user_name', 'm.role', 'c.name', 'c.kind', 'c.id'])
      .orderBy('m.user_name')
      .execute();
    expect(companies.map(({ id: _id, ...rest }) => rest)).toEqual([
      { user_name: 'ana', role: 'manager', name: 'Ruiz Shops S.L.', kind: 'CLI' },
      { user_name: 'ext', role: 'manager', name: 'Ext Ltd', kind: 'CLI' },
      { user_name: 'nobrief', role: 'manager', name: 'Nina Nueva', kind: 'CLI' },
      { user_name: 'olga', role: 'manager', name: 'Olga Town', kind: 'ORG' },
    ]);
    const companyOf = Object.fromEntries(companies.map((c) => [c.user_name, c.id]));
    const projects = await db.k.selectFrom('projects').select(['id', 'company_id']).execute();
    const owning = Object.fromEntries(projects.map((p) => [p.id, p.company_id]));
    for (const id of anas) expect(owning[id]).toBe(companyOf.ana);
    expect(owning[olgas]).toBe(companyOf.olga);
    expect(owning[external]).toBe(companyOf.ext);
    expect(owning[orphan]).toBeNull();
  } finally {
    await db.close();
  }
});

test(`a client's branding becomes their company's (migration 18), and their own record goes (${TEST_ENGINE})`, async () => {
  const db = await unmigratedDatabase();
  try {
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 18),
    );
    const at = '2026-11-01T10:00:00.000Z';
    await db.k
      .insertInto('users')
      .values([userRow({ user_name: 'ana', role: 'CLI' }), userRow({ user_name: 'eva', role: 'CONS' })])
      .execute();
    // Migration 17 ran on no users: give Ana her company as it would have.
    const { id } = await db.k
      .insertInto('companies')
      .values({ name: 'Ana S.L.', kind: 'CLI', created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.k.insertInto('company_members').values({ user_name: 'ana', company_id: id, role: 'manager', joined_at: at }).execute();
    await db.k
      .insertInto('branding')
      .values([
        { user_name: 'ana', color: '#112233', logo: '/api/branding-logos/a.png', updated_at: at },
        { user_name: 'eva', color: '#445566', logo: null, updated_at: at },
      ])
      .execute();
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 18),
      ),
    ).toEqual([18]);
    expect(await db.k.selectFrom('company_branding').selectAll().execute()).toEqual([
      { company_id: id, color: '#112233', logo: '/api/branding-logos/a.png', updated_at: at },
    ]);
    // A record nobody reads any more goes; one the migration could not place stays.
    expect((await db.k.selectFrom('branding').select('user_name').execute()).map((r) => r.user_name)).toEqual(['eva']);
  } finally {
    await db.close();
  }
});

test(`notifications (migrations 19, 20): a row per recipient, gone with its project; the unread ones counted by user; older rows name no actor's account (${TEST_ENGINE})`, async () => {
  const db = await unmigratedDatabase();
  try {
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 19),
    );
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 19),
      ),
    ).toEqual([19]);
    const at = '2026-11-27T10:00:00.000Z';
    const project = await db.k
      .insertInto('projects')
      .values({
        owner: 'ana',
        owner_name: 'Ana',
        owner_role: 'CLI',
        title: 'A project',
        description: 'What it is about',
        practice: 'data',
        state: 'brief',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = {
      kind: 'message_posted',
      project_id: project.id,
      project_title: 'A project',
      actor: 'Eva',
      created_at: at,
    };
    await db.k
      .insertInto('notifications')
      // The shape of migration 19 (no actor_user yet).
      .values([
        { ...row, user_name: 'ana', read_at: null },
        { ...row, user_name: 'ANA', read_at: at },
        { ...row, user_name: 'eva', read_at: null },
      ] as never)
      .execute();
    const unread = await db.k
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_name', '=', 'Ana')
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(unread.n)).toBe(1);
    // Migration 20: the rows of before name no account.
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 20),
      ),
    ).toEqual([20]);
    const actors = await db.k.selectFrom('notifications').select(['actor', 'actor_user']).execute();
    expect(actors).toEqual(Array.from({ length: 3 }, () => ({ actor: 'Eva', actor_user: '' })));
    await db.k.deleteFrom('projects').where('id', '=', project.id).execute();
    expect(await db.k.selectFrom('notifications').selectAll().execute()).toEqual([]);
  } finally {
    await db.close();
  }
});

test(`the contact inbox (migration 25): a message read before it is archived, an unread one is a new lead; replies go with their message (${TEST_ENGINE})`, async () => {
  const db = await unmigratedDatabase();
  try {
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 25),
    );
    const at = '2026-12-01T10:00:00.000Z';
    const message = { email: 'lucia@example.com', subject: 'Hola', message: 'Un mensaje.', locale: 'es', consent_at: at, created_at: at };
    await db.k
      .insertInto('contact_messages')
      // The shape of migration 24 (no status, no company yet).
      .values([
        { ...message, name: 'read', read: 1 },
        { ...message, name: 'unread', read: 0 },
      ] as never)
      .execute();
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 25),
      ),
    ).toEqual([25]);
    const rows = await db.k.selectFrom('contact_messages').select(['id', 'name', 'status', 'company']).orderBy('id').execute();
    expect(rows.map(({ name, status, company }) => ({ name, status, company }))).toEqual([
      { name: 'read', status: 'archived', company: null },
      { name: 'unread', status: 'new', company: null },
    ]);
    await db.k
      .insertInto('contact_replies')
      .values({ message_id: rows[0]!.id, author: 'rosa', author_name: 'Rosa Admin', body: 'Hola', created_at: at })
      .execute();
    await db.k.deleteFrom('contact_messages').where('id', '=', rows[0]!.id).execute();
    expect(await db.k.selectFrom('contact_replies').selectAll().execute()).toEqual([]);
    await expect(db.k.updateTable('contact_messages').set({ status: 'spam' }).execute()).rejects.toThrow();
  } finally {
    await db.close();
  }
});

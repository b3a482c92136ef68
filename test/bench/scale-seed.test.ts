// The scale bench's seeding (scripts/bench/scale-seed.ts) at a thousandth of its size: what it
// writes is what the bench counts on, through the real schema, on each engine of the run, so
// that `npm run bench -- --scale` cannot rot silently.
import { rm } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { loadEmbeddedContent } from '../../server/content/embedded.ts';
import { prerenderedOf } from '../../server/content/prerendered.ts';
import { createProjects } from '../../server/projects/service.ts';
import { findUser } from '../../server/users/users.ts';
import { prerenderBodies, scaledTargets, scalePostSlug, seedScaleData, writeScalePosts } from '../../scripts/bench/scale-seed.ts';
import { ROLES } from '../../shared/user.ts';
import { testDatabase } from '../helpers/app.ts';
import { writeContentDir } from '../helpers/content-dir.ts';
import { addUser } from '../helpers/users.ts';

test('seeding at factor 0.001 writes the scaled counts: users of every role, projects, and the big project with its history and conversation', async () => {
  const db = await testDatabase();
  try {
    await addUser(db, { userName: 'bench-client', role: 'CLI' });
    await addUser(db, { userName: 'bench-admin', role: 'ADMIN' });
    const targets = scaledTargets(0.001);
    expect(targets).toMatchObject({ users: 10, projects: 50, bigProjectEvents: 50, bigProjectMessages: 5, posts: 5 });

    const seeded = await seedScaleData(db, { client: 'bench-client', admin: 'bench-admin' }, { factor: 0.001 });

    const count = async (table: 'users' | 'projects' | 'audit_log' | 'expertise') =>
      Number(
        (
          await db.k
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('users')).toBe(targets.users);
    expect(await count('projects')).toBe(targets.projects);
    expect(await count('audit_log')).toBe(seeded.rows.users);
    expect(await count('expertise')).toBe(seeded.rows.expertise);
    const roles = await db.k.selectFrom('users').select('role').distinct().execute();
    expect(roles.map((r) => r.role).sort()).toEqual([...ROLES].sort());
    const states = await db.k.selectFrom('projects').select('state').distinct().execute();
    expect(states.length).toBeGreaterThanOrEqual(5);

    const big = seeded.bigProjectId;
    const countOf = async (table: 'project_events' | 'project_messages' | 'project_documents' | 'project_experts') =>
      Number(
        (
          await db.k
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('project_id', '=', big)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await countOf('project_events')).toBe(targets.bigProjectEvents);
    expect(await countOf('project_messages')).toBe(targets.bigProjectMessages);
    expect(await countOf('project_documents')).toBe(targets.bigProjectDocuments);
    expect(await countOf('project_experts')).toBe(2);

    // The site's own service sees the big project as the bench's client does: theirs, and read.
    const client = (await findUser(db, 'bench-client'))!;
    const list = await createProjects({ db, notify: async () => {} }).list(client, { pageSize: 100 });
    expect(list.items.map((p) => p.id)).toContain(big);
    expect(list.items.every((p) => p.owner.userName === 'bench-client')).toBe(true);
  } finally {
    await db.close();
  }
});

test('the seeded posts are what the site loads from a content folder, each in both languages, with the pre-rendered HTML the server looks up', async () => {
  const dir = await writeContentDir([]);
  try {
    const targets = scaledTargets(0.001);
    const bodies = await writeScalePosts(dir, targets.posts, new Date('2026-11-23T00:00:00Z'));
    const prerendered = await prerenderBodies(bodies);
    const marked = prerenderedOf(new Map([...prerendered.keys()].map((key) => [key, `<p>pre-rendered ${key}</p>`])));
    const content = await loadEmbeddedContent(dir, marked);
    for (const locale of ['es', 'en'] as const) {
      const posts = await content.listPosts(locale);
      expect(posts).toHaveLength(targets.posts);
      expect(posts[0]!.slug).toBe(scalePostSlug(0));
      expect((await content.getPost(scalePostSlug(0), locale))!.html).toMatch(/^<p>pre-rendered /);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

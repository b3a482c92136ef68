// The dashboards' lists are kept a moment per caller and query (server/db/read-cache.ts, issue
// 23): whatever this process changes shows in them at once, a removed expert stops seeing the
// project at once, and a kept list is never anyone else's, nor the same user's in another role.
import { expect, test } from 'vitest';
import { createTestApp, TEST_ENGINE } from '../helpers/app.ts';
import { activeProject, api, BRIEF, PEOPLE, signInEveryone, UNLIMITED, type Person } from './fixtures.ts';

type Listed = { id: number; state: string; unread: number; waiting: string | null };

async function setup() {
  const { app, db } = await createTestApp(UNLIMITED);
  const tokens = await signInEveryone(app, db);
  /** The caller's list, asked twice: the second answer is the kept one. */
  const listOf = async (who: Person): Promise<Listed[]> => {
    await api(app, tokens[who]).get('/projects');
    const res = await api(app, tokens[who]).get('/projects');
    expect(res.status).toBe(200);
    return res.body.items as Listed[];
  };
  return { app, tokens, listOf };
}

test(`every change made here shows in the kept lists at once (${TEST_ENGINE})`, async () => {
  const { app, tokens, listOf } = await setup();
  expect(await listOf('owner')).toEqual([]);
  const created = await api(app, tokens.owner).post('/projects', BRIEF);
  const id = created.body.id as number;
  expect((await listOf('owner')).map((p) => p.id)).toEqual([id]);
  expect((await listOf('admin'))[0]).toMatchObject({ id, state: 'brief', waiting: 'send_proposal' });
  const proposal = { scope: 'Dashboards for 12 shops', fee: 18000, timeline: 'Eight weeks from the start' };
  await api(app, tokens.admin).patch(`/projects/${id}`, { action: 'send_proposal', proposal });
  expect((await listOf('owner'))[0]).toMatchObject({ state: 'proposal', waiting: 'answer_proposal' });
  await api(app, tokens.admin).post(`/projects/${id}/messages`, { body: 'Have a look' });
  expect((await listOf('owner'))[0]).toMatchObject({ unread: 1 });
  await api(app, tokens.owner).get(`/projects/${id}/messages`);
  expect((await listOf('owner'))[0]).toMatchObject({ unread: 0 });
});

test(`an expert removed from a project stops seeing it in their kept list at once (${TEST_ENGINE})`, async () => {
  const { app, tokens, listOf } = await setup();
  const id = await activeProject(app, tokens);
  expect((await listOf('expert')).map((p) => p.id)).toEqual([id]);
  const removed = await api(app, tokens.admin).delete(`/projects/${id}/experts/${PEOPLE.expert.userName}`);
  expect(removed.status).toBe(200);
  expect(await listOf('expert')).toEqual([]);
});

test(`a kept list is the caller's own: another user, or the same user in another role, gets theirs (${TEST_ENGINE})`, async () => {
  const { app, tokens, listOf } = await setup();
  const id = await activeProject(app, tokens);
  expect((await listOf('owner')).map((p) => p.id)).toEqual([id]);
  expect(await listOf('otherClient')).toEqual([]);
  expect(await listOf('otherExpert')).toEqual([]);
  // Made an admin: the same user's next list is every project (an admin's), not their kept own.
  const mine = await api(app, tokens.otherClient).post('/projects', { ...BRIEF, title: 'Globex reporting' });
  expect((await listOf('otherClient')).map((p) => p.id)).toEqual([mine.body.id]);
  const promoted = await api(app, tokens.admin).patch(`/admin/users/${PEOPLE.otherClient.userName}`, { role: 'ADMIN' });
  expect(promoted.status).toBe(200);
  expect((await listOf('otherClient')).map((p) => p.id).sort()).toEqual([id, mine.body.id].sort());
});

test(`an expert's kept profile shows what they save at once, and their new name while they have none (${TEST_ENGINE})`, async () => {
  const { app, tokens } = await setup();
  const mine = async () => {
    await api(app, tokens.expert).get('/me/expertise');
    return (await api(app, tokens.expert).get('/me/expertise')).body as { name: string; bio: string; updatedAt: string | null };
  };
  expect(await mine()).toMatchObject({ name: 'Eva Expert', updatedAt: null });
  const renamed = await api(app, tokens.expert).patch('/me', { name: 'Eve', lastName: 'Expert' });
  expect(renamed.status).toBe(200);
  expect((await mine()).name).toBe('Eve Expert');
  const saved = await api(app, tokens.expert).put('/me/expertise', {
    practices: ['data'],
    bio: 'Data',
    dayRate: null,
    availability: 'available',
  });
  expect(saved.status).toBe(200);
  expect(await mine()).toMatchObject({ bio: 'Data' });
});

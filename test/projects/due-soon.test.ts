// "Due soon" — what puts "milestones due" first in an expert's dashboard, in the list and in the
// project alike — counts days where the company counts them (JOBS_TIME_ZONE, Madrid's by default),
// as the milestone reminders do: late in the evening in UTC it is already tomorrow in Madrid, and a
// milestone due seven days after Madrid's today is due soon there, though it is eight after UTC's.
import { expect, test } from 'vitest';
import type { Actor } from '../../server/projects/access.ts';
import { createProjects } from '../../server/projects/service.ts';
import { createTestApp, TEST_ENGINE } from '../helpers/app.ts';
import { activeProject, api, PEOPLE, signInEveryone, UNLIMITED } from './fixtures.ts';

const EXPERT: Actor = {
  userName: PEOPLE.expert.userName,
  role: PEOPLE.expert.role,
  name: PEOPLE.expert.name,
  lastName: PEOPLE.expert.lastName,
};
/** 23:30 in UTC on 1 December is 00:30 on 2 December in Madrid (UTC+1 in winter). */
const LATE_EVENING_UTC = new Date('2026-12-01T23:30:00Z');

async function projectWithMilestoneDue(dueDate: string) {
  const { app, db } = await createTestApp(UNLIMITED);
  const tokens = await signInEveryone(app, db);
  const id = await activeProject(app, tokens);
  const added = await api(app, tokens.expert).post(`/projects/${id}/milestones`, { title: 'Data model agreed', dueDate });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const at = (timeZone?: string) =>
    createProjects({ db, notify: async () => {}, now: () => LATE_EVENING_UTC, ...(timeZone ? { timeZone } : {}) });
  return { id, at };
}

test(`a milestone due 7 days after today in Madrid is due soon at 23:30 UTC, in the expert's list and in the project (${TEST_ENGINE})`, async () => {
  const { id, at } = await projectWithMilestoneDue('2026-12-09');
  for (const projects of [at(), at('Europe/Madrid')]) {
    expect((await projects.list(EXPERT)).items.find((p) => p.id === id)?.waiting).toBe('milestones_due');
    expect((await projects.get(EXPERT, id)).waiting).toBe('milestones_due');
  }
  // Where days are UTC's it is still 1 December: the 9th is eight days away, not due soon yet.
  expect((await at('UTC').list(EXPERT)).items.find((p) => p.id === id)?.waiting).toBeNull();
  expect((await at('UTC').get(EXPERT, id)).waiting).toBeNull();
});

test(`a milestone due 8 days after today in Madrid is not due soon yet (${TEST_ENGINE})`, async () => {
  const { id, at } = await projectWithMilestoneDue('2026-12-10');
  expect((await at().list(EXPERT)).items.find((p) => p.id === id)?.waiting).toBeNull();
  expect((await at().get(EXPERT, id)).waiting).toBeNull();
});

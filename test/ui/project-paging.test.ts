// A project's history and conversation without JavaScript, on the app in this process
// (docs/decisions/030, 047): the page shows the newest 50 of each, and "Show older" is a plain
// link to the older page, with the way back to the newest. "Show older" adding the next 50 in
// place is test/e2e/project-paging.test.ts's.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { seedDemoProjects } from '../../server/projects/demo.ts';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser, textOf, type PlainPage } from '../helpers/plain-browser.ts';
import { addUser, DEFAULT_PASSWORD } from '../helpers/users.ts';

const EXTRA = 120;
const PEOPLE = [
  { role: 'ADMIN' as const, userName: 'ada' },
  { role: 'CLI' as const, userName: 'carla' },
  { role: 'ORG' as const, userName: 'olga' },
  { role: 'CONS' as const, userName: 'ernesto' },
];

const historyItems = (page: PlainPage) => [...page.document.querySelectorAll('section[aria-labelledby="history-title"] .history li')];
const messages = (page: PlainPage) => [...page.document.querySelectorAll('.thread-message')];
const link = (page: PlainPage, name: string) => within(page.document.body).getByRole('link', { name });

test('without JavaScript, "Show older" is a link to the older page, with the way back to the newest', async () => {
  const { app, db } = await createTestApp();
  for (const person of PEOPLE) await addUser(db, person);
  await seedDemoProjects(db, { admin: 'ada', client: 'carla', org: 'olga', expert: 'ernesto' });
  // On the demo's active project (the organisation's), EXTRA more events and messages than its own.
  const at = new Date().toISOString();
  const steps = Array.from({ length: EXTRA }, (_, i) => String(i).padStart(3, '0'));
  const event = (step: string) => ({
    project_id: 3,
    at,
    actor: 'ernesto',
    actor_name: 'Ernesto Experto',
    kind: 'milestone_done',
    from_state: null,
    to_state: null,
    detail: `Step ${step}`,
  });
  await db.k.insertInto('project_events').values(steps.map(event)).execute();
  const message = (step: string) => ({
    project_id: 3,
    author: 'ernesto',
    author_name: 'Ernesto Experto',
    author_role: 'CONS',
    body: `Note ${step}`,
    created_at: at,
  });
  await db.k.insertInto('project_messages').values(steps.map(message)).execute();
  const browser = plainBrowser(app);
  await browser.signIn('olga', DEFAULT_PASSWORD);

  let page = await browser.open('/en/organization/projects/3');
  expect(historyItems(page)).toHaveLength(50);
  page = await browser.follow(page, link(page, 'Show older events'));
  expect(page.url.searchParams.has('historyBefore')).toBe(true);
  expect(page.url.hash).toBe('#history-title');
  expect(historyItems(page)).toHaveLength(50);
  expect(textOf(historyItems(page)[0])).toContain('Step 069');
  page = await browser.follow(page, link(page, 'Back to the newest events'));
  expect(page.url.searchParams.has('historyBefore')).toBe(false);
  expect(textOf(historyItems(page)[0])).toContain('Step 119');

  page = await browser.follow(page, link(page, 'Show older messages'));
  expect(page.url.searchParams.has('messagesBefore')).toBe(true);
  expect(messages(page)).toHaveLength(50);
  expect(textOf(messages(page)[49])).toContain('Note 069');
});

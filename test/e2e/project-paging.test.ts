// A project's history and conversation in Chromium (docs/decisions/030): the page shows the
// newest 50 of each; "Show older" adds the next 50 without a reload when scripts run. That it is
// a plain link to the older page when they do not is test/ui/project-paging.test.ts's.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../../server/db/index.ts';
import { seedDemoProjects } from '../../server/projects/demo.ts';
import { setupSite, waitForHydration } from './fixture.ts';
import { ROLE_USERS } from './helpers.ts';

const EXTRA = 120;
const user = (role: string) => ROLE_USERS.find((u) => u.role === role)!;
/** The demo's active project, the organisation's (server/projects/demo.ts). */
const PROJECT = `/en/organization/projects/3`;

/** The demo projects, and on the active one EXTRA more events and messages than its own. */
async function seed(dataDir: string): Promise<void> {
  const db = await openDatabase({ file: databaseFile(dataDir), poolMax: 1 });
  await seedDemoProjects(db, {
    admin: user('ADMIN').userName,
    client: user('CLI').userName,
    org: user('ORG').userName,
    expert: user('CONS').userName,
  });
  const at = new Date().toISOString();
  await db.k
    .insertInto('project_events')
    .values(
      Array.from({ length: EXTRA }, (_, i) => ({
        project_id: 3,
        at,
        actor: user('CONS').userName,
        actor_name: 'Ernesto Experto',
        kind: 'milestone_done',
        from_state: null,
        to_state: null,
        detail: `Step ${String(i).padStart(3, '0')}`,
      })),
    )
    .execute();
  await db.k
    .insertInto('project_messages')
    .values(
      Array.from({ length: EXTRA }, (_, i) => ({
        project_id: 3,
        author: user('CONS').userName,
        author_name: 'Ernesto Experto',
        author_role: 'CONS',
        body: `Note ${String(i).padStart(3, '0')}`,
        created_at: at,
      })),
    )
    .execute();
  await db.close();
}

const site = setupSite({ users: ROLE_USERS, seed });

const historyItems = (page: Page) => page.locator('section[aria-labelledby="history-title"] .history li');
const messages = (page: Page) => page.locator('.thread-message');

describe('a project with a long history and thread', () => {
  it('with JavaScript, "Show older" adds the older page to the list, no reload, until the oldest', async () => {
    const context = await site.newContext({ as: user('ORG').userName, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(PROJECT);
    await waitForHydration(page);
    expect(await historyItems(page).count()).toBe(50);
    expect(await messages(page).count()).toBe(50);
    await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

    await page.getByRole('link', { name: 'Show older events' }).click();
    await expect.poll(() => historyItems(page).count()).toBe(100);
    // Newest first: the older page follows the first one.
    expect(await historyItems(page).nth(0).textContent()).toContain('Step 119');
    expect(await historyItems(page).nth(50).textContent()).toContain('Step 069');
    await page.getByRole('link', { name: 'Show older events' }).click();
    // The rest: the 20 oldest extra steps and the demo project's own history.
    await expect.poll(() => page.getByRole('link', { name: 'Show older events' }).count()).toBe(0);
    expect(await historyItems(page).count()).toBeGreaterThan(EXTRA);

    await page.getByRole('link', { name: 'Show older messages' }).click();
    await expect.poll(() => messages(page).count()).toBe(100);
    // A thread reads oldest first: the older messages come above.
    expect(await messages(page).nth(0).textContent()).toContain('Note 020');
    expect(await messages(page).nth(99).textContent()).toContain('Note 119');

    expect(new URL(page.url()).pathname).toBe(PROJECT);
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  });
});

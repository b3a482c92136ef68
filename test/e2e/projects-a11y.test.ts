// The private area's project pages as each role meets them (docs/decisions/013): axe-core finds no
// violation on the dashboards, the new brief and the project pages at 1366 px, in both locales
// (light) and both themes (Spanish) (the `theme` cookie, docs/decisions/023) — less what the route
// table's walks check already (below); at 390 px
// nothing scrolls sideways. The demo projects (server/projects/demo.ts) give every state.
import { describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../../server/db/index.ts';
import { seedDemoProjects } from '../../server/projects/demo.ts';
import { THEMES } from '../../shared/theme.ts';
import { runAxe, setupSite, waitForHydration } from './fixture.ts';
import { EVERY_PAGE, ROLE_USERS, type RoleUser } from './helpers.ts';

const user = (role: RoleUser['role']) => ROLE_USERS.find((u) => u.role === role)!;

// Demo project ids: 1 brief, 2 proposal, 4 delivered (the client's); 3 active, 6 declined (the organisation's).
const PAGES: { role: RoleUser['role']; path: string }[] = [
  { role: 'CLI', path: '/client' },
  { role: 'CLI', path: '/client/projects/new' },
  { role: 'CLI', path: '/client/projects/2' },
  { role: 'CLI', path: '/client/projects/4' },
  { role: 'ORG', path: '/organization' },
  { role: 'ORG', path: '/organization/projects/new' },
  { role: 'ORG', path: '/organization/projects/3' },
  { role: 'ORG', path: '/organization/projects/6' },
  { role: 'CONS', path: '/expert' },
  { role: 'CONS', path: '/expert/projects/3' },
  { role: 'ADMIN', path: '/admin/projects' },
  { role: 'ADMIN', path: '/admin/projects/1' },
  { role: 'ADMIN', path: '/admin/projects/3' },
];
// Both locales in the light theme; the dark theme (its colours are the locale's the same) in Spanish.
// A page of the route table's samples is already checked in English (axe and overflow at 390 px,
// pages.test.ts) and in the dark theme (a11y.test.ts): here it is the light theme in Spanish at
// 1366 px, and every theme and locale for the states the samples do not show.
const SAMPLED: ReadonlySet<string> = new Set(EVERY_PAGE.map((page) => page.path));
const CASES = THEMES.flatMap((theme) =>
  PAGES.flatMap((p) => [{ ...p, theme, url: p.path }, ...(theme === 'light' ? [{ ...p, theme, url: `/en${p.path}` }] : [])]),
).filter(({ theme, url }) => !SAMPLED.has(url) || (theme === 'light' && !url.startsWith('/en/')));

const site = setupSite({
  users: ROLE_USERS,
  seed: async (dataDir) => {
    const db = await openDatabase({ file: databaseFile(dataDir), poolMax: 1 });
    await seedDemoProjects(db, {
      admin: user('ADMIN').userName,
      client: user('CLI').userName,
      org: user('ORG').userName,
      expert: user('CONS').userName,
    });
    await db.close();
  },
});

describe('the project pages of every role', () => {
  it.each(CASES)(
    '$role on $url in the $theme theme: no axe violation, and nothing scrolls sideways at 390 px',
    async ({ role, url, theme }) => {
      const context = await site.newContext({ as: user(role).userName, axe: true });
      await context.addCookies([{ name: 'theme', value: theme, url: site.baseURL }]);
      const page = await context.newPage();
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      await waitForHydration(page);
      const results = await runAxe(page);
      const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`).join('\n');
      expect(results.violations, summary).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    },
  );
});

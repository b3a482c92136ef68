// The private area's project pages as each role meets them (issue 14): axe-core finds no
// violation on the dashboards, the new brief and the project pages, in both locales and both
// themes (the `theme` cookie, docs/decisions/023); at 390 px
// nothing scrolls sideways. The demo projects (server/projects/demo.ts) give every state.
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../../server/db/index.ts';
import { seedDemoProjects } from '../../server/projects/demo.ts';
import { THEMES } from '../../shared/theme.ts';
import {
  contextOptions,
  launchBrowser,
  ROLE_PASSWORD,
  ROLE_USERS,
  signedInState,
  startServer,
  userCli,
  waitForHydration,
  type RoleUser,
  type ServerInstance,
  type StorageState,
} from './helpers.ts';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

declare global {
  interface Window {
    axe: { run: () => Promise<AxeResults> };
  }
}

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
  { role: 'ADMIN', path: '/admin' },
  { role: 'ADMIN', path: '/admin/projects/1' },
  { role: 'ADMIN', path: '/admin/projects/3' },
];
const CASES = THEMES.flatMap((theme) =>
  PAGES.flatMap((p) => [
    { ...p, theme, url: p.path },
    { ...p, theme, url: `/en${p.path}` },
  ]),
);

let server: ServerInstance;
let browser: Browser;
const states = new Map<string, StorageState>();

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-projects-'));
  for (const u of ROLE_USERS) {
    userCli(dataDir, [
      'add',
      '--userName',
      u.userName,
      '--password',
      ROLE_PASSWORD,
      '--role',
      u.role,
      '--name',
      u.name,
      '--lastName',
      u.lastName,
    ]);
  }
  const db = await openDatabase({ file: databaseFile(dataDir), poolMax: 1 });
  await seedDemoProjects(db, {
    admin: user('ADMIN').userName,
    client: user('CLI').userName,
    org: user('ORG').userName,
    expert: user('CONS').userName,
  });
  await db.close();
  server = await startServer({}, dataDir);
  browser = await launchBrowser();
  for (const u of ROLE_USERS) states.set(u.role, await signedInState(browser, server.baseURL, u));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the project pages of every role', () => {
  it.each(CASES)(
    '$role on $url in the $theme theme: no axe violation, and nothing scrolls sideways at 390 px',
    async ({ role, url, theme }) => {
      const context = await browser.newContext(
        contextOptions({ baseURL: server.baseURL, storageState: states.get(role)!, bypassCSP: true, reducedMotion: 'reduce' }),
      );
      try {
        await context.addCookies([{ name: 'theme', value: theme, url: server.baseURL }]);
        const page = await context.newPage();
        const response = await page.goto(url);
        expect(response?.status()).toBe(200);
        await waitForHydration(page);
        await page.addScriptTag({ content: AXE_SOURCE });
        const results = await page.evaluate(() => window.axe.run());
        const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`).join('\n');
        expect(results.violations, summary).toEqual([]);
        await page.setViewportSize({ width: 390, height: 844 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      } finally {
        await context.close();
      }
    },
  );
});

// Live updates and the notification centre in the browser (docs/decisions/042): two
// instances of the built server on one PostgreSQL; an organisation reads a project's conversation on
// instance B while an admin posts on instance A — the message shows within 2 s, without a
// document load, what the client was typing still in its box, and the bell's count goes up. The
// notifications page, at 390 px, under axe in both themes. Screenshots go to .tmp/shots-live/.
// Marking read and renewing the calendar address without JavaScript are test/ui/notifications.test.ts's.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { membershipOf } from '../../server/companies/companies.ts';
import { openDatabase } from '../../server/db/index.ts';
import { seedDemoProjects } from '../../server/projects/demo.ts';
import { THEMES } from '../../shared/theme.ts';
import { createTestDatabase, startPostgres, type PostgresCluster } from '../helpers/postgres.ts';
import { addUser } from '../helpers/users.ts';
import { DESKTOP, PHONE, runAxe, setupSite, waitForHydration, type Server } from './fixture.ts';
import { ROLE_PASSWORD } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

const ADMIN = { role: 'ADMIN' as const, userName: 'lv-admin', name: 'Adela', lastName: 'Gestora' };
const CLIENT = { role: 'CLI' as const, userName: 'lv-client', name: 'Carla', lastName: 'Cliente' };
const ORG = { role: 'ORG' as const, userName: 'lv-org', name: 'Olga', lastName: 'Organización' };
const EXPERT = { role: 'CONS' as const, userName: 'lv-expert', name: 'Ernesto', lastName: 'Experto' };
const SHOTS = join(process.cwd(), '.tmp', 'shots-live');

// One PostgreSQL for both instances: started before the file's server (hooks run in order).
const env: Record<string, string> = {};
let cluster: PostgresCluster | undefined;
beforeAll(async () => {
  cluster = await startPostgres();
  env.DATABASE_URL = await createTestDatabase(cluster.url);
}, scaled(60_000));
afterAll(() => cluster?.stop());

const site = setupSite({
  env,
  seed: async () => {
    const db = await openDatabase({ url: env.DATABASE_URL!, poolMax: 1 });
    try {
      for (const user of [ADMIN, CLIENT, ORG, EXPERT]) await addUser(db, { ...user, password: ROLE_PASSWORD });
      await seedDemoProjects(db, { admin: ADMIN.userName, client: CLIENT.userName, org: ORG.userName, expert: EXPERT.userName });
      if (!(await membershipOf(db.k, CLIENT.userName))) throw new Error('seed: the client has no company');
    } finally {
      await db.close();
    }
  },
});

/** A POST to an instance's API as `userName`. */
async function postAs(server: Server, userName: string, path: string, body: object): Promise<Response> {
  const login = await fetch(`${server.baseURL}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.baseURL },
    body: JSON.stringify({ identifier: userName, password: ROLE_PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  return fetch(`${server.baseURL}/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}

/** Text as read on the screen: one space for any run of white space. */
async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

async function bellCount(page: Page): Promise<number> {
  return Number(await page.locator('.navbar-bell').getAttribute('data-count'));
}

/** An instance's API as `userName` (a Bearer token from POST /api/login). */
async function apiAs(server: Server, userName: string) {
  const login = await fetch(`${server.baseURL}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.baseURL },
    body: JSON.stringify({ identifier: userName, password: ROLE_PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  return (path: string) => fetch(`${server.baseURL}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
}

/** The organisation's demo project in progress (its expert and the admin write in it): its page on `page`'s instance, hydrated. */
async function openActiveProject(page: Page): Promise<number> {
  const get = await apiAs(site, ORG.userName);
  const { items } = (await (await get('/projects?status=active')).json()) as { items: { id: number }[] };
  const id = items[0]?.id ?? 0;
  expect(id).toBeGreaterThan(0);
  expect((await page.goto(`/en/organization/projects/${id}`))?.status()).toBe(200);
  await waitForHydration(page);
  await page.locator('#message-body').waitFor({ timeout: scaled(5000) });
  return id;
}

describe('live updates across two instances on one PostgreSQL', () => {
  let second: Server;
  beforeAll(async () => {
    second = await site.startServer({ env: { DATABASE_URL: env.DATABASE_URL! } });
  }, scaled(120_000));

  it('a message posted on instance A shows in the conversation open on instance B within 2 s, without a reload; what was typed stays; the bell counts it', async () => {
    const page = await site.newPage({ as: ORG.userName, server: second, consent: true });
    const id = await openActiveProject(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.locator('#message-body').fill('A reply I am still writing');
    const before = await bellCount(page);

    const text = `Live from instance A ${Date.now()}`;
    const posted = await postAs(site, ADMIN.userName, `/projects/${id}/messages`, { body: text });
    expect(posted.status).toBe(201);
    const started = Date.now();
    await page.locator('.thread-message', { hasText: text }).waitFor({ timeout: scaled(2000) });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await page.locator('#message-body').inputValue()).toBe('A reply I am still writing');
    // Read on this page: the project's notifications are read when the page is read again.
    await expect.poll(() => bellCount(page), { timeout: scaled(2000) }).toBeLessThanOrEqual(before);
    // A milestone added on A shows in the open page's milestones too.
    const milestone = `Live milestone ${Date.now()}`;
    expect((await postAs(site, ADMIN.userName, `/projects/${id}/milestones`, { title: milestone })).status).toBe(201);
    await page.locator('section[aria-labelledby="milestones-title"]', { hasText: milestone }).waitFor({ timeout: scaled(2000) });
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    // Elsewhere (the profile), the next message raises the bell at once; a dashboard open in
    // another tab shows the unread message on its area link, without a reload.
    await page.goto('/en/profile');
    await waitForHydration(page);
    const resting = await bellCount(page);
    const dashboard = await site.newPage({ as: ORG.userName, server: second, consent: true });
    await dashboard.goto('/en/organization');
    await waitForHydration(dashboard);
    await dashboard.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    expect(await dashboard.locator('.navbar-cta .navbar-unread').count()).toBe(0);
    await postAs(site, ADMIN.userName, `/projects/${id}/messages`, { body: 'And another one' });
    await expect.poll(() => bellCount(page), { timeout: scaled(2000) }).toBe(resting + 1);
    await dashboard.locator('.navbar-cta .navbar-unread').waitFor({ timeout: scaled(2000) });
    expect(await dashboard.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await page.locator('.navbar-bell').getAttribute('aria-label')).toBe(`Notifications: ${resting + 1} unread`);
  });

  it('the notifications page lists what happened, links to the project, and marks all read', async () => {
    const page = await site.newPage({ as: ORG.userName, consent: true });
    await page.goto('/en/notifications');
    await waitForHydration(page);
    const items = page.locator('.notification');
    expect(await items.count()).toBeGreaterThan(0);
    expect(await textOf(items.first())).toContain('Adela Gestora wrote in');
    const link = items.first().locator('a');
    expect(await link.getAttribute('href')).toMatch(/^\/en\/organization\/projects\/\d+$/);
    if ((await page.locator('.notification-unread').count()) > 0) {
      await page.getByRole('button', { name: 'Mark all as read' }).click();
      await expect.poll(() => page.locator('.notification-unread').count()).toBe(0);
    }
    await expect.poll(() => bellCount(page)).toBe(0);
  });

  it('at 390 px: the bell beside the burger, the page without sideways scroll; axe finds nothing in either theme', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const page = await site.newPage({ as: ORG.userName, viewport: PHONE, axe: true, consent: true });
    await page.goto('/en/notifications');
    await waitForHydration(page);
    const bell = await page.locator('.navbar-bell').boundingBox();
    const burger = await page.locator('.navbar-burger').boundingBox();
    expect(bell && burger && bell.y < burger.y + burger.height && bell.x < burger.x).toBe(true);
    expect(bell!.width).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: join(SHOTS, 'notifications-390.png'), fullPage: true });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: join(SHOTS, 'notifications-1366.png') });
    await page.setViewportSize(PHONE);
    for (const theme of THEMES) {
      await page.context().addCookies([{ name: 'theme', value: theme, url: site.baseURL }]);
      await page.reload();
      await waitForHydration(page);
      expect(await page.locator('html').getAttribute('data-theme')).toBe(theme);
      const results = await runAxe(page);
      expect(results.violations.map((v) => `${theme}: ${v.id} ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
    }
  });

  it('My Profile’s calendar: the address made with JavaScript (no page load); at 390 px nothing overflows; axe finds nothing', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const page = await site.newPage({ as: EXPERT.userName, viewport: PHONE, axe: true, consent: true });
    await page.goto('/en/profile');
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.getByRole('button', { name: 'Make my calendar address' }).click();
    const address = page.locator('#calendar-url');
    await address.waitFor();
    const url = await address.inputValue();
    expect(url).toMatch(/\/calendar\/\d+-[A-Za-z0-9_-]{43}\.ics$/);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    const feed = await fetch(url.replace(/^https?:\/\/[^/]+/, site.baseURL));
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('BEGIN:VCALENDAR');
    const section = page.locator('section[aria-labelledby="calendar-title"]');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await section.screenshot({ path: join(SHOTS, 'calendar-390.png') });
    const results = await runAxe(page, 'section[aria-labelledby="calendar-title"]');
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});

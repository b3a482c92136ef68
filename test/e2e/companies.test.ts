// Client companies in the browser (docs/decisions/041, 049): the profile's "Your company" section as
// its manager meets it — inviting a colleague by address with JavaScript (no page load; without it,
// test/ui/companies.test.ts) —, a member who works on the company's projects but leaves the
// decisions to the manager, a removal that ends the member's access at once, and the section at
// 390 px and under axe-core in both themes. Screenshots of the team section go to .tmp/shots-companies/. This file starts
// its own server: the demo projects (server/projects/demo.ts) belong to the manager's company,
// and a second client is seeded into it as a member.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../../server/db/index.ts';
import { membershipOf, moveUser } from '../../server/companies/companies.ts';
import { seedDemoProjects } from '../../server/projects/demo.ts';
import { THEMES } from '../../shared/theme.ts';
import { DESKTOP, PHONE, runAxe, setupSite, waitForHydration } from './fixture.ts';
import { scaled } from '../helpers/time-scale.ts';

const ADMIN = { role: 'ADMIN' as const, userName: 'co-admin', name: 'Adela', lastName: 'Gestora' };
const MANAGER = { role: 'CLI' as const, userName: 'co-manager', name: 'Carla', lastName: 'Cliente', email: 'carla@example.com' };
const MEMBER = { role: 'CLI' as const, userName: 'co-member', name: 'Mario', lastName: 'Miembro', email: 'mario@example.com' };
const ORG = { role: 'ORG' as const, userName: 'co-org', name: 'Olga', lastName: 'Organización' };
const EXPERT = { role: 'CONS' as const, userName: 'co-expert', name: 'Ernesto', lastName: 'Experto' };

/** The demo project that waits for the client's answer (server/projects/demo.ts). */
const PROPOSAL_TITLE = 'Customer portal redesign';
const SHOTS = join(process.cwd(), '.tmp', 'shots-companies');

const site = setupSite({
  users: [ADMIN, MANAGER, MEMBER, ORG, EXPERT],
  smtp: true,
  seed: async (dataDir) => {
    const db = await openDatabase({ file: databaseFile(dataDir), poolMax: 1 });
    try {
      await seedDemoProjects(db, { admin: ADMIN.userName, client: MANAGER.userName, org: ORG.userName, expert: EXPERT.userName });
      const company = await membershipOf(db.k, MANAGER.userName);
      if (!company) throw new Error('seed: the manager has no company');
      await moveUser(db, MEMBER.userName, { companyId: company.companyId }, 'member');
    } finally {
      await db.close();
    }
  },
});

/** Text as read on the screen: one space for any run of white space. */
async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

function team(page: Page): Locator {
  return page.locator('section[aria-labelledby="company-title"]');
}

/** A person's row in the team list, by the user name it shows. */
function row(page: Page, userName: string): Locator {
  return team(page)
    .locator('li.member-item')
    .filter({ has: page.locator('.member-user', { hasText: `(${userName})` }) });
}

/** A row's badges as written (textContent: a badge's CSS may change the case on screen). */
async function badges(page: Page, userName: string): Promise<string[]> {
  return (await row(page, userName).locator('.badge').allTextContents()).map((s) => s.trim());
}

async function open(page: Page, path: string, js = true): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  if (js) await waitForHydration(page);
}

/** Fills the invitation form (opened): by address, no user name is asked (docs/decisions/049). */
async function fillInvitation(page: Page, colleague: { name: string; lastName: string; email: string }): Promise<void> {
  await page.locator('#company-name').fill(colleague.name);
  await page.locator('#company-lastName').fill(colleague.lastName);
  await page.locator('#company-email').fill(colleague.email);
}

let manager: Page;
let member: Page;
/** The member's page of the project in proposal (test 3), reloaded after the removal (test 4). */
let memberProject = '';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // Opened here, so that they outlive a test: the manager's page serves every test of theirs
  // (axe: true, for the last), the member's page is reloaded after the removal.
  [manager, member] = await Promise.all([
    site.newPage({ as: MANAGER.userName, viewport: DESKTOP, axe: true }),
    site.newPage({ as: MEMBER.userName, viewport: DESKTOP }),
  ]);
  manager.context().setDefaultTimeout(scaled(10_000));
  member.context().setDefaultTimeout(scaled(10_000));
}, scaled(60_000));

describe('companies', () => {
  it('a manager invites a colleague from their profile with JavaScript: the form opens from its summary, the page says it was sent with no page load, and the colleague is listed once they have chosen a password', async () => {
    const page = manager;
    await open(page, '/en/profile');
    const section = team(page);
    expect(await textOf(section.locator('h2'))).toBe('Your company: Carla Cliente');
    expect(await textOf(section.locator('.section-lead'))).toContain('You are its manager');
    expect(await badges(page, MANAGER.userName)).toEqual(['Manager', 'You']);
    expect(await badges(page, MEMBER.userName)).toEqual(['Member']);
    // The manager sees addresses and what they may do to each colleague, nothing on their own row.
    expect(await textOf(row(page, MEMBER.userName))).toContain(MEMBER.email);
    expect(await row(page, MANAGER.userName).locator('button').count()).toBe(0);
    expect(await row(page, MEMBER.userName).locator('button').allTextContents()).toEqual([
      'Make manager Mario Miembro (you become a member)',
      'Remove Mario Miembro',
    ]);

    const summary = section.locator('details.company-invite > summary');
    expect(await textOf(summary)).toBe('Invite a colleague');
    expect(await page.locator('#company-email').isVisible()).toBe(false);
    await summary.click();
    await page.locator('#company-email').waitFor({ state: 'visible' });
    expect(await page.locator('#company-userName').count()).toBe(0);
    const people = await section.locator('li.member-item').count();
    await fillInvitation(page, { name: 'Lucía', lastName: 'Luna', email: 'lucia@example.com' });

    await page.evaluate(() => Object.assign(window, { __marker: 1 }));
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/en/profile');
    answered.catch(() => undefined);
    await section.getByRole('button', { name: 'Send the invitation' }).click();
    const answer = await answered;
    expect(answer.status(), await answer.text()).toBe(200);
    expect(await answer.json()).toMatchObject({ ok: true, success: 'colleagueInvited' });

    const success = section.locator('.form-success[role="status"]');
    await success.waitFor();
    expect(await textOf(success)).toBe('Invitation sent. Your colleague appears below once they have chosen their password.');
    // Not listed while the invitation is pending: an address that has an account looks the same.
    expect(await section.locator('li.member-item').count()).toBe(people);
    expect(await textOf(section)).not.toContain('Lucía Luna');
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker), 'no full page load').toBe(1);
    expect(new URL(page.url()).searchParams.get('saved')).toBe('colleagueInvited');

    // The invitation e-mail goes to the address typed.
    const mail = () => site.smtp.messages.find((m) => (m.to && !Array.isArray(m.to) ? m.to.text : '') === 'lucia@example.com');
    await expect.poll(mail, { timeout: scaled(15_000) }).toBeTruthy();
  });

  it('a member sees the company’s projects and writes in them, but the manager answers the proposal', async () => {
    const page = member;
    await open(page, '/en/client');
    const link = page.locator('main a', { hasText: PROPOSAL_TITLE });
    expect(await link.count()).toBe(1);
    memberProject = (await link.getAttribute('href')) ?? '';
    expect(memberProject).toMatch(/^\/en\/client\/projects\/[0-9]+$/);

    await open(page, memberProject);
    expect(await textOf(page.locator('main h1'))).toBe(PROPOSAL_TITLE);
    expect(await textOf(page.locator('.project-header .state-badge'))).toBe('Proposal sent');
    expect(await page.locator('button[name="action"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: /accept|decline/i }).count()).toBe(0);
    const next = page.locator('section.project-next');
    expect(await textOf(next.locator('h2'))).toBe('Next step');
    expect(await textOf(next.locator('p'))).toBe(
      "Your company's manager accepts or declines the proposal: you can read it here and write to the team below.",
    );
    expect(await next.locator('p').isVisible()).toBe(true);

    const message = 'Mario here: I have read the proposal, it looks good to me.';
    await page.evaluate(() => Object.assign(window, { __marker: 1 }));
    await page.locator('#message-body').fill(message);
    await page.locator('section[aria-labelledby="messages-title"] button[type="submit"]').click();
    const posted = page.locator('.thread-message', { hasText: message });
    await posted.waitFor();
    expect(await textOf(posted.locator('.thread-meta strong'))).toBe('Mario Miembro');
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker), 'no full page load').toBe(1);
  });

  it('at 390 px the team section scrolls nothing sideways, and axe-core finds no violation on the profile with the invite form open (light and dark themes)', async () => {
    const page = manager;
    for (const theme of THEMES) {
      await page.context().addCookies([{ name: 'theme', value: theme, url: site.baseURL }]);
      await page.setViewportSize(DESKTOP);
      await open(page, '/en/profile');
      expect(await page.locator('html').getAttribute('data-theme')).toBe(theme);
      const section = team(page);
      await section.locator('details.company-invite > summary').click();
      await page.locator('#company-email').waitFor({ state: 'visible' });
      const results = await runAxe(page);
      const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`).join('\n');
      expect(results.violations, `${theme}: ${summary}`).toEqual([]);
      await section.screenshot({ path: join(SHOTS, `team-${theme}-1366.png`) });

      await page.setViewportSize(PHONE);
      const measured = await page.evaluate(() => {
        const root = document.documentElement;
        const wide = [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5)
          .slice(0, 5)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
        return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
      });
      expect(measured.scrollWidth, `${theme}: overflow at 390 px: ${measured.wide.join(', ')}`).toBeLessThanOrEqual(measured.clientWidth);
      // The member's two buttons stay inside the row.
      const inside = await row(page, MEMBER.userName).evaluate((li) => {
        const box = li.getBoundingClientRect();
        return [...li.querySelectorAll('button')].every((b) => {
          const r = b.getBoundingClientRect();
          return r.width > 0 && r.left >= box.left && r.right <= box.right;
        });
      });
      expect(inside).toBe(true);
      await section.screenshot({ path: join(SHOTS, `team-${theme}-390.png`) });
    }
    await page.setViewportSize(DESKTOP);
  });

  it('the manager removes the member, whose project page, reloaded, is the 404 page', async () => {
    expect(memberProject, 'the member’s test opened a project').not.toBe('');
    const page = manager;
    await open(page, '/en/profile');
    const section = team(page);
    const listed = await section.locator('li.member-item').count();
    await section.getByRole('button', { name: 'Remove Mario Miembro' }).click();
    const success = section.locator('.form-success[role="status"]');
    await success.waitFor();
    expect(await textOf(success)).toBe('Removed. They no longer see any of your projects.');
    await row(page, MEMBER.userName).waitFor({ state: 'detached' });
    expect(await section.locator('li.member-item').count()).toBe(listed - 1);

    const response = await member.reload();
    expect(response?.status()).toBe(404);
    expect(await textOf(member.locator('main h1'))).toBe('This page could not be found');
    expect(await member.content()).not.toContain(PROPOSAL_TITLE);
  });

  it('an admin moves the removed member back into the company from the users console: the confirmation names it, the row shows it, the member sees its projects again', async () => {
    const page = await site.newPage({ as: ADMIN.userName, viewport: DESKTOP });
    await open(page, `/en/admin/users?q=${MEMBER.userName}`);
    const userRow = page.locator('tr', { has: page.locator('th', { hasText: MEMBER.userName }) });
    // Removed, the member manages a company of their own.
    expect(await textOf(userRow.locator('.admin-company'))).toBe('Mario Miembro · Manager');
    const menu = userRow.locator('details.row-menu');
    await menu.locator('summary').click();
    const field = menu.getByLabel(`Company of ${MEMBER.userName}`);
    await field.fill('Carla Cliente');
    await menu.getByLabel('Role in it').selectOption('member');
    await menu.getByRole('button', { name: `Move ${MEMBER.userName} to this company` }).click();
    const dialog = page.getByRole('alertdialog', { name: `Change the company of ${MEMBER.userName}?` });
    await dialog.waitFor();
    // An existing company: no new one is made.
    expect(await textOf(dialog)).toContain('will belong to “Carla Cliente” as Member');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await expect.poll(() => textOf(userRow.locator('.admin-company'))).toBe('Carla Cliente · Member');
    expect(await textOf(page.locator('.admin-notice, [role="status"]').filter({ hasText: 'now belongs to' }).first())).toContain(
      `${MEMBER.userName} now belongs to “Carla Cliente” as Member.`,
    );
    const response = await member.reload();
    expect(response?.status()).toBe(200);
    expect(await member.content()).toContain(PROPOSAL_TITLE);
  });
});

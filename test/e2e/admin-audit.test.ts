// The admin's audit log and "End sessions" in a real Chromium, at 1366 px (a table) and 390 px
// (cards): what was done shows up (users created by ops, sign-ins, a failed sign-in with what was
// typed, role changes), the filter narrows it without reloading, the pages go back in time, and
// ending a user's sessions (confirmed in a dialog) signs that user out at their next request
// while another user stays signed in. Screenshots in /tmp/shots-audit. Without JavaScript, and in
// Spanish, the log is read from the server's HTML: test/ui/admin-audit.test.ts.
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { collectProblems, ROLE_USERS } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

const SHOTS = '/tmp/shots-audit';
const ADMIN = ROLE_USERS.find((user) => user.role === 'ADMIN')!;
const CLIENT = ROLE_USERS.find((user) => user.role === 'CLI')!;
const EXPERT = ROLE_USERS.find((user) => user.role === 'CONS')!;
const ORG = ROLE_USERS.find((user) => user.role === 'ORG')!;
const VIEWPORTS = [
  { label: '1366 px', viewport: { width: 1366, height: 768 } },
  { label: '390 px', viewport: { width: 390, height: 844 } },
] as const;
/** Role changes made through the API before the tests: more entries than one page holds. */
const ROLE_CHANGES = 24;
const TYPED_AT_FAILED_SIGN_IN = 'Olga@Example.test';

const site = setupSite({ users: ROLE_USERS });

beforeAll(async () => {
  const context = await site.newContext({ as: ADMIN.userName });
  const failed = await context.request.post('/api/login', {
    headers: { Origin: site.baseURL },
    data: { identifier: TYPED_AT_FAILED_SIGN_IN, password: 'not the password' },
  });
  expect(failed.status()).toBe(401);
  for (let i = 0; i < ROLE_CHANGES; i++) {
    const answer = await context.request.patch(`/api/admin/users/${ORG.userName}`, {
      headers: { Origin: site.baseURL },
      data: { role: i % 2 === 0 ? 'CLI' : 'ORG' },
    });
    expect(answer.status(), await answer.text()).toBe(200);
  }
  await context.close();
  mkdirSync(SHOTS, { recursive: true });
}, scaled(90_000));

/** A page of the admin's (signed in once for the file): the audit log unless told. */
async function open(viewport: { width: number; height: number }, options: { path?: string; javaScript?: boolean } = {}): Promise<Page> {
  const javaScript = options.javaScript ?? true;
  const page = await site.newPage({ viewport, as: ADMIN.userName, javaScriptEnabled: javaScript });
  await page.goto(options.path ?? '/en/admin/audit');
  if (javaScript) await waitForHydration(page);
  return page;
}

/** Visible, with a box of its own inside the window's width (nothing cut off sideways). */
async function expectOnScreen(locator: Locator, width: number, what: string): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  expect(await locator.isVisible(), `${what} is visible`).toBe(true);
  const b = await locator.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
  expect(b.width, `${what} has a width`).toBeGreaterThan(0);
  expect(b.height, `${what} has a height`).toBeGreaterThan(0);
  expect(b.left, `${what} left`).toBeGreaterThanOrEqual(0);
  expect(b.right, `${what} right`).toBeLessThanOrEqual(width);
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

const auditSection = (page: Page) => page.getByRole('region', { name: 'Audit log', exact: true });
const auditRows = (page: Page) => auditSection(page).locator('tbody tr');
const summary = (page: Page) => auditSection(page).locator('.admin-summary');
/** The action column of every row on screen. */
const actionsShown = (page: Page) => auditRows(page).locator('.admin-audit-action').allInnerTexts();

async function filter(page: Page, fields: { action?: string; user?: string }): Promise<void> {
  const form = auditSection(page).getByRole('search', { name: 'Filter the audit log' });
  if (fields.action !== undefined) await form.getByLabel('Action').selectOption({ label: fields.action });
  if (fields.user !== undefined) await form.getByLabel('User', { exact: true }).fill(fields.user);
  await form.getByRole('button', { name: 'Filter', exact: true }).click();
}

describe.each(VIEWPORTS)('the audit log at $label', ({ viewport }) => {
  const { width } = viewport;

  test('shows who did what to whom, newest first, and filters it without reloading the page', { timeout: scaled(60_000) }, async () => {
    const page = await open(viewport);
    const problems = collectProblems(page);
    const section = auditSection(page);
    await expectOnScreen(section.getByRole('heading', { level: 2, name: 'Audit log' }), width, 'the heading');
    const total = Number(/^(\d+) entries\.$/.exec(await summary(page).innerText())?.[1]);
    // 4 users created by ops, the admin's sign-in, the failed one, the role changes, and the signs-in of earlier tests.
    expect(total).toBeGreaterThanOrEqual(4 + 2 + ROLE_CHANGES);
    expect(await auditRows(page).count()).toBe(20);
    // Newest first (each row's time no later than the one above); a role change says from what to what.
    const times = await auditRows(page)
      .locator('th time')
      .evaluateAll((els) => els.map((el) => el.getAttribute('datetime') ?? ''));
    expect(times).toEqual([...times].sort().reverse());
    const roleChange = auditRows(page)
      .filter({ has: page.locator('.admin-audit-action', { hasText: 'Role changed' }) })
      .first();
    expect(await roleChange.innerText()).toMatch(/Client → Organisation|Organisation → Client/);
    for (const cell of await roleChange.locator('th, td').all()) await expectOnScreen(cell, width, 'a cell of a role change');

    // The failed sign-in: a visitor, what was typed, never the password.
    await filter(page, { action: 'Failed sign-in' });
    await expect.poll(() => summary(page).innerText()).toBe('1 entry matches the filter.');
    const failed = auditRows(page).first();
    expect(await failed.innerText()).toContain('Visitor (not signed in)');
    expect(await failed.innerText()).toContain(TYPED_AT_FAILED_SIGN_IN);
    expect(await failed.innerText()).not.toContain('not the password');
    await expectOnScreen(failed, width, 'the failed sign-in');
    await failed.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/audit-failed-${width}.png` });

    // By user: what was done by and to the client.
    await filter(page, { action: 'All actions', user: CLIENT.userName.toUpperCase() });
    await expect.poll(() => summary(page).innerText()).toMatch(/^\d+ entr(y matches|ies match) the filter\.$/);
    const shown = await actionsShown(page);
    expect(shown).toContain('User created');
    for (const row of await auditRows(page).all()) expect((await row.innerText()).toLowerCase()).toContain(CLIENT.userName);

    // "Show all" goes back to everything; the page was never reloaded.
    await auditSection(page).getByRole('link', { name: 'Show all' }).click();
    await expect.poll(() => summary(page).innerText()).toMatch(/^\d+ entries\.$/);
    expect(new URL(page.url()).search).toBe('');
    await expectNoSidewaysScroll(page);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/audit-${width}.png` });
    await page.screenshot({ path: `${SHOTS}/audit-full-${width}.png`, fullPage: true });
    expect(problems).toEqual([]);
  });

  test('goes back in time page by page', { timeout: scaled(60_000) }, async () => {
    const page = await open(viewport);
    const problems = collectProblems(page);
    const pager = auditSection(page).getByRole('navigation', { name: 'Pages of the audit log' });
    await expectOnScreen(pager, width, 'the pager');
    expect(await pager.innerText()).toMatch(/Page 1 of \d+/);
    const timesShown = () =>
      auditRows(page)
        .locator('th time')
        .evaluateAll((els) => els.map((el) => el.getAttribute('datetime') ?? ''));
    const first = await timesShown();
    await pager.getByRole('link', { name: 'Older' }).click();
    await expect.poll(() => pager.innerText()).toMatch(/Page 2 of \d+/);
    // Page 2 is older than all of page 1.
    const second = await timesShown();
    expect(second.length).toBeGreaterThan(0);
    expect(second[0]! <= first.at(-1)!).toBe(true);
    await pager.getByRole('link', { name: 'Newer' }).click();
    await expect.poll(() => pager.innerText()).toMatch(/Page 1 of \d+/);
    expect(await timesShown()).toEqual(first);
    await pager.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/audit-pager-${width}.png` });
    await expectNoSidewaysScroll(page);
    expect(problems).toEqual([]);
  });

  test("ends a user's sessions after a confirmation: that user is signed out, another is not", { timeout: scaled(90_000) }, async () => {
    // Signed in afresh (at each width: the first run ended the client's sessions).
    const [clientPage, expertPage] = await Promise.all([
      site.signIn(CLIENT.userName, { viewport }),
      site.signIn(EXPERT.userName, { viewport }),
    ]);
    const page = await open(viewport, { path: '/en/admin/users' });
    const problems = collectProblems(page);
    const users = page.getByRole('region', { name: 'Users', exact: true });
    const row = users.locator('tbody tr').filter({ has: page.getByRole('rowheader', { name: CLIENT.userName, exact: true }) });
    // The action is in the row's menu.
    await row.locator('details.row-menu summary').click();
    const button = row.getByRole('button', { name: `End sessions of ${CLIENT.userName}` });
    await expectOnScreen(button, width, 'End sessions');
    await button.click();
    const dialog = page.getByRole('alertdialog', { name: `End every session of ${CLIENT.userName}?` });
    await dialog.waitFor();
    await expectOnScreen(dialog, width, 'the dialog');
    expect(await dialog.innerText()).toContain('they will have to sign in again');
    await page.screenshot({ path: `${SHOTS}/end-sessions-dialog-${width}.png` });
    await dialog.getByRole('button', { name: 'End sessions', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const done = users.getByRole('status').filter({ hasText: `session of ${CLIENT.userName} has been ended.` });
    await done.waitFor();
    await expectOnScreen(done, width, 'the notice');
    await page.screenshot({ path: `${SHOTS}/end-sessions-done-${width}.png` });

    // The client's next request is signed out; the expert is still signed in.
    await clientPage.goto('/en/client');
    expect(new URL(clientPage.url()).pathname).toBe('/en/login');
    await expertPage.goto('/en/expert');
    expect(new URL(expertPage.url()).pathname).toBe('/en/expert');

    // The audit log (its own page) says who did it.
    await page.goto('/en/admin/audit');
    await waitForHydration(page);
    await filter(page, { action: 'Sessions ended', user: CLIENT.userName });
    const entry = auditRows(page).first();
    await expect.poll(() => entry.innerText()).toContain(ADMIN.userName);
    // In words ("1 session"), never a raw key and value.
    expect(await entry.innerText()).toContain('1 session');
    expect(await entry.innerText()).not.toMatch(/count: |Sessions: /);
    expect(problems).toEqual([]);
  });
});

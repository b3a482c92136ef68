// The admin's users console as the admin uses it, in a real Chromium at 1366 px and at 390 px:
// sign in, create a user of each role, find one with the search, change its role, disable and
// enable it, page through a list longer than one page, and meet the field errors of bad input.
// What is checked is what the admin sees: visible elements, their boxes inside the window, the
// texts announced (role=status / role=alert). Without JavaScript (the search a GET form, the
// pager links, every action off) it is read from the server's HTML: test/ui/admin-users.test.ts.
// The console cannot edit a user's name (the API takes role and disabled only): the journey
// changes the role; the name is the user's own to change, on their profile page.
// This file starts its own server with one user per role and 20 more, so that the list has
// two pages of 20.
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { collectProblems, ROLE_USERS } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

const SHOTS = '/tmp/shots-admin';
const PAGE_SIZE = 20;
const FILLERS = 20;
const ADMIN = ROLE_USERS.find((user) => user.role === 'ADMIN')!;
const VIEWPORTS = [
  { label: '1366 px', prefix: 'lap', viewport: { width: 1366, height: 768 } },
  { label: '390 px', prefix: 'pho', viewport: { width: 390, height: 844 } },
] as const;
const ROLE_LABELS = { ADMIN: 'Administrator', CLI: 'Client', ORG: 'Organisation', CONS: 'Expert' } as const;

const site = setupSite({ users: ROLE_USERS });

beforeAll(async () => {
  // The fillers come through the API, as the console's own form sends them.
  const context = await site.newContext({ as: ADMIN.userName });
  try {
    for (let i = 1; i <= FILLERS; i++) {
      const n = String(i).padStart(2, '0');
      const answer = await context.request.post('/api/admin/users', {
        headers: { Origin: site.baseURL },
        data: { userName: `filler${n}`, name: 'Filler', lastName: n, role: 'CONS' },
      });
      expect(answer.status(), await answer.text()).toBe(201);
    }
  } finally {
    await context.close();
  }
  mkdirSync(SHOTS, { recursive: true });
}, scaled(90_000));

async function openConsole(viewport: { width: number; height: number }, javaScript = true): Promise<Page> {
  const page = await site.newPage({ viewport, as: ADMIN.userName, javaScriptEnabled: javaScript });
  await page.goto('/en/admin/users');
  if (javaScript) await waitForHydration(page);
  return page;
}

type Box = { left: number; top: number; right: number; bottom: number; width: number; height: number };

function box(locator: Locator): Promise<Box> {
  return locator.evaluate((el) => {
    const { left, top, right, bottom, width, height } = el.getBoundingClientRect();
    return { left, top, right, bottom, width, height };
  });
}

/** Visible, with a box of its own that lies across the window's width (nothing cut off sideways). */
async function expectOnScreen(locator: Locator, width: number, what: string): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  expect(await locator.isVisible(), `${what} is visible`).toBe(true);
  const b = await box(locator);
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

const usersSection = (page: Page) => page.getByRole('region', { name: 'Users', exact: true });
const createSection = (page: Page) => page.getByRole('region', { name: 'New user', exact: true });
const userRow = (page: Page, userName: string) =>
  usersSection(page)
    .locator('tbody tr')
    .filter({ has: page.getByRole('rowheader', { name: userName, exact: true }) });
const summary = (page: Page) => usersSection(page).locator('.admin-summary');

/** Opens the "New user" disclosure (closed when the page loads) and gives its form. */
async function openNewUser(page: Page): Promise<Locator> {
  const disclosure = page.locator('details.admin-new-user');
  if (!(await disclosure.evaluate((el) => (el as HTMLDetailsElement).open))) {
    await disclosure.locator('summary').filter({ hasText: 'New user' }).click();
  }
  await createSection(page).waitFor();
  return createSection(page);
}

/** Opens a row's action menu (closed when the page loads, and after each action) and gives it. */
async function openRowMenu(row: Locator): Promise<Locator> {
  const menu = row.locator('details.row-menu');
  if (!(await menu.evaluate((el) => (el as HTMLDetailsElement).open))) await menu.locator('summary').click();
  await menu.locator('.row-menu-items').waitFor();
  return menu;
}

type NewUser = { userName: string; name: string; lastName: string; role: keyof typeof ROLE_LABELS; email?: string; password?: string };

async function fillNewUser(page: Page, user: NewUser): Promise<void> {
  const form = createSection(page);
  await form.getByLabel('User name').fill(user.userName);
  await form.getByLabel('Email (optional)').fill(user.email ?? '');
  await form.getByLabel('Name', { exact: true }).fill(user.name);
  await form.getByLabel('Last name').fill(user.lastName);
  await form.getByLabel('Role').selectOption(user.role);
  await form.getByLabel('Password (optional)').fill(user.password ?? '');
}

/** Confirms the AlertDialog the last click opened, after reading its title. */
async function confirmDialog(page: Page, title: string, confirm: string, width: number): Promise<void> {
  const dialog = page.getByRole('alertdialog', { name: title });
  await dialog.waitFor();
  await expectOnScreen(dialog, width, `the dialog “${title}”`);
  await dialog.getByRole('button', { name: confirm, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe.each(VIEWPORTS)('the users console at $label, with JavaScript', ({ prefix, viewport }) => {
  const { width } = viewport;
  const created: NewUser[] = (['ADMIN', 'CLI', 'ORG', 'CONS'] as const).map((role) => ({
    userName: `${prefix}.${role.toLowerCase()}`,
    name: 'Lucía',
    lastName: `${prefix === 'lap' ? 'Laptop' : 'Phone'} ${ROLE_LABELS[role]}`,
    role,
    email: `${prefix}.${role.toLowerCase()}@example.com`,
    // One of them gets a password of the admin's choosing; the others a generated one.
    ...(role === 'CONS' ? { password: 'a long enough password' } : {}),
  }));

  test('creates a user of each role, each announced, a generated password shown once', { timeout: scaled(90_000) }, async () => {
    const page = await openConsole(viewport);
    const problems = collectProblems(page);
    await expectOnScreen(usersSection(page).getByRole('heading', { level: 2, name: 'Users' }), width, 'the heading');
    const before = Number(/^(\d+) users\.$/.exec(await summary(page).innerText())?.[1]);
    expect(before).toBeGreaterThan(PAGE_SIZE);
    const form = await openNewUser(page);
    for (const user of created) {
      await fillNewUser(page, user);
      const submit = form.getByRole('button', { name: 'Create user' });
      await expectOnScreen(submit, width, 'Create user');
      await submit.click();
      const done = form.getByRole('status').filter({ hasText: `User ${user.userName} created with the role ${ROLE_LABELS[user.role]}.` });
      await done.waitFor();
      await expectOnScreen(done, width, `the notice about ${user.userName}`);
      const secret = done.locator('code.admin-secret');
      if (user.password) {
        expect(await secret.count()).toBe(0);
      } else {
        expect(await secret.innerText()).toMatch(/^\S{20}$/);
        await expectOnScreen(secret, width, 'the generated password');
        await done.getByRole('button', { name: `Hide password of ${user.userName}` }).click();
        await done.waitFor({ state: 'detached' });
      }
      // The form is empty again, ready for the next one.
      expect(await form.getByLabel('User name').inputValue()).toBe('');
    }
    await expect.poll(() => summary(page).innerText()).toBe(`${before + created.length} users.`);
    await expectNoSidewaysScroll(page);
    expect(problems).toEqual([]);
  });

  test('finds a user with the search, changes its role, disables and enables it', { timeout: scaled(90_000) }, async () => {
    const page = await openConsole(viewport);
    const problems = collectProblems(page);
    const user = created.find((u) => u.role === 'CLI')!;
    const search = usersSection(page).getByRole('search');
    await search.getByRole('searchbox', { name: 'Search users' }).fill(user.userName);
    await search.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => summary(page).innerText()).toBe(`1 user matches “${user.userName}”.`);
    const rows = usersSection(page).locator('tbody tr');
    expect(await rows.count()).toBe(1);
    const row = userRow(page, user.userName);
    // Every control of the row is on screen (a card of its own at 390 px), its menu open.
    await openRowMenu(row);
    for (const control of await row.locator('summary, button, select').all()) {
      await expectOnScreen(control, width, `${(await control.textContent())?.trim()} of the row`);
    }
    expect(await row.innerText()).toContain(`Lucía ${user.lastName}`);
    expect(await row.innerText()).toContain(user.email!);

    // The role: picked in the row's menu, confirmed in a dialog that says from what to what.
    await openRowMenu(row);
    await row.getByRole('combobox', { name: `New role for ${user.userName}` }).selectOption('ORG');
    await row.getByRole('button', { name: `Change the role of ${user.userName}` }).click();
    const roleDialog = page.getByRole('alertdialog', { name: `Change the role of ${user.userName}?` });
    await roleDialog.waitFor();
    expect(await roleDialog.innerText()).toContain(`Lucía ${user.lastName} (${user.userName}) will go from Client to Organisation`);
    await confirmDialog(page, `Change the role of ${user.userName}?`, 'Change role', width);
    const roleDone = usersSection(page)
      .getByRole('status')
      .filter({ hasText: `${user.userName} now has the role Organisation.` });
    await roleDone.waitFor();
    await expectOnScreen(roleDone, width, 'the role notice');
    await expect.poll(() => row.locator('td[data-label="Role"]').innerText()).toBe('Organisation');

    // Disabled, then enabled again: the badge says which.
    const status = row.locator('td[data-label="Status"] .badge');
    expect(await status.innerText()).toBe('Active');
    await openRowMenu(row);
    await row.getByRole('button', { name: `Disable ${user.userName}` }).click();
    await confirmDialog(page, `Disable ${user.userName}?`, 'Disable', width);
    await usersSection(page)
      .getByRole('status')
      .filter({ hasText: `${user.userName} has been disabled.` })
      .waitFor();
    await expect.poll(() => status.innerText()).toBe('Disabled');
    await expectOnScreen(status, width, 'the Disabled badge');
    await openRowMenu(row);
    await row.getByRole('button', { name: `Enable ${user.userName}` }).click();
    await confirmDialog(page, `Enable ${user.userName}?`, 'Enable', width);
    await usersSection(page)
      .getByRole('status')
      .filter({ hasText: `${user.userName} has been enabled.` })
      .waitFor();
    await expect.poll(() => status.innerText()).toBe('Active');

    // The search went through the API: the page itself was never reloaded.
    expect(new URL(page.url()).pathname).toBe('/en/admin/users');
    await expectNoSidewaysScroll(page);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/users-row-${viewport.width}.png` });
    await page.screenshot({ path: `${SHOTS}/users-${viewport.width}.png`, fullPage: true });
    expect(problems).toEqual([]);
  });

  test('pages through a list longer than one page', { timeout: scaled(60_000) }, async () => {
    const page = await openConsole(viewport);
    const problems = collectProblems(page);
    const total = Number(/^(\d+) users\.$/.exec(await summary(page).innerText())?.[1]);
    const pages = Math.ceil(total / PAGE_SIZE);
    expect(pages).toBe(2);
    const pager = usersSection(page).getByRole('navigation', { name: 'Pages of users' });
    await expectOnScreen(pager, width, 'the pager');
    // An enabled step is a link to the page's URL for that page (with JavaScript the list is
    // fetched instead); a step that leads nowhere is a disabled button.
    const previous = pager.getByRole('link', { name: 'Previous page' });
    const next = pager.getByRole('link', { name: 'Next page' });
    const noPrevious = pager.getByRole('button', { name: 'Previous page' });
    const noNext = pager.getByRole('button', { name: 'Next page' });
    const rows = usersSection(page).locator('tbody tr');
    expect(await pager.innerText()).toContain('Page 1 of 2');
    expect(await rows.count()).toBe(PAGE_SIZE);
    // The first page offers no previous page.
    expect(await previous.count()).toBe(0);
    expect(await noPrevious.isDisabled()).toBe(true);
    expect(await next.getAttribute('href')).toBe('?page=2');
    const firstOnPage1 = await rows.first().locator('th').innerText();

    await next.click();
    await expect.poll(() => pager.innerText()).toContain('Page 2 of 2');
    await expect.poll(() => rows.count()).toBe(total - PAGE_SIZE);
    // The last page offers no next page.
    expect(await next.count()).toBe(0);
    expect(await noNext.isDisabled()).toBe(true);
    expect(await previous.getAttribute('href')).toBe('?page=1');
    expect(await rows.first().locator('th').innerText()).not.toBe(firstOnPage1);
    // The caption tells screen readers the page too.
    expect(await usersSection(page).locator('caption').textContent()).toBe('Users of the private area, page 2 of 2');
    await expectOnScreen(pager, width, 'the pager on page 2');

    await previous.click();
    await expect.poll(() => pager.innerText()).toContain('Page 1 of 2');
    await expect.poll(() => rows.first().locator('th').innerText()).toBe(firstOnPage1);
    // The pages came through the API: the page itself was never reloaded.
    expect(new URL(page.url()).search).toBe('');
    expect(problems).toEqual([]);
  });

  test('shows field errors for a user name in use, a bad e-mail and a short user name', { timeout: scaled(60_000) }, async () => {
    const page = await openConsole(viewport);
    const form = await openNewUser(page);
    const submit = form.getByRole('button', { name: 'Create user' });
    const alert = form.getByRole('alert');

    /** The field's error: visible under its input, tied to it by aria-describedby. */
    async function expectFieldError(label: string, text: string): Promise<void> {
      const input = form.getByLabel(label, { exact: true });
      const field = form.locator('.field', { has: page.getByLabel(label, { exact: true }) });
      const error = field.locator('.field-error');
      await expect.poll(() => error.textContent()).toBe(text);
      await expectOnScreen(error, width, `the error of ${label}`);
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      expect((await input.getAttribute('aria-describedby'))?.split(' ')).toContain(await error.getAttribute('id'));
      expect((await box(error)).top).toBeGreaterThanOrEqual((await box(input)).bottom);
    }

    // A user name already in use (the server's answer, under the field).
    await fillNewUser(page, { userName: 'carla', name: 'Otra', lastName: 'Carla', role: 'CLI' });
    await submit.click();
    await expectFieldError('User name', 'This user name is already in use.');
    // Said once: by the field; the alert only counts the fields to correct.
    expect(await alert.innerText()).toBe('Please correct the marked field.');
    await expectOnScreen(alert, width, 'the form’s alert');

    // From here on the form's own checks stop each attempt (no browser bubble: it is novalidate): nothing is sent.
    let sent = false;
    page.on('request', (request) => {
      if (request.url().includes('/api/admin/users') && request.method() === 'POST') sent = true;
    });
    // An e-mail address the browser lets through (no dot in the domain) but the rule does not.
    await fillNewUser(page, { userName: `${prefix}.mail`, name: 'Mal', lastName: 'Correo', role: 'CLI', email: 'ana@example' });
    await submit.click();
    await expectFieldError('Email (optional)', 'Enter a valid email address.');
    expect(sent).toBe(false);
    await createSection(page).screenshot({ path: `${SHOTS}/users-email-error-${viewport.width}.png` });
    // Not one address at all: the same message by the field, before anything is sent.
    await form.getByLabel('Email (optional)').fill('not an address');
    await submit.click();
    await expectFieldError('Email (optional)', 'Enter a valid email address.');
    expect(sent).toBe(false);

    // A user name too short: the form's quick check, the same rule as the server's.
    await fillNewUser(page, { userName: 'x', name: 'Equis', lastName: 'Corta', role: 'CLI' });
    await submit.click();
    await expectFieldError('User name', 'Use 2 to 40 letters, digits, dots, hyphens or underscores, starting with a letter or digit.');
    expect(sent).toBe(false);
    await expectNoSidewaysScroll(page);
    await createSection(page).screenshot({ path: `${SHOTS}/users-errors-${viewport.width}.png` });
    // Nobody was created by all this.
    const search = usersSection(page).getByRole('search');
    await search.getByRole('searchbox', { name: 'Search users' }).fill(`${prefix}.mail`);
    await search.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => summary(page).innerText()).toBe(`No users match “${prefix}.mail”.`);
  });
});

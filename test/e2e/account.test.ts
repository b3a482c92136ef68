// The profile's account sections and the admin's deletion requests, in a real Chromium at 1366
// and 390 px: a user signed in on two browsers sees both with their device and ends the other
// one, asks for their account to be deleted and withdraws it; an admin sees the pending requests
// and confirms one, after which the user cannot sign in and their message shows as "Deleted
// user". What is checked is what is visible; screenshots go to /tmp/shots-gdpr. Ending sessions
// without JavaScript and "Download my data" are checked in process: test/ui/account.test.ts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { runAxe, setupSite, waitForHydration } from './fixture.ts';
import { collectProblems, ROLE_PASSWORD, ROLE_USERS } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

const SHOTS = '/tmp/shots-gdpr';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0';
const VIEWPORTS = [
  { label: '1366', viewport: { width: 1366, height: 900 } },
  { label: '390', viewport: { width: 390, height: 844 } },
] as const;
const user = (role: string) => ROLE_USERS.find((u) => u.role === role)!;

const site = setupSite({ users: ROLE_USERS });
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

/** A browser of its own (its User-Agent, its cookies) signed in as `userName` through the login form. */
async function signedIn(
  userName: string,
  options: { userAgent?: string; viewport?: { width: number; height: number }; javaScript?: boolean; axe?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const page = await site.signIn(userName, {
    // axe-core is injected as a script of the test's own: the site's policy would refuse it.
    axe: options.axe ?? false,
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
    viewport: options.viewport ?? { width: 1366, height: 900 },
    javaScriptEnabled: options.javaScript ?? true,
    acceptDownloads: true,
  });
  return { context: page.context(), page };
}

async function noOverflow(page: Page, width: number) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `no horizontal overflow at ${width} px`).toBeLessThanOrEqual(width);
}

const sessionsSection = (page: Page) => page.locator('section[aria-labelledby="sessions-title"]');
const deletionSection = (page: Page) => page.locator('section[aria-labelledby="deletion-title"]');

for (const { label, viewport } of VIEWPORTS) {
  test(`at ${label} px: both sessions listed with their device, the other one ended with JavaScript, and its browser signed out`, async () => {
    const name = label === '1366' ? user('CLI').userName : user('ORG').userName;
    const laptop = await signedIn(name, { userAgent: FIREFOX_WINDOWS });
    const phone = await signedIn(name, { userAgent: CHROME_ANDROID, viewport });
    const problems = collectProblems(phone.page);
    const { page } = phone;
    await page.goto('/en/profile');
    await waitForHydration(page);
    const items = sessionsSection(page).locator('li.session-item');
    await expect.poll(() => items.count()).toBe(2);
    const current = sessionsSection(page).locator('li.session-current');
    await expect.poll(() => current.textContent()).toContain('Chrome on Android');
    expect(await current.textContent()).toContain('This device');
    const other = items.filter({ hasText: 'Firefox on Windows' });
    expect(await other.isVisible()).toBe(true);
    expect(await other.getByRole('button', { name: /End session/ }).isVisible()).toBe(true);
    await noOverflow(page, viewport.width);
    await sessionsSection(page).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `profile-${label}.png`), fullPage: true });
    await sessionsSection(page).screenshot({ path: join(SHOTS, `profile-sessions-${label}.png`) });
    await page.locator('section[aria-labelledby="data-title"]').screenshot({ path: join(SHOTS, `profile-data-${label}.png`) });

    await other.getByRole('button', { name: /End session/ }).click();
    await expect.poll(() => sessionsSection(page).getByRole('status').textContent()).toBe('The session has been ended.');
    await expect.poll(() => items.count()).toBe(1);
    expect(await sessionsSection(page).textContent()).toContain('You have no other session open.');
    await sessionsSection(page).screenshot({ path: join(SHOTS, `profile-session-ended-${label}.png`) });

    // The laptop's cookie no longer opens the private area.
    await laptop.page.goto('/en/profile');
    expect(new URL(laptop.page.url()).pathname).toBe('/en/login');
    expect(problems).toEqual([]);
  });
}

for (const { label, viewport } of VIEWPORTS) {
  test(`at ${label} px: asking for deletion with the password shows the request pending; it can be withdrawn`, async () => {
    const { page } = await signedIn(user('CONS').userName, { viewport });
    const problems = collectProblems(page);
    await page.goto('/en/profile');
    await waitForHydration(page);
    const section = deletionSection(page);
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: join(SHOTS, `profile-deletion-form-${label}.png`) });
    // A wrong password first: the field says so.
    await section.getByLabel('Your password').fill('not the password');
    await section.getByRole('button', { name: 'Ask to delete my account' }).click();
    await expect.poll(() => section.locator('.field-error').textContent()).toBe('The current password is not correct.');
    await section.screenshot({ path: join(SHOTS, `profile-deletion-wrong-password-${label}.png`) });
    await section.getByLabel('Your password').fill(ROLE_PASSWORD);
    await section.getByRole('button', { name: 'Ask to delete my account' }).click();
    await expect.poll(() => section.getByRole('status').textContent()).toBe('We have your request. An administrator will confirm it.');
    expect(await section.getByRole('note').textContent()).toContain('You asked for your account to be deleted on');
    await noOverflow(page, viewport.width);
    await section.screenshot({ path: join(SHOTS, `profile-deletion-pending-${label}.png`) });
    await section.getByRole('button', { name: 'Withdraw the request' }).click();
    await expect.poll(() => section.getByRole('status').textContent()).toBe('You withdrew the request: your account stays.');
    await expect.poll(() => section.getByRole('button', { name: 'Ask to delete my account' }).isVisible()).toBe(true);
    // The wrong password's answer (422) is the only thing the browser reports.
    expect(problems.filter((p) => !p.includes('status of 422'))).toEqual([]);
  });
}

async function noAxeViolation(page: Page) {
  const results = await runAxe(page);
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`).join('\n');
  expect(results.violations, summary).toEqual([]);
}

test("axe-core finds no violation on the profile with two sessions and a pending request, nor on the console's home and its deletion requests, in both locales", async () => {
  const name = user('ORG').userName;
  // A second session of the user's, on another device.
  await signedIn(name, { userAgent: FIREFOX_WINDOWS });
  const { page } = await signedIn(name, { axe: true });
  const admin = await signedIn(user('ADMIN').userName, { axe: true });
  await page.goto('/en/profile');
  await waitForHydration(page);
  await deletionSection(page).getByLabel('Your password').fill(ROLE_PASSWORD);
  await deletionSection(page).getByRole('button', { name: 'Ask to delete my account' }).click();
  await expect.poll(() => deletionSection(page).getByRole('note').isVisible()).toBe(true);
  for (const path of ['/en/profile', '/profile']) {
    await page.goto(path);
    await waitForHydration(page);
    await noAxeViolation(page);
  }
  for (const home of ['/en/admin', '/admin']) {
    // The console's home counts the request, a link to the deletions page.
    await admin.page.goto(home);
    await waitForHydration(admin.page);
    const count = admin.page.locator(`.admin-home-counts a[href="${home}/deletions"]`);
    expect(await count.textContent()).toMatch(/^1 /);
    await noAxeViolation(admin.page);
    await admin.page.goto(`${home}/deletions`);
    await waitForHydration(admin.page);
    await expect.poll(() => admin.page.locator('.admin-deletions tbody tr').count()).toBe(1);
    await noAxeViolation(admin.page);
  }
  await page.goto('/en/profile');
  await waitForHydration(page);
  await deletionSection(page).getByRole('button', { name: 'Withdraw the request' }).click();
  await expect.poll(() => deletionSection(page).getByRole('button', { name: 'Ask to delete my account' }).isVisible()).toBe(true);
});

test(
  'an admin sees the pending requests and confirms one: the user cannot sign in, and their message shows "Deleted user"',
  { timeout: scaled(90_000) },
  async () => {
    const client = await signedIn(user('CLI').userName);
    const admin = await signedIn(user('ADMIN').userName);
    // The client's brief and a message in it, then the request (without JavaScript: a plain form post).
    const origin = { Origin: site.baseURL };
    const brief = await client.context.request.post('/api/projects', {
      headers: origin,
      data: { title: 'Shop dashboards', description: 'One place for the figures of our shops.', practice: 'data' },
    });
    expect(brief.status(), await brief.text()).toBe(201);
    const id = ((await brief.json()) as { id: number }).id;
    const message = await client.context.request.post(`/api/projects/${id}/messages`, {
      headers: origin,
      data: { body: 'Carla here: the figures of shop 7 are late.' },
    });
    expect(message.status(), await message.text()).toBe(201);
    await client.page.goto('/en/profile');
    await waitForHydration(client.page);
    await deletionSection(client.page).getByLabel('Your password').fill(ROLE_PASSWORD);
    await deletionSection(client.page).getByRole('button', { name: 'Ask to delete my account' }).click();
    await expect.poll(() => deletionSection(client.page).getByRole('note').textContent()).toContain('An administrator will confirm it');

    for (const { label, viewport } of [...VIEWPORTS].reverse()) {
      await admin.page.setViewportSize(viewport);
      await admin.page.goto('/en/admin/deletions');
      await waitForHydration(admin.page);
      const section = admin.page.locator('section[aria-labelledby="admin-deletions-title"]');
      await expect.poll(() => section.getByRole('status').first().textContent()).toBe('1 pending request.');
      const row = section.locator('tbody tr').filter({ hasText: 'carla' });
      expect(await row.isVisible()).toBe(true);
      expect(await row.getByRole('button', { name: /Delete the account/ }).isVisible()).toBe(true);
      await section.scrollIntoViewIfNeeded();
      await noOverflow(admin.page, viewport.width);
      await section.screenshot({ path: join(SHOTS, `admin-deletions-${label}.png`) });
    }

    const section = admin.page.locator('section[aria-labelledby="admin-deletions-title"]');
    await section
      .locator('tbody tr')
      .filter({ hasText: 'carla' })
      .getByRole('button', { name: /Delete the account/ })
      .click();
    const dialog = admin.page.getByRole('alertdialog', { name: 'Delete the account of carla?' });
    await dialog.waitFor();
    await admin.page.screenshot({ path: join(SHOTS, 'admin-deletion-dialog-1366.png') });
    await dialog.getByRole('button', { name: 'Delete the account', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => section.locator('.admin-notice').textContent()).toBe('The account of carla has been deleted.');
    await expect.poll(() => section.locator('.admin-summary').textContent()).toBe('There are no pending requests.');

    // The client's browser is signed out, and signing in again fails.
    await client.page.goto('/en/profile');
    expect(new URL(client.page.url()).pathname).toBe('/en/login');
    await client.page.locator('#login-identifier').fill('carla');
    await client.page.locator('#login-password').fill(ROLE_PASSWORD);
    await client.page.locator('main form').getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => client.page.getByRole('alert').first().textContent()).toBe('Incorrect user name or password.');

    // The project stays for the admin; its owner and the message's author are a deleted user.
    await admin.page.goto(`/en/admin/projects/${id}`);
    await waitForHydration(admin.page);
    const thread = admin.page.locator('.thread-message').filter({ hasText: 'the figures of shop 7 are late' });
    expect(await thread.locator('strong').textContent()).toBe('Deleted user');
    expect(await admin.page.locator('.project-header').textContent()).toContain('Deleted user');
    await thread.scrollIntoViewIfNeeded();
    await admin.page.screenshot({ path: join(SHOTS, 'project-deleted-user-1366.png'), fullPage: false });
    await admin.page.goto(`/admin/projects/${id}`);
    expect(await admin.page.locator('.thread-message strong').first().textContent()).toBe('Usuario eliminado');
  },
);

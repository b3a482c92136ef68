// The contact flow end to end: two messages sent from /en/Contact (one with JavaScript, one
// without), then read, marked unread, filtered and deleted in the admin console's inbox.
// This file starts its own production server on a throw-away DATA_DIR with an admin user, so
// that the inbox starts empty and the counts are exact.
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runAxe, setupSite, waitForHydration } from './fixture.ts';
import { collectProblems } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

const ADMIN = { userName: 'root', password: 'correct horse 1' };
/** The contact form refuses answers sent less than 3 s after the page was served. */
const FILL_WAIT_MS = 3_200;

const WITH_JS = {
  name: 'Jana Browser',
  email: 'jana@example.com',
  subject: 'Question from the browser',
  message: 'Hello,\nthis message was sent with JavaScript.\n\nRegards, Jana',
};
const WITHOUT_JS = {
  name: 'Nico Plain',
  email: 'nico@example.com',
  subject: 'Sent without JavaScript',
  message: 'Hi there,\nno scripts were harmed in sending this message.',
};

const site = setupSite({ users: [{ userName: ADMIN.userName, role: 'ADMIN', name: 'Rosa', lastName: 'Admin' }], password: ADMIN.password });

/** A context on this file's server, as a visitor who already answered the cookie banner. */
function newContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return site.newContext({ ...options, consent: true });
}

async function fillContactForm(page: Page, values: typeof WITH_JS): Promise<void> {
  await page.locator('#contact-name').fill(values.name);
  await page.locator('#contact-email').fill(values.email);
  await page.locator('#contact-subject').fill(values.subject);
  await page.locator('#contact-message').fill(values.message);
  await page.locator('#contact-consent').check();
}

const THANKS = 'Thank you: your message has been sent.';

async function signIn(page: Page): Promise<void> {
  await page.goto('/en/login');
  await waitForHydration(page);
  await page.locator('#login-identifier').fill(ADMIN.userName);
  await page.locator('#login-password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
}

describe('the contact inbox', () => {
  it(
    'receives messages sent with and without JavaScript and lets the admin read, mark and delete them',
    { timeout: scaled(90_000) },
    async () => {
      // Both forms are opened first, so that the 3 s the form asks for are waited once, not twice.
      const jsPage = await (await newContext()).newPage();
      const jsProblems = collectProblems(jsPage);
      await jsPage.goto('/en/Contact');
      const plainPage = await (await newContext({ javaScriptEnabled: false })).newPage();
      const plainProblems = collectProblems(plainPage);
      await plainPage.goto('/en/Contact');
      const loadedAt = Date.now();

      // 1. With JavaScript: the form is sent in the background, the page shows the thank-you.
      await waitForHydration(jsPage);
      await fillContactForm(jsPage, WITH_JS);
      await jsPage.waitForTimeout(Math.max(0, FILL_WAIT_MS - (Date.now() - loadedAt)));
      const documentRequests: string[] = [];
      jsPage.on('request', (request) => {
        if (request.resourceType() === 'document') documentRequests.push(request.url());
      });
      await jsPage.getByRole('button', { name: 'Send message' }).click();
      await jsPage.getByRole('status').filter({ hasText: THANKS }).waitFor();
      expect(new URL(jsPage.url()).search).toBe('?sent=1');
      // No full page load: the client sent it with fetch and navigated in place.
      expect(documentRequests).toEqual([]);
      expect(jsProblems).toEqual([]);

      // 2. Without JavaScript: a real POST, answered 303 to ?sent=1 with the thank-you.
      expect(await plainPage.locator('html').getAttribute('class')).toBeNull();
      await fillContactForm(plainPage, WITHOUT_JS);
      const posted = plainPage.waitForResponse((response) => response.request().method() === 'POST');
      await plainPage.getByRole('button', { name: 'Send message' }).click();
      const response = await posted;
      expect(response.status()).toBe(303);
      expect(response.headers().location).toMatch(/\/en\/Contact\?sent=1$/);
      await plainPage.waitForURL('**/en/Contact?sent=1');
      expect(await plainPage.getByRole('status').filter({ hasText: THANKS }).count()).toBe(1);
      expect(plainProblems).toEqual([]);

      // 3. The admin signs in and opens the console.
      const context = await newContext();
      const page = await context.newPage();
      const problems = collectProblems(page);
      await signIn(page);

      // The inbox is server-rendered without messages: they load once the section is shown.
      const served = await page.request.get('/en/admin/inbox');
      expect(served.status()).toBe(200);
      expect(await served.text()).not.toContain('admin-inbox-count');
      // The console's home counts the unread messages, a link to the inbox's page.
      await page.goto('/en/admin');
      await waitForHydration(page);
      await page.getByRole('link', { name: '2 unread contact messages' }).click();
      await page.waitForURL('**/en/admin/inbox');
      const inbox = page.locator('section.admin-inbox');
      const heading = inbox.getByRole('heading', { level: 2 });
      await expect.poll(() => heading.innerText()).toBe('Contact inbox 2 unread');
      // The sub-navigation marks the inbox as the current page.
      const current = page.getByRole('navigation', { name: 'Sections of the administration' }).locator('[aria-current="page"]');
      expect(await current.allInnerTexts()).toEqual(['Contact inbox']);

      // Newest first; both unread (bold, with the New badge).
      const rows = inbox.locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await rows.nth(0).locator('th').innerText()).toContain(WITHOUT_JS.name);
      expect(await rows.nth(1).locator('th').innerText()).toContain(WITH_JS.name);
      expect(await inbox.locator('tbody tr.admin-inbox-unread').count()).toBe(2);
      expect(await inbox.locator('tbody .badge-new').allInnerTexts()).toEqual(['New', 'New']);
      expect(await inbox.getByRole('status').first().innerText()).toBe('2 messages.');

      // 4. Opening a message shows it, moves the focus to it and marks it read.
      const openJs = inbox.getByRole('button', { name: new RegExp(`^${WITH_JS.subject} \\(message from ${WITH_JS.name}, received `) });
      await openJs.click();
      const detail = inbox.locator('.admin-inbox-detail');
      const detailHeading = detail.getByRole('heading', { level: 3, name: WITH_JS.subject });
      await detailHeading.waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(WITH_JS.subject);
      await expect.poll(() => heading.innerText()).toBe('Contact inbox 1 unread');
      await expect.poll(() => inbox.locator('tbody tr.admin-inbox-unread').count()).toBe(1);
      const mail = detail.getByRole('link', { name: WITH_JS.email });
      expect(await mail.getAttribute('href')).toBe(`mailto:${WITH_JS.email}?subject=${encodeURIComponent(`Re: ${WITH_JS.subject}`)}`);
      const meta = await detail.locator('dl').innerText();
      expect(meta).toContain(WITH_JS.name);
      expect(meta).toMatch(/Language\s+English/);
      // en-US: "November 23, 2026 at 1:01 AM" (the hour has one or two digits).
      expect(meta).toMatch(/Received\s+\w+ \d{1,2}, \d{4} at \d{1,2}:\d{2}\s?[AP]M/);
      const text = detail.locator('.admin-inbox-text');
      expect(await text.innerText()).toBe(WITH_JS.message);
      expect(await text.evaluate((element) => getComputedStyle(element).whiteSpace)).toBe('pre-wrap');
      // No SMTP here: notifyStatus is "none", so there is no notification warning.
      expect(await detail.locator('.admin-inbox-notify').count()).toBe(0);

      // Back to the list: the focus returns to the message's button.
      await detail.getByRole('button', { name: /^Back to the list/ }).click();
      expect(await detail.count()).toBe(0);
      await expect.poll(() => openJs.evaluate((element) => element === document.activeElement)).toBe(true);

      // 5. Mark as unread (from the reopened, already read message).
      await openJs.click();
      await detailHeading.waitFor();
      await detail.getByRole('button', { name: `Mark as unread the message “${WITH_JS.subject}” from ${WITH_JS.name}` }).click();
      await inbox
        .getByRole('status')
        .filter({ hasText: `The message “${WITH_JS.subject}” from ${WITH_JS.name} is marked as unread.` })
        .waitFor();
      await expect.poll(() => heading.innerText()).toBe('Contact inbox 2 unread');
      expect(await detail.count()).toBe(0);
      await expect.poll(() => openJs.evaluate((element) => element === document.activeElement)).toBe(true);

      // 6. Only unread: reading the other message takes it out of the filtered list.
      const openPlain = inbox.getByRole('button', { name: new RegExp(`^${WITHOUT_JS.subject} \\(message from `) });
      await openPlain.click();
      await expect.poll(() => heading.innerText()).toBe('Contact inbox 1 unread');
      await detail.getByRole('button', { name: /^Back to the list/ }).click();
      await inbox.getByRole('checkbox', { name: 'Show only unread messages' }).check();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.nth(0).locator('th').innerText()).toContain(WITH_JS.name);
      await expect.poll(() => inbox.getByRole('status').first().innerText()).toBe('1 unread message.');
      await inbox.getByRole('checkbox', { name: 'Show only unread messages' }).uncheck();
      await expect.poll(() => rows.count()).toBe(2);

      // 7. Delete, after the confirmation: cancel first, then confirm.
      await openPlain.click();
      await detail.getByRole('heading', { level: 3, name: WITHOUT_JS.subject }).waitFor();
      const deleteButton = detail.getByRole('button', { name: `Delete the message “${WITHOUT_JS.subject}” from ${WITHOUT_JS.name}` });
      await deleteButton.click();
      const dialog = page.getByRole('alertdialog', { name: `Delete the message “${WITHOUT_JS.subject}”?` });
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain(`The message from ${WITHOUT_JS.name} (${WITHOUT_JS.email}) will be deleted permanently.`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await rows.count()).toBe(2);
      await deleteButton.click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await inbox
        .getByRole('status')
        .filter({ hasText: `The message “${WITHOUT_JS.subject}” from ${WITHOUT_JS.name} has been deleted.` })
        .waitFor();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.nth(0).locator('th').innerText()).toContain(WITH_JS.name);
      await expect.poll(() => heading.innerText()).toBe('Contact inbox 1 unread');
      expect(await detail.count()).toBe(0);
      await expect.poll(() => heading.evaluate((element) => element === document.activeElement)).toBe(true);

      // 8. The same inbox in Spanish, from the console's home.
      await page.goto('/admin');
      await waitForHydration(page);
      await page
        .getByRole('navigation', { name: 'Secciones de la administración' })
        .getByRole('link', { name: 'Buzón de contacto' })
        .click();
      await expect.poll(() => heading.innerText()).toBe('Buzón de contacto 1 sin leer');
      await expect.poll(() => rows.count()).toBe(1);
      expect(await inbox.locator('tbody .badge-new').allInnerTexts()).toEqual(['Nuevo']);
      expect(await inbox.getByRole('status').first().innerText()).toBe('1 mensaje.');

      expect(problems).toEqual([]);
    },
  );

  it('has no axe-core violations in the inbox, with a message open', async () => {
    // Reduced motion so that no element is measured halfway through a fade (its contrast would be off).
    const context = await newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    await signIn(page);
    await page.goto('/en/admin/inbox');
    await waitForHydration(page);
    const inbox = page.locator('section.admin-inbox');
    await inbox.scrollIntoViewIfNeeded();
    // The first test left one message behind.
    const open = inbox.locator('tbody .admin-inbox-open').first();
    await open.click();
    await inbox.locator('.admin-inbox-detail h3').waitFor();
    // Opening marks the message read (a request in flight): the full-screen spinner's veil
    // would dim everything axe measures. Measure once nothing is in flight.
    await page.waitForLoadState('networkidle');
    await page.getByTestId('loading-overlay').waitFor({ state: 'detached' });
    const results = await runAxe(page, 'section.admin-inbox');
    const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    expect(summary).toEqual([]);
  });
});

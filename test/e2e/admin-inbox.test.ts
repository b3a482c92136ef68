// The contact inbox end to end, in Chromium, against this file's own production server (a
// throw-away DATA_DIR, an admin, a real SMTP server, and 21 archived messages from before): two
// messages sent from /en/Contact (one with JavaScript, one without) wait as new leads in the
// navbar's badge; with JavaScript the admin opens one, answers it (the e-mail reaches the SMTP
// server, the reply stays with the message), moves between the views, archives, deletes after
// the dialog and invites a sender as client — without a page load, in a browser whose time zone
// is not Madrid's, and nothing the server rendered differs from what hydrated. Without
// JavaScript the views, the pager, a message and a reply work as links and forms.
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../../server/db/index.ts';
import { runAxe, setupSite, waitForHydration } from './fixture.ts';
import { collectProblems } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

const ADMIN = { userName: 'root', password: 'correct horse 1' };
/** The contact form refuses answers sent less than 3 s after the page was served (server/contact/form-token.ts). */
const FILL_WAIT_MS = 3_200;
/** Archived messages the inbox had before: more than one page (20) of the archive. */
const ARCHIVED = 21;
/** The newest archived message arrived at 21:43 UTC on 15 January 2026: 22:43 in Madrid. */
const ARCHIVED_AT = Date.parse('2026-01-15T21:43:00.000Z');

const WITH_JS = {
  name: 'Jana Browser',
  email: 'jana@example.com',
  company: 'Browser Data SL',
  subject: 'Question from the browser',
  message: 'Hello,\nthis message was sent with JavaScript.\n\nRegards, Jana',
};
const WITHOUT_JS = {
  name: 'Nico Plain',
  email: 'nico@example.com',
  company: '',
  subject: 'Sent without JavaScript',
  message: 'Hi there,\nno scripts were harmed in sending this message.',
};

const site = setupSite({
  users: [{ userName: ADMIN.userName, role: 'ADMIN', name: 'Rosa', lastName: 'Admin' }],
  password: ADMIN.password,
  smtp: true,
  seed: async (dataDir) => {
    const db = await openDatabase({ file: databaseFile(dataDir), poolMax: 1 });
    try {
      await db.k
        .insertInto('contact_messages')
        .values(
          Array.from({ length: ARCHIVED }, (_, i) => {
            const at = new Date(ARCHIVED_AT - i * 3_600_000).toISOString();
            return {
              name: `Old Sender ${i + 1}`,
              email: `old${i + 1}@example.com`,
              subject: `Old question ${i + 1}`,
              message: 'A message from before the inbox had statuses.',
              locale: 'en',
              consent_at: at,
              read: 1,
              status: 'archived',
              notify_status: 'none',
              notify_attempts: 0,
              created_at: at,
            };
          }),
        )
        .execute();
    } finally {
      await db.close();
    }
  },
});

/** A context on this file's server, as a visitor who already answered the cookie banner. */
function newContext(options: BrowserContextOptions & { as?: string } = {}): Promise<BrowserContext> {
  return site.newContext({ ...options, consent: true });
}

async function fillContactForm(page: Page, values: typeof WITH_JS): Promise<void> {
  await page.locator('#contact-name').fill(values.name);
  await page.locator('#contact-email').fill(values.email);
  await page.locator('#contact-company').fill(values.company);
  await page.locator('#contact-subject').fill(values.subject);
  await page.locator('#contact-message').fill(values.message);
  await page.locator('#contact-consent').check();
}

const THANKS = 'Thank you: your message has been sent.';
/** The Madrid time of the newest archived message, as the English console writes it. */
const ARCHIVED_TIME = 'January 15, 2026 at 10:43 PM';

/** The URLs of the documents `page` loads from now on: a navigation in place loads none. */
function documentLoads(page: Page): string[] {
  const loads: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') loads.push(request.url());
  });
  return loads;
}

describe('the contact inbox', () => {
  it(
    'with JavaScript: sent messages wait as new leads, a reply goes by e-mail and stays with the message, and the views, archive, delete and invitation work in place',
    { timeout: scaled(120_000) },
    async () => {
      // Both forms are opened first, so that the 3 s the form asks for are waited once, not twice.
      const jsPage = await (await newContext()).newPage();
      const jsProblems = collectProblems(jsPage);
      await jsPage.goto('/en/Contact');
      const plainPage = await (await newContext({ javaScriptEnabled: false })).newPage();
      await plainPage.goto('/en/Contact');
      const loadedAt = Date.now();

      // 1. With JavaScript the form is sent in the background; without it, a real POST and a 303.
      await waitForHydration(jsPage);
      await fillContactForm(jsPage, WITH_JS);
      await jsPage.waitForTimeout(Math.max(0, FILL_WAIT_MS - (Date.now() - loadedAt)));
      const contactLoads = documentLoads(jsPage);
      await jsPage.getByRole('button', { name: 'Send message' }).click();
      await jsPage.getByRole('status').filter({ hasText: THANKS }).waitFor();
      expect(contactLoads).toEqual([]);
      expect(jsProblems).toEqual([]);
      await fillContactForm(plainPage, WITHOUT_JS);
      const posted = plainPage.waitForResponse((response) => response.request().method() === 'POST');
      await plainPage.getByRole('button', { name: 'Send message' }).click();
      expect((await posted).status()).toBe(303);
      await plainPage.waitForURL('**/en/Contact?sent=1');

      // 2. The admin, in a browser on Los Angeles time: the navbar's badge counts the two new leads.
      const context = await newContext({ as: ADMIN.userName, timezoneId: 'America/Los_Angeles' });
      const page = await context.newPage();
      const problems = collectProblems(page);
      await page.goto('/en/admin/inbox');
      await waitForHydration(page);
      expect(await page.evaluate(() => new Date('2026-01-15T21:43:00.000Z').getHours())).toBe(13);
      const badge = page.locator('.navbar-cta .navbar-unread');
      expect(await badge.locator('[aria-hidden="true"]').innerText()).toBe('2');
      expect(await badge.locator('.visually-hidden').textContent()).toBe('2 new contact messages');
      const inbox = page.locator('section.admin-inbox');
      expect(await inbox.getByRole('heading', { level: 2 }).innerText()).toBe('Contact inbox 2 new');
      const rows = inbox.locator('tbody tr');
      expect(await rows.count()).toBe(2);
      expect(await rows.nth(0).locator('th').innerText()).toContain(WITHOUT_JS.name);
      expect(await rows.nth(1).locator('th').innerText()).toContain(WITH_JS.name);
      expect(await inbox.locator('tbody .badge-status').allInnerTexts()).toEqual(['New', 'New']);
      const loads = documentLoads(page);

      // 3. A message opens in place: its heading takes the focus; it is read.
      await inbox.getByRole('link', { name: new RegExp(`^${WITH_JS.subject} \\(message from ${WITH_JS.name}, received `) }).click();
      const detail = inbox.locator('#inbox-message');
      const detailHeading = detail.getByRole('heading', { level: 3, name: WITH_JS.subject });
      await detailHeading.waitFor();
      await expect.poll(() => detailHeading.evaluate((element) => element === document.activeElement)).toBe(true);
      expect(new URL(page.url()).search).toMatch(/^\?message=\d+$/);
      const meta = await detail.locator('dl').innerText();
      expect(meta).toMatch(/Company\s+Browser Data SL/);
      expect(meta).toMatch(/Received\s+\w+ \d{1,2}, \d{4} at \d{1,2}:\d{2}\s?[AP]M/);
      expect(await detail.locator('.admin-inbox-text').first().innerText()).toBe(WITH_JS.message);
      expect(await rows.nth(1).getAttribute('class')).toContain('admin-inbox-read');

      // 4. The reply goes to the sender's address through the outbox; it stays with the message.
      await detail.getByLabel(`Your reply to ${WITH_JS.name}`).fill('Dear Jana,\nwe can talk on Monday.');
      await detail.getByRole('button', { name: 'Send reply' }).click();
      await inbox.getByRole('status').filter({ hasText: 'Your reply is on its way to the sender.' }).waitFor();
      const reply = detail.locator('.admin-inbox-reply');
      expect(await reply.locator('.admin-inbox-reply-meta').innerText()).toMatch(/^Rosa Admin replied on \w+ \d{1,2}, \d{4} at /);
      expect(await reply.locator('.admin-inbox-text').innerText()).toBe('Dear Jana,\nwe can talk on Monday.');
      expect(await detail.locator('dl').innerText()).toMatch(/Status\s+Answered/);
      const [mail] = await site.smtp.waitFor(1, 15_000);
      expect(mail!.envelope.to).toEqual([WITH_JS.email]);
      expect(mail!.subject).toBe(`Re: ${WITH_JS.subject}`);
      expect(mail!.text).toContain('> we can talk on Monday.');
      await expect.poll(() => badge.locator('[aria-hidden="true"]').innerText()).toBe('1');

      // 5. The views: answered, new, and the archive in Madrid's time whatever the browser's.
      await inbox.getByRole('link', { name: 'Answered (1)' }).click();
      await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining(WITH_JS.name)]);
      await inbox.getByRole('link', { name: 'New (1)' }).click();
      await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining(WITHOUT_JS.name)]);
      await inbox.getByRole('link', { name: `Archived (${ARCHIVED})` }).click();
      await expect.poll(() => rows.count()).toBe(20);
      expect(await rows.first().locator('time').innerText()).toBe(ARCHIVED_TIME);

      // 6. Archived, and back in the inbox.
      await inbox.getByRole('link', { name: /^Inbox \(2\)/ }).click();
      await inbox.getByRole('link', { name: new RegExp(`^${WITHOUT_JS.subject} \\(message from `) }).click();
      await detail.getByRole('heading', { level: 3, name: WITHOUT_JS.subject }).waitFor();
      await detail.getByRole('button', { name: /^Archive/ }).click();
      await inbox.getByRole('status').filter({ hasText: 'The message is archived.' }).waitFor();
      await expect.poll(() => rows.count()).toBe(1);
      await detail.getByRole('button', { name: /^Back to the inbox/ }).click();
      await inbox.getByRole('status').filter({ hasText: 'The message is back in the inbox.' }).waitFor();
      await expect.poll(() => rows.count()).toBe(2);

      // 7. Deleted after the dialog: cancelled first, then confirmed.
      await detail.getByRole('link', { name: /^Delete…/ }).click();
      const dialog = page.getByRole('alertdialog', { name: `Delete the message “${WITHOUT_JS.subject}”?` });
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain(`The message from ${WITHOUT_JS.name} (${WITHOUT_JS.email}) will be deleted permanently`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await rows.count()).toBe(2);
      await detail.getByRole('link', { name: /^Delete…/ }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await inbox.getByRole('status').filter({ hasText: 'The message has been deleted.' }).waitFor();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await detail.count()).toBe(0);

      // 8. "Invite as client" opens the new-user form, filled in from the message.
      await inbox.getByRole('link', { name: new RegExp(`^${WITH_JS.subject} \\(message from `) }).click();
      await detail.getByRole('link', { name: /^Invite as client/ }).click();
      await page.waitForURL(/\/en\/admin\/users\?invite=\d+$/);
      const form = page.locator('details.admin-new-user');
      await expect.poll(() => form.getAttribute('open')).not.toBeNull();
      expect(await form.getByLabel('Email', { exact: true }).inputValue()).toBe(WITH_JS.email);
      expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('Jana');
      expect(await form.getByLabel('Last name').inputValue()).toBe('Browser');
      expect(await form.getByLabel('Company (optional)').inputValue()).toBe(WITH_JS.company);
      expect(await form.getByLabel('Role').inputValue()).toBe('CLI');
      expect(await form.getByLabel('Invite by e-mail').isChecked()).toBe(true);

      // Nothing loaded a new document, and what the server rendered is what hydrated.
      expect(loads).toEqual([]);
      expect(problems).toEqual([]);
    },
  );

  it(
    'without JavaScript: the views and the pager are links, a message opens with a link and is answered with a form',
    { timeout: scaled(60_000) },
    async () => {
      const page = await (await newContext({ as: ADMIN.userName, javaScriptEnabled: false })).newPage();
      await page.goto('/en/admin/inbox');
      const inbox = page.locator('section.admin-inbox');
      const rows = inbox.locator('tbody tr');
      await inbox.getByRole('link', { name: /^Archived \(/ }).click();
      await page.waitForURL('**/en/admin/inbox?status=archived');
      expect(await rows.count()).toBe(20);
      expect(await rows.first().locator('time').innerText()).toBe(ARCHIVED_TIME);
      await inbox.getByRole('navigation', { name: 'Pages of messages' }).getByRole('link', { name: 'Next page' }).click();
      await page.waitForURL('**/en/admin/inbox?status=archived&page=2');
      expect(await rows.count()).toBe(ARCHIVED - 20);
      await inbox.getByRole('link', { name: /^Old question 21 \(message from / }).click();
      await page.waitForURL(/\?status=archived&page=2&message=\d+#inbox-message$/);
      const detail = inbox.locator('#inbox-message');
      await detail.getByLabel('Your reply to Old Sender 21').fill('Thank you for writing, even long ago.');
      const posted = page.waitForResponse((response) => response.request().method() === 'POST');
      await detail.getByRole('button', { name: 'Send reply' }).click();
      expect((await posted).status()).toBe(303);
      await inbox.getByRole('status').filter({ hasText: 'Your reply is on its way to the sender.' }).waitFor();
      expect(await detail.locator('.admin-inbox-reply .admin-inbox-text').innerText()).toBe('Thank you for writing, even long ago.');
      expect(await detail.locator('dl').innerText()).toMatch(/Status\s+Answered/);
    },
  );

  it('has no axe-core violations in the inbox, with a message open', async () => {
    const page = await (await newContext({ as: ADMIN.userName, reducedMotion: 'reduce' })).newPage();
    await page.goto('/en/admin/inbox');
    await waitForHydration(page);
    const inbox = page.locator('section.admin-inbox');
    await inbox.locator('tbody .admin-inbox-open').first().click();
    await inbox.locator('#inbox-message h3').waitFor();
    await page.getByTestId('loading-overlay').waitFor({ state: 'detached' });
    const results = await runAxe(page, 'section.admin-inbox');
    const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    expect(summary).toEqual([]);
  });
});

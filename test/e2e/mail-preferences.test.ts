// "E-mail notifications" on My Profile and the one-click unsubscribe link, in a real Chromium at
// 1366 and 390 px, with JavaScript: the choices per topic are saved and shown again; a refused
// number of days names the problem; a notice's List-Unsubscribe link, opened without signing in,
// asks first and then turns that topic off — which the profile shows. Screenshots go to
// /tmp/shots-mail. Without JavaScript both run in process: test/ui/mail-preferences.test.ts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { runAxe, setupSite, waitForHydration } from './fixture.ts';
import { collectProblems } from './helpers.ts';
import { DEFAULT_MAIL_PREFERENCES } from '../../shared/mail-preferences.ts';
import { scaled } from '../helpers/time-scale.ts';

const SHOTS = '/tmp/shots-mail';
const PEOPLE = [
  { role: 'ADMIN' as const, userName: 'ada', name: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  { role: 'CLI' as const, userName: 'carla', name: 'Carla', lastName: 'Cliente', email: 'carla@example.com' },
  { role: 'ORG' as const, userName: 'olga', name: 'Olga', lastName: 'Organización', email: 'olga@example.com' },
];
const site = setupSite({ users: PEOPLE, smtp: true });
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

const section = (page: Page) => page.locator('section[aria-labelledby="mail-title"]');
const topic = (page: Page, legend: string) => section(page).locator('fieldset', { has: page.locator('legend', { hasText: legend }) });

async function noOverflow(page: Page, width: number) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `no horizontal overflow at ${width} px`).toBeLessThanOrEqual(width);
}

/** The user of this page back to the defaults (the next test's users start from them). */
async function backToDefaults(page: Page) {
  const reset = await page
    .context()
    .request.put('/api/me/mail-preferences', { headers: { Origin: site.baseURL }, data: DEFAULT_MAIL_PREFERENCES });
  expect(reset.status(), await reset.text()).toBe(200);
}

async function checked(page: Page, legend: string): Promise<string> {
  return topic(page, legend)
    .locator('input:checked')
    .evaluate((input) => (input as HTMLInputElement).value);
}

for (const { label, viewport, js } of [
  { label: '1366', viewport: { width: 1366, height: 900 }, js: true },
  { label: '390', viewport: { width: 390, height: 844 }, js: true },
]) {
  test(`at ${label} px${js ? '' : ' without JavaScript'}: the e-mail choices are saved per topic and shown again; a bad number of days is refused by name`, async () => {
    const userName = js ? (label === '1366' ? 'carla' : 'olga') : 'carla';
    const page = await site.signIn(userName, { viewport, javaScriptEnabled: js, axe: js && label === '1366' });
    const problems = collectProblems(page);
    await page.goto('/en/profile');
    if (js) await waitForHydration(page);
    await section(page).scrollIntoViewIfNeeded();
    // Everything at once until the user chooses.
    for (const legend of ['New messages', 'New documents', 'Reminders of milestones due and overdue']) {
      expect(await checked(page, legend)).toBe('immediate');
    }
    expect(await section(page).textContent()).toContain('are always sent');
    await noOverflow(page, viewport.width);
    // A choice per row: the three options of a topic side by side at 1366 px, never wider than the screen.
    const boxes = await topic(page, 'New messages')
      .locator('label.field-check')
      .evaluateAll((labels) => labels.map((l) => l.getBoundingClientRect().top));
    if (label === '1366') expect(new Set(boxes.map(Math.round)).size).toBe(1);
    await section(page).screenshot({ path: join(SHOTS, `preferences-${label}.png`) });

    // 0 days: refused, the field says why, nothing saved.
    await topic(page, 'New messages').getByLabel('Daily summary').check();
    await section(page).getByLabel('Remind me this many days before a milestone is due').fill('0');
    await section(page).getByRole('button', { name: 'Save my e-mail choices' }).click();
    const error = section(page).locator('#mail-reminderDays-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('Enter a whole number of days from 1 to 30.');
    const days = section(page).getByLabel('Remind me this many days before a milestone is due');
    expect(await days.getAttribute('aria-invalid')).toBe('true');
    // The error and the hint both describe the field.
    expect((await days.getAttribute('aria-describedby'))?.split(' ').sort()).toEqual(['mail-reminderDays-error', 'mail-reminderDays-hint']);

    await topic(page, 'New messages').getByLabel('Daily summary').check();
    await topic(page, 'New documents').getByLabel('Never').check();
    await section(page).getByLabel('Remind me this many days before a milestone is due').fill('5');
    await section(page).getByRole('button', { name: 'Save my e-mail choices' }).click();
    await expect.poll(() => section(page).getByRole('status').textContent()).toBe('Your e-mail choices are saved.');
    await section(page).screenshot({ path: join(SHOTS, `preferences-saved-${label}.png`) });

    // Read again from the server.
    await page.goto('/en/profile');
    if (js) await waitForHydration(page);
    expect(await checked(page, 'New messages')).toBe('digest');
    expect(await checked(page, 'New documents')).toBe('never');
    expect(await checked(page, 'Changes of state (briefs, proposals, experts, deliveries)')).toBe('immediate');
    expect(await section(page).getByLabel('Remind me this many days before a milestone is due').inputValue()).toBe('5');
    if (js && label === '1366') {
      const results = await runAxe(page, 'section[aria-labelledby="mail-title"]');
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
    expect(problems.filter((p) => !p.includes('status of 422'))).toEqual([]);
    // Back to the defaults for the next viewport's user.
    await backToDefaults(page);
  });
}

// Without JavaScript (plain form posts) both are test/ui/mail-preferences.test.ts's.
for (const js of [true]) {
  test(`a notice's unsubscribe link, opened without signing in${js ? '' : ' and without JavaScript'}, asks first, then stops that topic only`, async () => {
    const client = await site.signIn('carla', { viewport: { width: 1366, height: 900 } });
    const sentBefore = site.smtp.messages.length;
    const brief = await client.context().request.post('/api/projects', {
      headers: { Origin: site.baseURL },
      data: { title: `Shop figures ${js ? 'A' : 'B'}`, description: 'One place for the figures of our shops.', practice: 'data' },
    });
    expect(brief.status(), await brief.text()).toBe(201);
    // The admin is told of the brief (a "changes of state" notice), with a one-click link.
    await expect
      .poll(() => site.smtp.messages.slice(sentBefore).find((m) => m.subject?.includes(`Shop figures ${js ? 'A' : 'B'}`)), {
        timeout: scaled(15_000),
      })
      .toBeTruthy();
    const mail = site.smtp.messages.slice(sentBefore).find((m) => m.subject?.includes(`Shop figures ${js ? 'A' : 'B'}`))!;
    const list = mail.headers.get('list') as { unsubscribe?: { url?: string }; 'unsubscribe-post'?: { name?: string } };
    expect(list['unsubscribe-post']?.name).toBe('List-Unsubscribe=One-Click');
    const url = new URL(list.unsubscribe!.url!);
    expect(url.pathname).toMatch(/^\/unsubscribe\/[A-Za-z0-9_-]+\.states\.[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain(list.unsubscribe!.url!);

    // A stranger's browser: no session.
    const stranger = await site.newPage({ viewport: { width: 390, height: 844 }, javaScriptEnabled: js });
    const problems = collectProblems(stranger);
    const answer = await stranger.goto(url.pathname);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['referrer-policy']).toBe('no-referrer');
    expect(await stranger.locator('h1').textContent()).toMatch(/Dejar de recibir estos correos|Stop these e-mails/);
    await noOverflow(stranger, 390);
    await stranger.screenshot({ path: join(SHOTS, `unsubscribe-ask-${js ? 'js' : 'nojs'}.png`), fullPage: true });
    await stranger.getByRole('button', { name: /Dejar de recibirlos|Stop these e-mails/ }).click();
    await stranger.locator('[role="status"]').waitFor();
    expect(await stranger.locator('[role="status"]').textContent()).toMatch(/Cambios de estado|Changes of state/);
    await stranger.screenshot({ path: join(SHOTS, `unsubscribe-done-${js ? 'js' : 'nojs'}.png`), fullPage: true });
    expect(problems).toEqual([]);

    // The admin's profile: changes of state off, messages still at once.
    const admin = await site.signIn('ada', { viewport: { width: 1366, height: 900 } });
    await admin.goto('/en/profile');
    expect(await checked(admin, 'Changes of state (briefs, proposals, experts, deliveries)')).toBe('never');
    expect(await checked(admin, 'New messages')).toBe('immediate');
    await backToDefaults(admin);
  });
}

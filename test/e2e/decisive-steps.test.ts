// The decisive steps of a project as a client meets them (docs/decisions/040): the confirmation of an
// acceptance restates the terms and axe-core finds nothing in it, nor in the notice after it, in
// either theme; the owner of delivered work gets an e-mail (a real SMTP server) whose button
// opens the confirmation, and confirming there closes the project. The setup posts the other
// participants' forms straight to their pages, as their browsers would. This file starts its own
// server.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runAxe, setupSite, waitForHydration } from './fixture.ts';
import { scaled } from '../helpers/time-scale.ts';

const USERS = [
  { role: 'ADMIN' as const, userName: 'adela', name: 'Adela', lastName: 'Gestora', email: 'adela@example.com' },
  { role: 'CLI' as const, userName: 'clara', name: 'Clara', lastName: 'Cliente', email: 'clara@example.com' },
  { role: 'CONS' as const, userName: 'elena', name: 'Elena', lastName: 'Experta', email: 'elena@example.com' },
];
const site = setupSite({ users: USERS, smtp: true });

/** Posts a page's form as its browser would (the session's cookie, our origin) and returns where it sent us. */
async function post(page: Page, path: string, form: Record<string, string>): Promise<string> {
  const res = await page.request.post(path, { form, headers: { Origin: site.baseURL }, maxRedirects: 0 });
  expect(res.status(), `${path} ${JSON.stringify(form)}: ${(await res.text()).slice(0, 200)}`).toBe(303);
  return res.headers().location!;
}

async function projectWithProposal(owner: Page, admin: Page): Promise<number> {
  const created = await post(owner, '/en/client/projects/new', { title: 'Archive study', description: 'Our old files.', practice: 'data' });
  const id = Number(/projects\/(\d+)/.exec(created)![1]);
  await post(admin, `/en/admin/projects/${id}`, {
    intent: 'proposal',
    scope: 'An inventory of the archive and a catalogue.',
    fee: '7800',
    timeline: 'Three weeks from the start.',
  });
  return id;
}

describe('decisive steps', () => {
  it.each(['light', 'dark'] as const)(
    'accepting asks with the terms, and axe-core finds nothing in the dialog or the notice after it (%s theme)',
    async (colorScheme) => {
      const owner = await site.newPage({ as: 'clara', axe: true, colorScheme, viewport: { width: 1366, height: 900 } });
      const admin = await site.newPage({ as: 'adela' });
      const id = await projectWithProposal(owner, admin);
      await owner.goto(`/en/client/projects/${id}`);
      await waitForHydration(owner);
      await owner.locator('button[name="action"][value="accept"]').click();
      const dialog = owner.locator('dialog.alert-dialog[open]');
      await dialog.waitFor();
      const text = ((await dialog.textContent()) ?? '').replace(/\s+/g, ' ');
      expect(text).toContain('€7,800');
      expect(text).toContain('Three weeks from the start.');
      expect(text).toContain('An inventory of the archive and a catalogue.');
      expect(text).toContain('v1');
      const inDialog = await runAxe(owner, 'dialog.alert-dialog');
      expect(inDialog.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await dialog.locator('.alert-confirm').click();
      await owner.locator('#project-notice p').waitFor();
      expect(await owner.locator('#project-notice').textContent()).toContain('You have accepted the proposal');
      const page = await runAxe(owner, 'main');
      expect(page.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    },
  );

  it('the owner of delivered work confirms it from the button of the e-mail, and the project is closed', async () => {
    const owner = await site.newPage({ as: 'clara', viewport: { width: 390, height: 844 } });
    const admin = await site.newPage({ as: 'adela' });
    const expert = await site.newPage({ as: 'elena' });
    const id = await projectWithProposal(owner, admin);
    await post(owner, `/en/client/projects/${id}`, { intent: 'action', action: 'accept', confirmed: 'yes', version: '1' });
    await post(admin, `/en/admin/projects/${id}`, { intent: 'assign', userName: 'elena' });
    await post(expert, `/en/expert/projects/${id}`, { intent: 'action', action: 'deliver' });
    // The outbox sends in the background: the owner's notice of the delivery, among the others.
    const delivered = () =>
      site.smtp.messages.find(
        (m) => (m.to && !Array.isArray(m.to) ? m.to.text : '') === 'clara@example.com' && String(m.subject).includes('as delivered'),
      );
    await expect.poll(delivered, { timeout: scaled(15_000) }).toBeTruthy();
    const mail = delivered();
    expect(mail?.subject).toBe('“Archive study”: Elena Experta marked the work as delivered — please review and confirm');
    const button = /<a [^>]*href="([^"]+)"[^>]*>[^<]*Review and confirm the delivery/.exec(String(mail?.html))?.[1];
    expect(button).toBe(`${site.baseURL}/en/client/projects/${id}?confirm=close#confirm-title`);

    await owner.goto(button!.replace(site.baseURL, ''));
    await waitForHydration(owner);
    const panel = owner.locator('.confirm-panel');
    expect(((await panel.textContent()) ?? '').replace(/\s+/g, ' ')).toContain('€7,800');
    await panel.locator('.alert-confirm').click();
    await owner.locator('#project-notice p').waitFor();
    expect(await owner.locator('.project-header .state-badge').textContent()).toBe('Closed');
    expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

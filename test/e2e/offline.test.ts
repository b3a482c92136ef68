// The page tracks whether the browser is online and shows it: a polite banner while offline,
// and forms that need the network say so and cannot be sent.
import type { BrowserContext, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';

const site = setupSite();
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  // The worker is blocked: only the page's own online tracking is under test here.
  context = await site.newContext({ serviceWorkers: 'block' });
  page = await context.newPage();
});

const banner = () => page.locator('.offline-banner');

describe('online / offline', () => {
  it('going offline shows a polite status banner, going back online removes it', async () => {
    await page.goto('/en/blog');
    await waitForHydration(page);
    // The live region is there from the start (so that the later text is announced), empty.
    expect(await banner().getAttribute('role')).toBe('status');
    expect(await banner().getAttribute('aria-live')).toBe('polite');
    expect((await banner().innerText()).trim()).toBe('');

    await context.setOffline(true);
    await expect.poll(() => banner().innerText()).toBe('You are offline. Pages you have visited may still be shown.');
    expect(await banner().isVisible()).toBe(true);
    expect(await page.getByRole('status').filter({ hasText: 'You are offline' }).count()).toBe(1);

    await context.setOffline(false);
    await expect.poll(async () => (await banner().innerText()).trim()).toBe('');
  });

  it('offline, the contact form shows the offline note and cannot be sent; online again, it can', async () => {
    await page.goto('/en/Contact');
    await waitForHydration(page);
    const form = page.locator('main form');
    const submit = form.getByRole('button', { name: 'Send message' });
    const note = page.locator('main .form-offline');
    expect(await submit.isEnabled()).toBe(true);
    expect(await note.count()).toBe(0);

    await context.setOffline(true);
    await note.waitFor({ state: 'visible' });
    expect(await note.innerText()).toBe('You are offline: this form needs a connection to be sent.');
    expect(await note.getAttribute('role')).toBe('status');
    await expect.poll(() => submit.isDisabled()).toBe(true);
    expect(await banner().innerText()).toContain('You are offline');

    await context.setOffline(false);
    await note.waitFor({ state: 'detached' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await expect.poll(async () => (await banner().innerText()).trim()).toBe('');
  });

  it('in Spanish the banner and the note speak Spanish', async () => {
    await page.goto('/Contact');
    await waitForHydration(page);
    await context.setOffline(true);
    await expect.poll(() => banner().innerText()).toBe('Estás sin conexión. Puede que sigas viendo las páginas que ya has visitado.');
    expect(await page.locator('main .form-offline').innerText()).toBe(
      'Estás sin conexión: este formulario necesita conexión para enviarse.',
    );
    expect(await page.locator('main form').getByRole('button', { name: 'Enviar mensaje' }).isDisabled()).toBe(true);
    await context.setOffline(false);
  });
});

// The signed-in navbar and the logout confirmation: first name, last name, default avatar, My
// Profile, Log-Out; Log-Out asks first in a modal alert dialog (confirm #9acd32, cancel #ff4500)
// and, confirmed, signs out without a reload and goes to the locale's home. The shared e2e server
// has no users, so this file starts its own server with one user, created with the ops CLI.
import type { BrowserContext, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { setupSite, waitForHydration } from './fixture.ts';
import { collectProblems } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

declare global {
  interface Window {
    __dialogMarker?: number;
  }
}

const SESSION_COOKIE = 'auth._token.local';

const site = setupSite({ users: [{ userName: 'dana', role: 'CONS', name: 'Dana', lastName: 'Díaz' }], password: 'correct horse 1' });
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  context = await site.newContext({ consent: true });
  page = await context.newPage();
});

/** Signs in through the login form, with JavaScript, and waits for the expert area. */
async function signIn(locale: 'en' | 'es' = 'en'): Promise<void> {
  await page.goto(locale === 'en' ? '/en/login' : '/login');
  await waitForHydration(page);
  await page.locator('#login-identifier').fill('dana');
  await page.locator('#login-password').fill('correct horse 1');
  await page
    .locator('main form')
    .getByRole('button', { name: locale === 'en' ? 'Sign in' : 'Entrar' })
    .click();
  // CONS is confined to the expert area.
  await page.waitForURL((url) => url.pathname === (locale === 'en' ? '/en/expert' : '/expert'));
  // Attached, not visible: under 1023 px it sits in the folded burger menu.
  await page.locator('.navbar-user').waitFor({ state: 'attached', timeout: scaled(10_000) });
  // The menu's handlers (the confirmation) run once it has hydrated; before, Log-Out is a plain form post.
  await waitForHydration(page);
  await page.evaluate(() => {
    window.__dialogMarker = 1;
  });
}

const dialog = () => page.locator('dialog.alert-dialog');
const logoutButton = () => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log-Out' });
/** My Profile and Log-Out are in the user's menu (a disclosure under the avatar and name): opened first. */
async function openUserMenu(): Promise<void> {
  if ((await page.locator('details.navbar-user[open]').count()) === 0) await page.locator('.navbar-user-button').click();
}
async function clickLogout(): Promise<void> {
  await openUserMenu();
  await logoutButton().click();
}
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement;
    return {
      className: el?.className ?? '',
      // <body> (nothing focused) has no text of its own worth reporting.
      text: !el || el === document.body ? '' : (el.textContent ?? '').trim().slice(0, 80),
      tag: el?.tagName ?? '',
      inDialog: Boolean(el?.closest('dialog')),
    };
  });

async function sessionCookie() {
  return (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
}

describe('signed-in navbar and the logout confirmation', () => {
  it('the navbar shows the name, the default avatar, My Profile and Log-Out', async () => {
    const problems = collectProblems(page);
    await signIn();
    const navbar = page.getByRole('navigation', { name: 'Main' });
    expect(await navbar.locator('.navbar-user-name').innerText()).toBe('Dana Díaz');
    const avatar = navbar.locator('.navbar-user img');
    expect(await avatar.getAttribute('src')).toBe('/avatar-default.svg');
    expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await logoutButton().isVisible()).toBe(false);
    await openUserMenu();
    expect(await navbar.getByRole('link', { name: 'My Profile' }).getAttribute('href')).toBe('/en/profile');
    expect(await logoutButton().isVisible()).toBe(true);
    expect(await navbar.getByRole('link', { name: 'Private Area' }).count()).toBe(0);
    expect(await sessionCookie()).toBeDefined();
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('Log-Out opens a modal alert dialog: focus on cancel, Escape closes it and focus returns, Tab stays inside', async () => {
    await signIn();
    expect(await dialog().evaluate((d: HTMLDialogElement) => d.open)).toBe(false);

    await clickLogout();
    await page.locator('dialog[open]').waitFor();
    expect(await dialog().getAttribute('role')).toBe('alertdialog');
    expect(await dialog().getAttribute('aria-modal')).toBe('true');
    // Modal: shown with showModal(), so the rest of the page is inert.
    expect(await dialog().evaluate((d) => d.matches(':modal'))).toBe(true);
    expect(await page.getByRole('alertdialog', { name: 'Log out?' }).count()).toBe(1);
    expect(await focused()).toMatchObject({ className: 'alert-cancel', text: 'Stay signed in', inDialog: true });

    await page.keyboard.press('Escape');
    await page.locator('dialog[open]').waitFor({ state: 'detached' });
    expect(await dialog().evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    await expect.poll(async () => (await focused()).text).toBe('Log-Out');
    // Still signed in.
    expect(await sessionCookie()).toBeDefined();
    expect(await page.locator('.navbar-user-name').innerText()).toBe('Dana Díaz');

    await clickLogout();
    await page.locator('dialog[open]').waitFor();
    const colours = await page.evaluate(() => ({
      confirm: getComputedStyle(document.querySelector('dialog .alert-confirm')!).backgroundColor,
      cancel: getComputedStyle(document.querySelector('dialog .alert-cancel')!).backgroundColor,
    }));
    // The confirm button is #9acd32, cancel #ff4500.
    expect(colours).toEqual({ confirm: 'rgb(154, 205, 50)', cancel: 'rgb(255, 69, 0)' });

    // Tab never reaches the page behind: it goes cancel → confirm → (out of the document, as
    // a native modal dialog lets it reach the browser's own UI) → cancel…
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      const f = await focused();
      expect(f.inDialog || f.tag === 'BODY', `Tab ${i + 1} focused ${f.tag}.${f.className} "${f.text}"`).toBe(true);
      if (f.inDialog) seen.push(f.className);
    }
    expect(seen.filter((c) => c === 'alert-cancel').length).toBeGreaterThanOrEqual(2);
    expect(seen.filter((c) => c === 'alert-confirm').length).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Shift+Tab');
      const f = await focused();
      expect(f.inDialog || f.tag === 'BODY', `Shift+Tab ${i + 1} focused ${f.tag}.${f.className}`).toBe(true);
    }
  });

  it('confirming signs out without a reload: the locale home, Private Area in the navbar, no session cookie', async () => {
    await signIn();
    expect(await sessionCookie()).toBeDefined();
    await clickLogout();
    await page.locator('dialog[open]').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Log out' }).click();

    await page.waitForURL((url) => url.pathname === '/en');
    const navbar = page.getByRole('navigation', { name: 'Main' });
    await navbar.getByRole('link', { name: 'Private Area' }).waitFor();
    expect(await navbar.locator('.navbar-user').count()).toBe(0);
    expect(await page.evaluate(() => window.__dialogMarker)).toBe(1);
    expect(await sessionCookie()).toBeUndefined();
    // The server agrees: the private area now sends to login.
    const again = await context.request.get('/en/expert', { maxRedirects: 0 });
    expect(again.status()).toBeGreaterThanOrEqual(300);
    expect(again.status()).toBeLessThan(400);
    expect(again.headers().location).toMatch(/^\/en\/login/);
  });

  it('in Spanish confirming goes to / and the navbar shows Área privada', async () => {
    await signIn('es');
    const navbar = page.getByRole('navigation', { name: 'Principal' });
    await openUserMenu();
    await navbar.getByRole('button', { name: 'Cerrar sesión' }).click();
    const alert = page.getByRole('alertdialog', { name: '¿Cerrar sesión?' });
    await alert.waitFor();
    await alert.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await navbar.getByRole('link', { name: 'Área privada' }).waitFor();
    expect(await page.evaluate(() => window.__dialogMarker)).toBe(1);
    expect(await sessionCookie()).toBeUndefined();
  });

  it('at a phone width, Escape closes only the dialog: the burger menu stays open and focus returns to Log-Out', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn();
    const burger = page.locator('button.navbar-burger');
    await burger.click();
    expect(await burger.getAttribute('aria-expanded')).toBe('true');
    await clickLogout();
    await page.locator('dialog[open]').waitFor();
    expect(await dialog().isVisible()).toBe(true);
    expect((await focused()).className).toBe('alert-cancel');

    await page.keyboard.press('Escape');
    await page.locator('dialog[open]').waitFor({ state: 'detached', timeout: scaled(5_000) });
    // Escape belongs to the topmost layer, the dialog: the menu it was opened from stays open,
    // and focus goes back to the (visible) Log-Out button instead of being lost on <body>.
    await page.waitForFunction(() => !document.activeElement?.closest('dialog'), undefined, { timeout: scaled(5_000) });
    const after = await focused();
    expect.soft(after.tag, 'focus after Escape').not.toBe('BODY');
    expect.soft(after.text, 'focus after Escape').toBe('Log-Out');
    expect.soft(await burger.getAttribute('aria-expanded'), 'burger menu after Escape').toBe('true');
    expect.soft(await logoutButton().isVisible(), 'Log-Out visible after Escape').toBe(true);
  });
});

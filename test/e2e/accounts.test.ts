// Accounts that run themselves (docs/decisions/017), in Chromium against the production server, whose
// e-mails go to a real SMTP server started by this file: an admin invites a user from the console
// and the user accepts in the browser; a user who forgot their password asks for a link and sets
// a new one; a user changes their e-mail address from the profile and confirms it from the new
// one. Each with JavaScript (answers without a reload); links that do not work get their clear
// page. And, on a second server without a mail server, the console shows the invitation link for
// the admin to pass on. Screenshots in /tmp/shots-accounts/. The same journeys without JavaScript
// (plain posts), and an expired link's page, run in process: test/ui/accounts.test.ts.
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ReceivedMail } from '../helpers/smtp.ts';
import { DESKTOP, PHONE, runAxe, setupServer, setupSite, waitForHydration, type Server } from './fixture.ts';
import { collectProblems } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

const SHOTS = '/tmp/shots-accounts';
const PASSWORD = 'accounts horse 1';
const NEW_PASSWORD = 'a brand new password';
type Locale = 'es' | 'en';

const ADMIN = { userName: 'acc-admin', role: 'ADMIN', name: 'Adela', lastName: 'Gestora', email: 'admin@example.com' } as const;
/** One person per journey that changes them, so that the journeys do not meet. */
const PEOPLE = [
  ADMIN,
  { userName: 'reset-js', role: 'CLI', name: 'Rita', lastName: 'Restablece', email: 'reset-js@example.com' },
  { userName: 'mail-js', role: 'CLI', name: 'Marta', lastName: 'Mueve', email: 'mail-js@example.com' },
] as const;

const site = setupSite({ users: PEOPLE, password: PASSWORD, smtp: true, env: { SITE_NAME: 'Acme' } });
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

/** A path in the locale's form: Spanish unprefixed, English under /en. */
const at = (locale: Locale, path: string) => (locale === 'es' ? path : `/en${path}`);

function newContext(options: { viewport: { width: number; height: number }; js: boolean; locale?: Locale; server?: Server }) {
  return site.newContext({
    server: options.server,
    viewport: options.viewport,
    javaScriptEnabled: options.js,
    ...(options.locale === 'en' ? { locale: 'en-US' } : {}),
    // The cookie banner answered: it would cover the forms at 390 px.
    consent: true,
  });
}

async function open(page: Page, path: string, js: boolean): Promise<void> {
  await page.goto(path);
  if (js) await waitForHydration(page);
}

/** Signs in through the login form and waits to leave it. */
async function signIn(context: BrowserContext, locale: Locale, userName: string, password: string, js: boolean): Promise<Page> {
  const page = await context.newPage();
  await open(page, at(locale, '/login'), js);
  await page.locator('#login-identifier').fill(userName);
  await page.locator('#login-password').fill(password);
  await page.locator('main form button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  return page;
}

/** The newest e-mail to an address, waiting for the `count`-th one. */
async function mailTo(address: string, count = 1): Promise<ReceivedMail> {
  await expect
    .poll(() => site.smtp.messages.filter((m) => m.envelope.to.includes(address)).length, { timeout: scaled(10_000) })
    .toBeGreaterThanOrEqual(count);
  return site.smtp.messages.filter((m) => m.envelope.to.includes(address))[count - 1]!;
}

/** The link of an e-mail, as a path on the server (its origin is the server's PUBLIC_URL). */
function linkOf(mail: ReceivedMail): string {
  const found = /(https?:\/\/\S+\?token=[A-Za-z0-9_-]{43})/.exec(mail.text ?? '');
  expect(found, mail.text).not.toBeNull();
  const url = new URL(found![1]!);
  return `${url.pathname}${url.search}`;
}

/** Opens an e-mailed link as a click from a mail program would, and checks that its token left the address bar. */
async function openLink(page: Page, link: string, js: boolean): Promise<void> {
  await open(page, link, js);
  const url = new URL(page.url());
  expect(url.pathname).toBe(link.split('?')[0]);
  expect(url.search).toBe('');
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

async function expectVisible(locator: Locator, width: number, what: string): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  expect(await locator.isVisible(), `${what} is visible`).toBe(true);
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.x, `${what} left`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what} right`).toBeLessThanOrEqual(width);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const h1 = (page: Page) => page.locator('main h1');

/** The problems a page had, but the refused form posts the test makes on purpose (422: a field error). */
const unexpected = (problems: string[]) => problems.filter((line) => !line.includes('status of 422'));

/** Fills the two password fields of a link's page and sends it. */
async function chooseNewPassword(page: Page, locale: Locale, submit: string): Promise<void> {
  await page.getByLabel(locale === 'es' ? 'Contraseña nueva' : 'New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel(locale === 'es' ? 'Repite la contraseña nueva' : 'Repeat the new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: submit }).click();
}

describe('an invitation, from the console to the invited user signed in in their area', () => {
  test('with JavaScript, in English, at 1366 px: invite, see the badge, resend, accept once', { timeout: scaled(90_000) }, async () => {
    const admin = await newContext({ viewport: DESKTOP, js: true, locale: 'en' });
    const console_ = await signIn(admin, 'en', ADMIN.userName, PASSWORD, true);
    const problems = collectProblems(console_);
    await open(console_, '/en/admin/users', true);
    // The form is behind the "New user" disclosure.
    await console_.locator('details.admin-new-user summary').click();
    const create = console_.getByRole('region', { name: 'New user', exact: true });
    await create.getByLabel('User name').fill('nina.invited');
    await create.getByLabel('Invite by e-mail').check();
    await create.getByLabel('Email', { exact: true }).fill('nina@example.com');
    await create.getByLabel('Name', { exact: true }).fill('Nina');
    await create.getByLabel('Last name').fill('Invitada');
    await create.getByLabel('Role').selectOption('CLI');
    await create.getByLabel('Language of the invitation').selectOption('en');
    expect(await create.getByLabel('Password (optional)').count()).toBe(0);
    await create.getByRole('button', { name: 'Create user' }).click();
    const done = create.getByRole('status');
    await done.filter({ hasText: 'The invitation of nina.invited went to nina@example.com. The link works for 72 hours.' }).waitFor();
    await shot(console_, 'console-invited-1366');

    // The list says who has not accepted yet, with a Resend button.
    const users = console_.getByRole('region', { name: 'Users', exact: true });
    await users.getByRole('searchbox', { name: 'Search users' }).fill('nina');
    await users.getByRole('button', { name: 'Search', exact: true }).click();
    const row = users.locator('tbody tr').filter({ has: console_.getByRole('rowheader', { name: 'nina.invited' }) });
    await row.waitFor();
    await expectVisible(row.getByText('Invitation pending'), DESKTOP.width, 'the invited badge');
    // Resend is in the row's menu.
    await row.locator('details.row-menu summary').click();
    await row.getByRole('button', { name: 'Resend invitation to nina.invited' }).click();
    const dialog = console_.getByRole('alertdialog', { name: 'Resend the invitation of nina.invited?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('will get a new link at nina@example.com');
    await dialog.getByRole('button', { name: 'Resend invitation', exact: true }).click();
    await users.getByRole('status').filter({ hasText: 'The invitation of nina.invited went to nina@example.com.' }).waitFor();
    await row.scrollIntoViewIfNeeded();
    await console_.screenshot({ path: `${SHOTS}/console-resent-1366.png` });
    expect(problems).toEqual([]);

    // The second e-mail's link works; the first one was replaced.
    const first = linkOf(await mailTo('nina@example.com', 1));
    const mail = await mailTo('nina@example.com', 2);
    expect(mail.subject).toBe('You are invited to Acme');
    const link = linkOf(mail);
    expect(link).toMatch(/^\/en\/invitation\?token=/);

    const invitee = await newContext({ viewport: DESKTOP, js: true, locale: 'en' });
    const page = await invitee.newPage();
    const pageProblems = collectProblems(page, { documentStatus: 404 });
    await openLink(page, first, true);
    expect(await h1(page).innerText()).toBe('This link is not valid');

    await openLink(page, link, true);
    expect(await h1(page).innerText()).toBe('Welcome');
    expect(await page.locator('main').innerText()).toContain('Your account nina.invited is ready');
    await shot(page, 'invitation-en-1366');
    // The rules of change password, answered without a reload.
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill('something else entirely');
    await page.getByRole('button', { name: 'Save and enter' }).click();
    await page.getByText('The two new passwords do not match.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/en/invitation');
    await chooseNewPassword(page, 'en', 'Save and enter');
    await page.waitForURL('**/en/client');
    await expectVisible(page.locator('.navbar-user'), DESKTOP.width, 'the signed-in user');
    expect(await page.locator('.navbar-user').innerText()).toContain('Nina');
    await shot(page, 'invitation-accepted-en-1366');
    expect(unexpected(pageProblems)).toEqual([]);

    // Once only: the same link in another browser is "already used".
    const late = await newContext({ viewport: DESKTOP, js: true, locale: 'en' });
    const latePage = await late.newPage();
    await openLink(latePage, link, true);
    expect(await h1(latePage).innerText()).toBe('This link has already been used');
    expect(await latePage.locator('main').innerText()).toContain('You have already chosen your password with this invitation');
    await expectVisible(latePage.getByRole('link', { name: 'Go to sign in' }), DESKTOP.width, 'the way on');
    await shot(latePage, 'invitation-used-en-1366');
  });
});

describe('a forgotten password', () => {
  const CASES = [
    { label: 'with JavaScript, in English, at 1366 px', js: true, locale: 'en' as Locale, viewport: DESKTOP, person: PEOPLE[1] },
  ];
  const SEES = {
    en: {
      forgot: 'Forgot your password?',
      field: 'User name or email',
      send: 'Send me a link',
      sent: 'If an account matches what you typed',
      title: 'Choose a new password',
      submit: 'Set the new password',
      notice: 'Your password has been changed and you have been signed out everywhere.',
    },
    es: {
      forgot: '¿Has olvidado tu contraseña?',
      field: 'Nombre de usuario o correo electrónico',
      send: 'Enviarme un enlace',
      sent: 'Si lo que has escrito corresponde a una cuenta',
      title: 'Elige una contraseña nueva',
      submit: 'Guardar la contraseña nueva',
      notice: 'Tu contraseña ha cambiado y se han cerrado todas tus sesiones.',
    },
  };

  test.each(CASES)(
    '$label: from the login page to a new password, the old sessions ended',
    { timeout: scaled(90_000) },
    async ({ js, locale, viewport, person }) => {
      const sees = SEES[locale];
      const suffix = `${locale}-${viewport.width}`;
      // A session elsewhere, with the old password: it ends with the reset.
      const elsewhere = await newContext({ viewport: DESKTOP, js: true });
      const context = await newContext({ viewport, js, locale });
      const other = await signIn(elsewhere, locale, person.userName, PASSWORD, true);
      const page = await context.newPage();
      const problems = collectProblems(page);
      await open(page, at(locale, '/login'), js);
      await page.getByRole('link', { name: sees.forgot }).click();
      await page.waitForURL(`**${at(locale, '/forgotPassword')}`);
      // A client navigation: the page shows once its data came.
      await expect.poll(() => h1(page).innerText()).toBe(sees.forgot);
      await page.getByLabel(sees.field).fill(person.email);
      await page.getByRole('button', { name: sees.send }).click();
      await page.getByRole('status').filter({ hasText: sees.sent }).waitFor();
      await expectVisible(page.getByRole('status').filter({ hasText: sees.sent }), viewport.width, 'the answer');
      await expectNoSidewaysScroll(page);
      await shot(page, `forgot-sent-${suffix}`);

      const link = linkOf(await mailTo(person.email));
      expect(link.startsWith(at(locale, '/resetPassword?token='))).toBe(true);
      await openLink(page, link, js);
      expect(await h1(page).innerText()).toBe(sees.title);
      await shot(page, `reset-${suffix}`);
      await chooseNewPassword(page, locale, sees.submit);
      await page.waitForURL((url) => url.pathname === at(locale, '/login'));
      await page.getByRole('status').filter({ hasText: sees.notice }).waitFor();
      await shot(page, `reset-done-${suffix}`);

      // The session elsewhere has ended: its next page is the login page.
      await other.goto(at(locale, '/profile'));
      expect(new URL(other.url()).pathname).toBe(at(locale, '/login'));
      // The new password signs in.
      await page.locator('#login-identifier').fill(person.userName);
      await page.locator('#login-password').fill(NEW_PASSWORD);
      await page.locator('main form button[type="submit"]').click();
      await page.waitForURL((url) => !url.pathname.endsWith('/login'));
      expect(problems).toEqual([]);

      // The link again: already used, with the way to ask for a new one.
      const again = await context.newPage();
      await openLink(again, link, js);
      expect(await h1(again).innerText()).toBe(locale === 'es' ? 'Este enlace ya se ha usado' : 'This link has already been used');
      await expectVisible(
        again.getByRole('link', { name: locale === 'es' ? 'Pedir un enlace nuevo' : 'Ask for a new link' }),
        viewport.width,
        'the way on',
      );
      await shot(again, `reset-used-${suffix}`);
    },
  );
});

describe('accessibility of the account pages', () => {
  test(
    'axe-core reports no violations on the forms and the clear pages of links, in both locales',
    { timeout: scaled(90_000) },
    async () => {
      // A valid reset page needs a link: the admin asks for one (and never uses it).
      const asker = await newContext({ viewport: DESKTOP, js: true });
      const asking = await asker.newPage();
      await open(asking, '/en/forgotPassword', true);
      await asking.getByLabel('User name or email').fill(ADMIN.userName);
      await asking.getByRole('button', { name: 'Send me a link' }).click();
      await asking.getByRole('status').filter({ hasText: 'If an account matches' }).waitFor();
      const link = linkOf(await mailTo(ADMIN.email));
      await asker.close();
      // The injected axe-core script needs the CSP relaxed (as in a11y.test.ts); no fades half-way.
      const context = await site.newContext({ axe: true, consent: true });
      for (const path of ['/forgotPassword', '/en/forgotPassword?sent=1', link, '/resetPassword', '/en/invitation', '/en/confirmEmail']) {
        const page = await context.newPage();
        await page.goto(path);
        await waitForHydration(page);
        const results = await runAxe(page);
        expect(
          results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
          path,
        ).toEqual([]);
        await page.close();
      }
    },
  );
});

describe('a change of e-mail address', () => {
  const CASES = [
    { label: 'with JavaScript, in English, at 1366 px', js: true, locale: 'en' as Locale, viewport: DESKTOP, person: PEOPLE[2] },
  ];
  const SEES = {
    en: {
      section: 'E-mail address',
      newEmail: 'New e-mail address',
      password: 'Your current password',
      send: 'Send a confirmation link',
      sent: 'We have sent a link to',
      keeps: 'until then your account keeps its current address.',
      confirmTitle: 'Confirm your new e-mail address',
      confirm: 'Confirm the address',
      saved: 'Your e-mail address has been changed.',
    },
    es: {
      section: 'Dirección de correo',
      newEmail: 'Nueva dirección de correo',
      password: 'Tu contraseña actual',
      send: 'Enviar un enlace de confirmación',
      sent: 'Hemos enviado un enlace a',
      keeps: 'hasta entonces tu cuenta conserva la dirección actual.',
      confirmTitle: 'Confirma tu nueva dirección de correo',
      confirm: 'Confirmar la dirección',
      saved: 'Tu dirección de correo ha cambiado.',
    },
  };

  test.each(CASES)(
    '$label: asked on the profile, confirmed from the new address',
    { timeout: scaled(90_000) },
    async ({ js, locale, viewport, person }) => {
      const sees = SEES[locale];
      const suffix = `${locale}-${viewport.width}`;
      const newAddress = `${person.userName}.new@example.com`;
      const context = await newContext({ viewport, js, locale });
      const page = await signIn(context, locale, person.userName, PASSWORD, js);
      const problems = collectProblems(page);
      await open(page, at(locale, '/profile'), js);
      const section = page.getByRole('region', { name: sees.section });
      await expectVisible(section.getByText(person.email), viewport.width, 'the current address');
      // A wrong current password first: refused, nothing sent.
      await section.getByLabel(sees.newEmail).fill(newAddress);
      await section.getByLabel(sees.password).fill('not my password');
      await section.getByRole('button', { name: sees.send }).click();
      await section.locator('#email-currentPassword-error').waitFor();
      await section.getByLabel(sees.newEmail).fill(newAddress);
      await section.getByLabel(sees.password).fill(PASSWORD);
      await section.getByRole('button', { name: sees.send }).click();
      // Announced: the link went to the new address, and nothing changes until it is opened.
      const sent = section.getByRole('status').filter({ hasText: `${sees.sent} ${newAddress}.` });
      await sent.waitFor();
      expect(await sent.innerText()).toContain(sees.keeps);
      await expectNoSidewaysScroll(page);
      await section.scrollIntoViewIfNeeded();
      await shot(page, `email-pending-${suffix}`);

      // The old address is told; the new one gets the link.
      expect((await mailTo(person.email)).text).toContain(newAddress);
      const link = linkOf(await mailTo(newAddress));
      await openLink(page, link, js);
      expect(await h1(page).innerText()).toBe(sees.confirmTitle);
      expect(await page.locator('main').innerText()).toContain(newAddress);
      await shot(page, `email-confirm-${suffix}`);
      await page.getByRole('button', { name: sees.confirm }).click();
      await page.waitForURL((url) => url.pathname === at(locale, '/profile'));
      const saved = page.getByRole('region', { name: sees.section });
      await saved.getByRole('status').filter({ hasText: sees.saved }).waitFor();
      await saved.getByText(newAddress, { exact: true }).waitFor();
      await saved.scrollIntoViewIfNeeded();
      await shot(page, `email-changed-${suffix}`);
      expect(unexpected(problems)).toEqual([]);
      // And the old address is told it changed.
      expect((await mailTo(person.email, 2)).text).toContain(newAddress);
    },
  );
});

describe('a site without a mail server (production, no SMTP_URL)', () => {
  const bare = setupServer({ users: PEOPLE, password: PASSWORD });

  test('the console shows the invitation link once for the admin to pass on, and it works', { timeout: scaled(60_000) }, async () => {
    const admin = await newContext({ viewport: PHONE, js: true, server: bare, locale: 'en' });
    const page = await signIn(admin, 'en', ADMIN.userName, PASSWORD, true);
    await open(page, '/en/admin/users', true);
    await page.locator('details.admin-new-user summary').click();
    const create = page.getByRole('region', { name: 'New user', exact: true });
    await create.getByLabel('User name').fill('hand.delivered');
    await create.getByLabel('Invite by e-mail').check();
    await create.getByLabel('Email', { exact: true }).fill('hand@example.com');
    await create.getByLabel('Name', { exact: true }).fill('Hanna');
    await create.getByLabel('Last name').fill('Entregada');
    await create.getByRole('button', { name: 'Create user' }).click();
    const notice = create.getByRole('status');
    await notice.filter({ hasText: 'This site cannot send e-mail: pass the invitation link of hand.delivered on yourself.' }).waitFor();
    const code = notice.locator('code.admin-secret');
    const link = await code.innerText();
    // In the language the console was in (the form's default), for a user who has none yet.
    expect(link).toMatch(new RegExp(`^${bare.baseURL}/en/invitation\\?token=[A-Za-z0-9_-]{43}$`));
    await expectVisible(code, PHONE.width, 'the link');
    await expectNoSidewaysScroll(page);
    await code.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/console-link-390.png` });
    await notice.getByRole('button', { name: 'Hide link of hand.delivered' }).click();
    await notice.waitFor({ state: 'detached' });
    // The forgotten-password page says it cannot help here.
    await open(page, '/en/forgotPassword', true);
    expect(await page.locator('main').innerText()).toContain('passwords cannot be reset here');

    const invitee = await newContext({ viewport: PHONE, js: true, server: bare });
    const invited = await invitee.newPage();
    await openLink(invited, link.slice(bare.baseURL.length), true);
    await chooseNewPassword(invited, 'en', 'Save and enter');
    await invited.waitForURL('**/en/client');
  });
});

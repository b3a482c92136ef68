// Two-factor authentication in Chromium, as a person uses it: from the profile to the set-up
// page, the QR code on the screen (an inline SVG with a real box), the key read from the page
// and turned into a code as a phone would, the ten recovery codes shown once; then signing in
// again: the password, the code page, a wrong code's message, the right code and the area.
// Twice with JavaScript (Spanish and English), at 1366 and 390 px; and the ADMIN_REQUIRE_2FA
// journey of an administrator, on a server of its own. Screenshots go to /tmp/shots-totp/. The
// same two journeys without JavaScript run in process: test/ui/two-factor.test.ts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, runAxe, setupServer, setupSite, waitForHydration, type Server, type SiteUser } from './fixture.ts';

type Locale = 'es' | 'en';
type Person = { userName: string; role: 'ADMIN' | 'CLI' | 'ORG' | 'CONS'; area: string };

const PASSWORD = 'second factor 1';
const SHOTS = '/tmp/shots-totp';

const SEES = {
  es: {
    signIn: 'Entrar',
    link: 'Verificación en dos pasos',
    title: 'Verificación en dos pasos',
    enable: 'Activar la verificación en dos pasos',
    enabled: 'La verificación en dos pasos está activada.',
    saved: 'He guardado mis códigos',
    isOn: 'La verificación en dos pasos está activada desde el',
    verify: 'Verificar',
    wrong: 'El código no es correcto.',
    required: 'Las personas administradoras deben usar la verificación en dos pasos.',
  },
  en: {
    signIn: 'Sign in',
    link: 'Two-step verification',
    title: 'Two-step verification',
    enable: 'Turn on two-step verification',
    enabled: 'Two-step verification is on.',
    saved: 'I have saved my codes',
    isOn: 'Two-step verification is on since',
    verify: 'Verify',
    wrong: 'The code is not correct.',
    required: 'Administrators must use two-step verification.',
  },
} as const;

type Journey = { locale: Locale; js: boolean; person: Person };
const JOURNEYS: Journey[] = [
  { locale: 'es', js: true, person: { userName: 'tf-carla', role: 'CLI', area: 'client' } },
  { locale: 'en', js: true, person: { userName: 'tf-ernesto', role: 'CONS', area: 'expert' } },
];
const ADMIN: Person = { userName: 'tf-ada', role: 'ADMIN', area: 'admin' };
const AXE_PERSON: Person = { userName: 'tf-axel', role: 'CLI', area: 'client' };

const at = (locale: Locale, path: string) => (locale === 'es' ? path : `/en${path}`);

/** The code a phone shows for the secret, `ahead` steps from now (a step ahead is within the drift allowed). */
function codeOf(secret: string, ahead = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + ahead * 30_000,
  });
}

const users = (people: Person[]): SiteUser[] => people.map(({ userName, role }) => ({ userName, role, name: 'Tess', lastName: 'Factor' }));

const site = setupSite({ users: users([...JOURNEYS.map((j) => j.person), AXE_PERSON]), password: PASSWORD });
const strict = setupServer({ env: { ADMIN_REQUIRE_2FA: 'true' }, users: users([ADMIN]), password: PASSWORD });
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

function newPage(server: Server, js: boolean, axe = false): Promise<Page> {
  // axe-core is injected: only its pages relax the CSP (as test/e2e/a11y.test.ts does); the journeys run under the real one.
  return site.newPage({ server, viewport: DESKTOP, javaScriptEnabled: js, axe, consent: true });
}

async function load(page: Page, path: string, js: boolean) {
  await page.goto(path);
  if (js) await waitForHydration(page);
}

/** Signs in with the password on the login form; the page then shows what comes next. */
async function passwordStep(page: Page, person: Person, locale: Locale, js: boolean) {
  await load(page, at(locale, '/login'), js);
  await page.locator('#login-identifier').fill(person.userName);
  await page.locator('#login-password').fill(PASSWORD);
  await page.locator('main form').getByRole('button', { name: SEES[locale].signIn }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
}

/** Nothing wider than the window (a 390 px phone must not scroll sideways). */
async function expectNoOverflow(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}-1366.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await expectNoOverflow(page);
  await page.screenshot({ path: join(SHOTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
}

/** The QR code is on the screen: an inline <svg> drawn with a real box, and nothing fetched for it. */
async function expectQrVisible(page: Page) {
  const svg = page.locator('.two-factor-qr svg');
  await expect.poll(() => svg.isVisible()).toBe(true);
  const box = (await svg.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(150);
  expect(box.height).toBeGreaterThanOrEqual(150);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  expect(await svg.locator('path').count()).toBeGreaterThan(0);
  await expect.poll(() => page.getByRole('img', { name: /QR/ }).isVisible()).toBe(true);
}

describe.each(JOURNEYS)('two-factor authentication ($locale, JavaScript: $js)', ({ locale, js, person }) => {
  const sees = SEES[locale];
  const name = `${locale}-${js ? 'js' : 'nojs'}`;
  let secret = '';

  it('is set up from the profile: the QR code and the key on the screen, a code turns it on, ten recovery codes once', async () => {
    const page = await newPage(site, js);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await passwordStep(page, person, locale, js);
    expect(new URL(page.url()).pathname).toBe(at(locale, `/${person.area}`));
    await load(page, at(locale, '/profile'), js);
    await page.locator('main').getByRole('link', { name: sees.link }).click();
    await page.waitForURL((url) => url.pathname === at(locale, '/profile/twoFactor'));
    if (js) await waitForHydration(page);
    await expect.poll(() => page.locator('h1').textContent()).toBe(sees.title);
    await expectQrVisible(page);
    secret = ((await page.locator('.two-factor-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shoot(page, `setup-${name}`);

    await page.locator('#twoFactorEnable-code').fill(codeOf(secret));
    await page.getByRole('button', { name: sees.enable }).click();
    await page.getByText(sees.enabled).waitFor();
    const codes = await page.locator('.two-factor-codes li').allTextContents();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await shoot(page, `codes-${name}`);

    await page.getByRole('link', { name: sees.saved }).click();
    await page.getByText(sees.isOn).waitFor();
    expect(await page.locator('.two-factor-codes').count()).toBe(0);
    await shoot(page, `on-${name}`);
    expect(problems).toEqual([]);
  });

  it('then signing in asks for the code after the password; a wrong code is refused on the page, the right one signs in (to the remembered page)', async () => {
    const page = await newPage(site, js);
    await passwordStep(page, person, locale, js);
    expect(new URL(page.url()).pathname).toBe(at(locale, '/login/code'));
    if (js) await waitForHydration(page);
    const field = page.locator('#twoFactor-code');
    await expect.poll(() => field.isVisible()).toBe(true);
    await shoot(page, `code-page-${name}`);
    // Not signed in yet: a private page is still a sign-in away (and is remembered for after it).
    const probe = await page.context().request.get(at(locale, '/profile'), { maxRedirects: 0 });
    expect(probe.headers().location).toBe(at(locale, '/login'));

    const right = codeOf(secret, 1);
    await field.fill(right === '000000' ? '000001' : '000000');
    await page.getByRole('button', { name: sees.verify }).click();
    // Said by the field (the alert above the form only counts the fields to correct).
    await page.locator('#twoFactor-code-error').filter({ hasText: sees.wrong }).waitFor();
    await page.getByRole('alert').first().waitFor();
    await shoot(page, `code-wrong-${name}`);
    await page.locator('#twoFactor-code').fill(right);
    await page.getByRole('button', { name: sees.verify }).click();
    // Signed in, on the page remembered before the sign-in.
    await page.waitForURL((url) => url.pathname === at(locale, '/profile'));
    if (js) await waitForHydration(page);
    expect((await page.context().request.get(at(locale, `/${person.area}`), { maxRedirects: 0 })).status()).toBe(200);
  });
});

describe('ADMIN_REQUIRE_2FA (en, JavaScript)', () => {
  it('sends an administrator without 2FA to the set-up page and keeps them there until it is on', async () => {
    const page = await newPage(strict, true);
    await passwordStep(page, ADMIN, 'en', true);
    await page.waitForURL((url) => url.pathname === '/en/profile/twoFactor');
    await waitForHydration(page);
    await page.getByText(SEES.en.required).waitFor();
    await expectQrVisible(page);
    await shoot(page, 'admin-required-en');
    // Anywhere else leads back here, by a link in the page or by the address bar.
    await page.goto('/en/admin');
    expect(new URL(page.url()).pathname).toBe('/en/profile/twoFactor');
    await page.goto('/en/admin/users');
    expect(new URL(page.url()).pathname).toBe('/en/profile/twoFactor');
    await waitForHydration(page);
    const asked = page.waitForResponse((response) => response.url().includes('/_data?path=%2Fen%2Fblog'));
    await page.locator('header').getByRole('link', { name: 'Blog' }).first().click();
    expect(await (await asked).json()).toEqual({ kind: 'redirect', to: '/en/profile/twoFactor', status: 302 });
    await expect.poll(() => new URL(page.url()).pathname).toBe('/en/profile/twoFactor');

    const secret = ((await page.locator('.two-factor-secret').textContent()) ?? '').replace(/\s/g, '');
    await page.locator('#twoFactorEnable-code').fill(codeOf(secret));
    await page.getByRole('button', { name: SEES.en.enable }).click();
    await page.getByText(SEES.en.enabled).waitFor();
    await page.goto('/en/admin');
    expect(new URL(page.url()).pathname).toBe('/en/admin');
    await page.goto('/en/admin/users');
    expect(new URL(page.url()).pathname).toBe('/en/admin/users');
  });
});

describe('accessibility of the two-factor pages (en, JavaScript)', () => {
  async function expectNoViolations(page: Page, what: string) {
    const results = await runAxe(page);
    const found = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    expect(found, what).toEqual([]);
  }

  it('axe-core reports no violations on the set-up page, the recovery codes, 2FA on, and the code page with and without an error', async () => {
    const page = await newPage(site, true, true);
    await passwordStep(page, AXE_PERSON, 'en', true);
    await load(page, '/en/profile/twoFactor', true);
    await expectNoViolations(page, 'set-up page');
    const secret = ((await page.locator('.two-factor-secret').textContent()) ?? '').replace(/\s/g, '');
    await page.locator('#twoFactorEnable-code').fill(codeOf(secret));
    await page.getByRole('button', { name: SEES.en.enable }).click();
    await page.getByText(SEES.en.enabled).waitFor();
    await expectNoViolations(page, 'recovery codes');
    await page.getByRole('link', { name: SEES.en.saved }).click();
    await page.getByText(SEES.en.isOn).waitFor();
    await expectNoViolations(page, '2FA on');

    const next = await newPage(site, true, true);
    await passwordStep(next, AXE_PERSON, 'en', true);
    await waitForHydration(next);
    await expectNoViolations(next, 'code page');
    await next.locator('#twoFactor-code').fill('abc');
    await next.getByRole('button', { name: SEES.en.verify }).click();
    await next.getByRole('alert').first().waitFor();
    await expectNoViolations(next, 'code page with an error');
  });
});

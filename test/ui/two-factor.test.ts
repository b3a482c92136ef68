// Two-factor authentication without JavaScript, on the app in this process (docs/decisions/047),
// as a person uses it: from the profile to the set-up page, the QR code in the page (an inline
// SVG, nothing fetched for it), the key read from the page and turned into a code as a phone
// would, the ten recovery codes shown once; then signing in again: the password, the code page,
// a wrong code's message, the right code and the remembered page. In Spanish and in English. With
// JavaScript (and the QR code's box on the screen at 1366 and 390 px, axe-core, the
// ADMIN_REQUIRE_2FA journey) it is test/e2e/two-factor.test.ts's.
import { within } from '@testing-library/dom';
import { Secret, TOTP } from 'otpauth';
import { expect, test } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { plainBrowser, textOf, type PlainBrowser, type PlainPage } from '../helpers/plain-browser.ts';
import { scaled } from '../helpers/time-scale.ts';
import { addUser } from '../helpers/users.ts';

type Locale = 'es' | 'en';

const PASSWORD = 'second factor 1';

const SEES = {
  es: {
    link: 'Verificación en dos pasos',
    title: 'Verificación en dos pasos',
    enable: 'Activar la verificación en dos pasos',
    enabled: 'La verificación en dos pasos está activada.',
    saved: 'He guardado mis códigos',
    isOn: 'La verificación en dos pasos está activada desde el',
    verify: 'Verificar',
    wrong: 'El código no es correcto.',
  },
  en: {
    link: 'Two-step verification',
    title: 'Two-step verification',
    enable: 'Turn on two-step verification',
    enabled: 'Two-step verification is on.',
    saved: 'I have saved my codes',
    isOn: 'Two-step verification is on since',
    verify: 'Verify',
    wrong: 'The code is not correct.',
  },
} as const;

const JOURNEYS = [
  { locale: 'es' as Locale, person: { userName: 'tf-olga', role: 'ORG' as const, area: 'organization' } },
  { locale: 'en' as Locale, person: { userName: 'tf-clara', role: 'CLI' as const, area: 'client' } },
];

const at = (locale: Locale, path: string) => (locale === 'es' ? path : `/en${path}`);

/** The code a phone shows for the secret, `ahead` steps from now (a step ahead is within the drift allowed). */
function codeOf(secret: string, ahead = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + ahead * 30_000,
  });
}

/** Presses the form button named `name`. */
function press(browser: PlainBrowser, page: PlainPage, name: string): Promise<PlainPage> {
  return browser.submit(page, within(page.document.body).getByRole('button', { name }) as HTMLButtonElement);
}

test.each(JOURNEYS)(
  'without JavaScript ($locale) two-factor authentication is set up from the profile (QR code, key, a code turns it on, ten recovery codes once), then signing in asks for the code after the password: a wrong code is refused on the page, the right one signs in to the remembered page',
  { timeout: scaled(30_000) },
  async ({ locale, person }) => {
    const { app, db } = await createTestApp();
    await addUser(db, { userName: person.userName, role: person.role, name: 'Tess', lastName: 'Factor', password: PASSWORD });
    const sees = SEES[locale];
    const acceptLanguage = locale === 'es' ? 'es-ES' : 'en-GB';

    // Set up, from the profile.
    const browser = plainBrowser(app, { acceptLanguage });
    let page = await browser.signIn(person.userName, PASSWORD, at(locale, '/login'));
    expect(page.url.pathname).toBe(at(locale, `/${person.area}`));
    page = await browser.open(at(locale, '/profile'));
    page = await browser.follow(page, within(page.document.querySelector('main')!).getByRole('link', { name: sees.link }));
    expect(page.url.pathname).toBe(at(locale, '/profile/twoFactor'));
    expect(textOf(page.document.querySelector('h1'))).toBe(sees.title);
    // The QR code is drawn in the page: an inline <svg> with paths, named as an image.
    expect(page.document.querySelectorAll('.two-factor-qr svg path').length).toBeGreaterThan(0);
    expect(within(page.document.body).getByRole('img', { name: /QR/ })).toBeTruthy();
    const secret = (page.document.querySelector('.two-factor-secret')?.textContent ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    page.document.querySelector<HTMLInputElement>('#twoFactorEnable-code')!.value = codeOf(secret);
    page = await press(browser, page, sees.enable);
    expect(textOf(page.document.body)).toContain(sees.enabled);
    const codes = [...page.document.querySelectorAll('.two-factor-codes li')].map(textOf);
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    page = await browser.follow(page, within(page.document.body).getByRole('link', { name: sees.saved }));
    expect(textOf(page.document.body)).toContain(sees.isOn);
    // Shown once.
    expect(page.document.querySelectorAll('.two-factor-codes')).toHaveLength(0);

    // Signing in again, in a browser of its own.
    const again = plainBrowser(app, { acceptLanguage });
    page = await again.open(at(locale, '/login'));
    page.document.querySelector<HTMLInputElement>('#login-identifier')!.value = person.userName;
    page.document.querySelector<HTMLInputElement>('#login-password')!.value = PASSWORD;
    page = await again.submit(page, page.document.querySelector<HTMLButtonElement>('main form button[type="submit"]')!);
    expect(page.url.pathname).toBe(at(locale, '/login/code'));
    expect(page.document.querySelector('#twoFactor-code')).toBeTruthy();
    // Not signed in yet: a private page is still a sign-in away (and is remembered for after it).
    const probe = await again.get(at(locale, '/profile'));
    expect(probe.headers.location).toBe(at(locale, '/login'));
    const right = codeOf(secret, 1);
    page.document.querySelector<HTMLInputElement>('#twoFactor-code')!.value = right === '000000' ? '000001' : '000000';
    page = await press(again, page, sees.verify);
    // Said by the field (the alert above the form only counts the fields to correct).
    expect(textOf(page.document.querySelector('#twoFactor-code-error'))).toContain(sees.wrong);
    expect(within(page.document.body).getAllByRole('alert').length).toBeGreaterThan(0);
    page.document.querySelector<HTMLInputElement>('#twoFactor-code')!.value = right;
    page = await press(again, page, sees.verify);
    // Signed in, on the page remembered before the sign-in.
    expect(page.url.pathname).toBe(at(locale, '/profile'));
    expect((await again.get(at(locale, `/${person.area}`))).status).toBe(200);
  },
);

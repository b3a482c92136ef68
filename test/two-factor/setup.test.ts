// Setting two-factor authentication up and managing it on /profile/twoFactor, as a browser
// does it (with and without JavaScript): the key on the page (a QR code made on the server and
// the secret as text), turning it on only with a right code, the recovery codes shown once, the
// secret never stored in clear, new recovery codes, turning it off with the password and a code.
import QRCode from 'qrcode';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { ORIGIN } from '../helpers/app.ts';
import { browser, post, secretOnPage, setUpTwoFactor, signInWithPassword, totp, twoFactorSite, wrongCode } from './helpers.ts';

const STEP = 30_000;
let t0: number;
const at = (steps: number) => vi.setSystemTime(t0 + steps * STEP);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  t0 = Math.floor(Date.now() / STEP) * STEP + STEP / 2;
  vi.setSystemTime(t0);
});

afterEach(() => {
  vi.useRealTimers();
});

async function signedIn(env: Record<string, string> = {}) {
  const site = await twoFactorSite([{ userName: 'carla', role: 'CLI' }], env);
  const agent = browser(site.app);
  expect((await signInWithPassword(agent, 'carla')).status).toBe(303);
  return { ...site, agent };
}

test('the set-up page shows the key as a QR code of its otpauth URI (SVG made on the server, inline) and as text to type', async () => {
  const { agent } = await signedIn({ SITE_NAME: 'Acme Consulting' });
  const page = await agent.get('/en/profile/twoFactor');
  expect(page.status).toBe(200);
  expect(page.headers['cache-control']).toBe('private, no-store');
  const secret = secretOnPage(page.text);
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // TOTP, SHA-1, six digits, 30 s; the site's name as issuer, the user name as label.
  const uri = `otpauth://totp/Acme%20Consulting:carla?issuer=Acme%20Consulting&secret=${secret}&algorithm=SHA1&digits=6&period=30`;
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  expect(page.text).toContain(
    `<div class="two-factor-qr" role="img" aria-label="QR code of the key for your authenticator app">${svg}</div>`,
  );
  // Nothing is loaded from elsewhere to draw it.
  expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  // The same key on the next view (a phone that scanned it keeps working).
  expect(secretOnPage((await agent.get('/profile/twoFactor')).text)).toBe(secret);
});

test('a key shown and left unconfirmed for more than an hour is replaced by a new one', async () => {
  const { agent } = await signedIn();
  const first = secretOnPage((await agent.get('/profile/twoFactor')).text);
  vi.setSystemTime(t0 + 59 * 60_000);
  expect(secretOnPage((await agent.get('/profile/twoFactor')).text)).toBe(first);
  vi.setSystemTime(t0 + 61 * 60_000);
  expect(secretOnPage((await agent.get('/profile/twoFactor')).text)).not.toBe(first);
});

test('2FA is turned on only by a right code of the key shown: a wrong code leaves it off', async () => {
  const { app, agent, db, audit } = await signedIn();
  const secret = secretOnPage((await agent.get('/profile/twoFactor')).text);
  const wrong = await post(agent, '/profile/twoFactor', { action: 'enable', code: wrongCode(secret) }, true);
  expect(wrong.status).toBe(422);
  expect(wrong.body.form.error).toMatchObject({ code: 'wrong_two_factor_code', fields: { code: 'validation.wrongTwoFactorCode' } });
  const malformed = await post(agent, '/profile/twoFactor', { action: 'enable', code: 'abcdef' }, true);
  expect(malformed.status).toBe(422);
  expect(malformed.body.form.error.fields).toEqual({ code: 'validation.twoFactorCode' });
  expect((await db.k.selectFrom('two_factor').select('enabled_at').executeTakeFirstOrThrow()).enabled_at).toBeNull();
  expect(audit.entries.map((e) => e.action)).not.toContain('two_factor_enabled');
  // A sign-in still needs the password only.
  const other = await signInWithPassword(browser(app), 'carla');
  expect(other.headers.location).toBe('/client');
});

test('the right code turns 2FA on and answers ten different recovery codes once; the page then shows it on', async () => {
  const { agent, db, audit } = await signedIn();
  const secret = secretOnPage((await agent.get('/profile/twoFactor')).text);
  const right = await post(agent, '/profile/twoFactor', { action: 'enable', code: totp(secret) }, true);
  expect(right.status).toBe(200);
  expect(right.body).toMatchObject({ ok: true, success: 'enabled' });
  const codes = right.body.reveal as string[];
  expect(codes).toHaveLength(10);
  expect(new Set(codes).size).toBe(10);
  for (const code of codes) expect(code).toMatch(/^[abcdefghjkmnpqrstuvwxyz23456789]{5}-[abcdefghjkmnpqrstuvwxyz23456789]{5}$/);
  expect((await db.k.selectFrom('two_factor').select('enabled_at').executeTakeFirstOrThrow()).enabled_at).not.toBeNull();
  expect(audit.entries).toContainEqual(expect.objectContaining({ action: 'two_factor_enabled', actor: 'carla' }));
  const page = await agent.get('/en/profile/twoFactor');
  expect(page.text).toContain('Two-step verification is on since');
  expect(page.text).toContain('You have 10 unused recovery codes.');
  for (const code of codes) expect(page.text).not.toContain(code);
  expect(page.text).not.toContain('two-factor-secret');
  // Turning it on again is refused.
  at(1);
  const again = await post(agent, '/profile/twoFactor', { action: 'enable', code: totp(secret) }, true);
  expect(again.status).toBe(409);
  expect(again.body.form.error.code).toBe('two_factor_already_enabled');
});

test('without JavaScript, turning 2FA on answers the page itself with the recovery codes (once), and errors with the page again', async () => {
  const { agent } = await signedIn();
  const secret = secretOnPage((await agent.get('/en/profile/twoFactor')).text);
  const wrong = await post(agent, '/en/profile/twoFactor', { action: 'enable', code: wrongCode(secret) });
  expect(wrong.status).toBe(422);
  expect(wrong.text).toContain('The code is not correct.');
  expect(secretOnPage(wrong.text)).toBe(secret);
  const right = await post(agent, '/en/profile/twoFactor', { action: 'enable', code: totp(secret) });
  expect(right.status).toBe(200);
  expect(right.headers['cache-control']).toBe('private, no-store');
  expect(right.text).toContain('Two-step verification is on.');
  expect(right.text).toContain('Your recovery codes');
  const codes = [...right.text.matchAll(/<li><code>([a-z2-9]{5}-[a-z2-9]{5})<\/code><\/li>/g)].map((m) => m[1]);
  expect(codes).toHaveLength(10);
  expect(right.text).toContain('href="/en/profile/twoFactor"');
  const after = await agent.get('/en/profile/twoFactor');
  for (const code of codes) expect(after.text).not.toContain(code!);
});

test('the secret is never stored in clear: the row holds it sealed (AES-GCM), and the recovery codes only as keyed digests', async () => {
  const site = await twoFactorSite([{ userName: 'carla', role: 'CLI' }]);
  const { secret, recoveryCodes } = await setUpTwoFactor(browser(site.app), 'carla');
  const row = await site.db.k.selectFrom('two_factor').selectAll().executeTakeFirstOrThrow();
  const stored = JSON.stringify(row);
  expect(row.secret).toMatch(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
  for (const form of [secret, secret.toLowerCase(), Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex')]) {
    expect(stored).not.toContain(form);
  }
  const digests = await site.db.k.selectFrom('two_factor_recovery_codes').selectAll().execute();
  expect(digests).toHaveLength(10);
  const all = JSON.stringify(digests);
  for (const code of recoveryCodes) {
    expect(all).not.toContain(code);
    expect(all).not.toContain(code.replace('-', ''));
  }
});

test('turning 2FA off needs the password and a code: each missing or wrong is refused and 2FA stays on', async () => {
  const site = await twoFactorSite([{ userName: 'carla', role: 'CLI' }]);
  const agent = browser(site.app);
  const { secret } = await setUpTwoFactor(agent, 'carla');
  at(1);
  const cases = [
    { form: { action: 'disable', password: '', code: totp(secret) }, status: 422, code: 'invalid_request' },
    { form: { action: 'disable', password: 'not my password', code: totp(secret) }, status: 422, code: 'wrong_current_password' },
    { form: { action: 'disable', password: 'correct horse battery', code: wrongCode(secret) }, status: 422, code: 'wrong_two_factor_code' },
    { form: { action: 'disable', password: 'correct horse battery', code: '' }, status: 422, code: 'invalid_request' },
  ];
  for (const { form, status, code } of cases) {
    const res = await post(agent, '/profile/twoFactor', form, true);
    expect(res.status, JSON.stringify(form)).toBe(status);
    expect(res.body.form.error.code, JSON.stringify(form)).toBe(code);
  }
  expect(await site.db.k.selectFrom('two_factor').select('user_name').execute()).toHaveLength(1);
  const off = await post(agent, '/profile/twoFactor', { action: 'disable', password: 'correct horse battery', code: totp(secret) });
  expect(off.status).toBe(303);
  expect(off.headers.location).toBe('/profile/twoFactor?saved=disabled');
  expect(await site.db.k.selectFrom('two_factor').select('user_name').execute()).toEqual([]);
  expect(await site.db.k.selectFrom('two_factor_recovery_codes').select('user_name').execute()).toEqual([]);
  expect(site.audit.entries).toContainEqual(
    expect.objectContaining({ action: 'two_factor_disabled', actor: 'carla', detail: { with: 'totp' } }),
  );
  // The password alone signs in again.
  await post(agent, '/logout', {});
  const res = await signInWithPassword(browser(site.app), 'carla');
  expect(res.headers.location).toBe('/client');
});

test('2FA can be turned off with a recovery code instead of the app’s code (the phone is lost)', async () => {
  const site = await twoFactorSite([{ userName: 'carla', role: 'CLI' }]);
  const agent = browser(site.app);
  const { recoveryCodes } = await setUpTwoFactor(agent, 'carla');
  const off = await post(
    agent,
    '/profile/twoFactor',
    { action: 'disable', password: 'correct horse battery', code: recoveryCodes[0]! },
    true,
  );
  expect(off.status).toBe(200);
  expect(off.body).toEqual({ ok: true, redirect: '/profile/twoFactor?saved=disabled', success: 'disabled' });
  expect(site.audit.entries).toContainEqual(expect.objectContaining({ action: 'recovery_code_used', actor: 'carla' }));
});

test('new recovery codes need a code, and replace the old ones: an old one no longer signs in, a new one does', async () => {
  const site = await twoFactorSite([{ userName: 'carla', role: 'CLI' }]);
  const agent = browser(site.app);
  const { secret, recoveryCodes } = await setUpTwoFactor(agent, 'carla');
  const refused = await post(agent, '/profile/twoFactor', { action: 'recoveryCodes', code: wrongCode(secret) }, true);
  expect(refused.status).toBe(422);
  at(1);
  const renewed = await post(agent, '/profile/twoFactor', { action: 'recoveryCodes', code: totp(secret) }, true);
  expect(renewed.status).toBe(200);
  expect(renewed.body.success).toBe('recoveryCodes');
  const fresh = renewed.body.reveal as string[];
  expect(fresh).toHaveLength(10);
  expect(fresh.filter((code) => recoveryCodes.includes(code))).toEqual([]);
  await post(agent, '/logout', {});
  const other = browser(site.app);
  await signInWithPassword(other, 'carla');
  expect((await post(other, '/login/code', { code: recoveryCodes[0]! }, true)).status).toBe(401);
  expect((await post(other, '/login/code', { code: fresh[0]! }, true)).status).toBe(200);
});

test('the set-up page and its forms are for signed-in users only', async () => {
  const site = await twoFactorSite([]);
  const page = await browser(site.app).get('/en/profile/twoFactor');
  expect(page.status).toBe(302);
  expect(page.headers.location).toBe('/en/login');
  const form = await browser(site.app)
    .post('/en/profile/twoFactor')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ action: 'enable', code: '123456' });
  expect(form.status).toBe(303);
  expect(form.headers.location).toBe('/en/login');
});

test('an unknown action is refused with a message naming it', async () => {
  const { agent } = await signedIn();
  const res = await post(agent, '/profile/twoFactor', { action: 'explode', code: '123456' }, true);
  expect(res.status).toBe(400);
  expect(res.body.form.error.message).toBe('Unknown action "explode": use enable, recoveryCodes or disable');
});

test('the profile links to the set-up page', async () => {
  const { agent } = await signedIn();
  expect((await agent.get('/en/profile')).text).toMatch(/<a href="\/en\/profile\/twoFactor"[^>]*>Two-step verification<\/a>/);
});

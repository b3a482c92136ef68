import request from 'supertest';
import { expect, test } from 'vitest';
import { createTestApp, ORIGIN } from './helpers/app.ts';

const IDS = { ANALYTICS_GTM_ID: 'GTM-ABC1234', ANALYTICS_GA_ID: 'G-ABCDEF1234' };
const cspOf = (res: request.Response) => String(res.headers['content-security-policy']);

test('without a choice the cookie banner is in the first paint and no analytics load', async () => {
  const { app } = await createTestApp(IDS);
  const res = await request(app).get('/en');
  expect(res.text).toContain('class="cookie-banner"');
  expect(res.text).toContain('Accept all');
  expect(res.text).not.toContain('googletagmanager.com/gtm.js');
  expect(cspOf(res)).not.toContain('googletagmanager');
});

/** The cookie banner's markup in a page (empty when there is none). */
const bannerOf = (html: string) => /<section class="cookie-banner"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
const buttonsOf = (banner: string) => [...banner.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]);

test('with no analytics configured the banner only informs: necessary cookies, the policy link and one "OK", no question and no Analytics switch', async () => {
  const { app } = await createTestApp();
  for (const [path, text, ok, policy] of [
    ['/en', 'We only use the cookies this site needs', 'OK', 'href="/en/cookies"'],
    ['/', 'Solo usamos las cookies que este sitio necesita', 'Entendido', 'href="/cookies"'],
  ] as const) {
    const banner = bannerOf((await request(app).get(path)).text);
    expect(banner, path).toContain(text);
    expect(banner, path).toContain(policy);
    expect(buttonsOf(banner), path).toEqual([ok]);
    // A form post like the other choices (no JavaScript needed).
    expect(banner).toMatch(/<form [^>]*action="(\/en)?\/consent" method="post">/);
    expect(banner).toMatch(/<button type="submit" value="notice" [^>]*name="choice">/);
    expect(banner).not.toContain('name="analytics"');
    expect(banner).not.toMatch(/Accept all|Aceptar todas|Only necessary|Solo las necesarias|Settings|Configurar/);
  }
});

test('with ANALYTICS_GA_ID set the banner asks as before: accept all, only necessary, settings', async () => {
  const { app } = await createTestApp({ ANALYTICS_GA_ID: IDS.ANALYTICS_GA_ID });
  const banner = bannerOf((await request(app).get('/en')).text);
  expect(banner).toContain('analytics cookies');
  expect(buttonsOf(banner)).toEqual(['Accept all', 'Only necessary', 'Settings']);
  expect(banner).not.toContain('>OK<');
});

test('"OK" of the notice is remembered for a year and loads nothing; once analytics are configured that visitor is asked', async () => {
  const { app } = await createTestApp();
  const ok = await request(app).post('/en/consent').set('Origin', ORIGIN).type('form').send({ choice: 'notice', redirect: '/en/blog' });
  expect(ok.status).toBe(303);
  expect(ok.headers.location).toBe('/en/blog');
  expect(String(ok.headers['set-cookie'])).toMatch(/cookie_consent=v1%3Anotice;.*Max-Age=31536000/);
  const read = 'cookie_consent=v1%3Anotice';
  expect(bannerOf((await request(app).get('/en').set('Cookie', read)).text)).toBe('');

  const { app: withIds } = await createTestApp(IDS);
  const later = await request(withIds).get('/en').set('Cookie', read);
  expect(buttonsOf(bannerOf(later.text))).toEqual(['Accept all', 'Only necessary', 'Settings']);
  expect(later.text).not.toContain('googletagmanager.com/gtm.js');
  expect(cspOf(later)).not.toContain('googletagmanager');
});

test('analytics load only after consent and only when their ids are configured; the CSP allows their hosts only then', async () => {
  const { app } = await createTestApp(IDS);
  const accepted = await request(app).get('/en').set('Cookie', 'cookie_consent=v1:analytics=1');
  expect(accepted.text).not.toContain('class="cookie-banner"');
  const nonce = /'nonce-([^']+)'/.exec(cspOf(accepted))![1];
  expect(accepted.text).toContain(
    `<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABCDEF1234" nonce="${nonce}"></script>`,
  );
  expect(accepted.text).toContain("'GTM-ABC1234'");
  expect(cspOf(accepted)).toMatch(/script-src 'self' 'nonce-[^']+' https:\/\/www\.googletagmanager\.com/);
  expect(cspOf(accepted)).toContain('https://*.google-analytics.com');

  const rejected = await request(app).get('/en').set('Cookie', 'cookie_consent=v1:analytics=0');
  expect(rejected.text).not.toContain('googletagmanager');
  expect(cspOf(rejected)).not.toContain('googletagmanager');

  const { app: noIds } = await createTestApp();
  const consentedWithoutIds = await request(noIds).get('/en').set('Cookie', 'cookie_consent=v1:analytics=1');
  expect(consentedWithoutIds.text).not.toContain('googletagmanager');
  expect(cspOf(consentedWithoutIds)).not.toContain('googletagmanager');
});

test('the choice is remembered for a year (POST /consent works without JavaScript)', async () => {
  const { app } = await createTestApp(IDS);
  const res = await request(app).post('/en/consent').set('Origin', ORIGIN).type('form').send({ choice: 'all', redirect: '/en/blog' });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/en/blog');
  const cookie = String(res.headers['set-cookie']);
  expect(cookie).toMatch(/cookie_consent=v1%3Aanalytics%3D1/);
  expect(cookie).toMatch(/Max-Age=31536000/);
  const reject = await request(app)
    .post('/consent')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ choice: 'necessary', redirect: '//evil.com' });
  expect(reject.headers.location).toBe('/');
  expect(String(reject.headers['set-cookie'])).toMatch(/cookie_consent=v1%3Aanalytics%3D0/);
  const custom = await request(app)
    .post('/consent')
    .set('Origin', ORIGIN)
    .set('Accept', 'application/json')
    .type('form')
    .send({ choice: 'custom', analytics: 'yes' });
  expect(custom.body).toEqual({ ok: true, analytics: true });
});

test('a malformed consent cookie counts as no choice', async () => {
  const { app } = await createTestApp(IDS);
  const res = await request(app).get('/en').set('Cookie', 'cookie_consent=<script>');
  expect(res.text).toContain('class="cookie-banner"');
  expect(res.text).not.toContain('googletagmanager.com/gtm.js');
});

test('invalid analytics ids stop the server at start, naming the variable', async () => {
  await expect(createTestApp({ ANALYTICS_GTM_ID: "GTM-1');alert(1)//" })).rejects.toThrow(/ANALYTICS_GTM_ID/);
});

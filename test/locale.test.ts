import cookieParser from 'cookie-parser';
import express from 'express';
import request from 'supertest';
import { expect, test } from 'vitest';
import { i18nMiddleware, projectI18n } from '../server/i18n/index.ts';
import { rootLocaleRedirect } from '../server/i18n/root-redirect.ts';
import { isLocale, LOCALE_CODES, type Locale } from '../shared/locales.ts';
import { switchLocalePath } from '../shared/routes.ts';
import { testApp } from './helpers/app.ts';

test('only the codes of the locale table are locales (the whitelist before any path)', () => {
  for (const code of LOCALE_CODES) expect(isLocale(code), code).toBe(true);
  // zz is a user-assigned code in ISO 3166 and no language's in ISO 639: it can never be a locale.
  for (const bad of ['zz', 'EN', '../en', 'en/../../etc', '', null, undefined, 'constructor', '__proto__']) {
    expect(isLocale(bad), String(bad)).toBe(false);
  }
});

/** The detector and the root redirect alone, as server/app.ts mounts them (cookies parsed first). */
function detecting(localeCookie: boolean) {
  const app = express();
  app.use(cookieParser());
  app.use(i18nMiddleware(projectI18n(), { localeCookie }));
  app.get('/', rootLocaleRedirect({ cookieEnabled: localeCookie }));
  app.use((req, res) => {
    res.json({ language: req.language });
  });
  return app;
}

/** What a request comes to: its language, or the redirect of the bare root. */
type Outcome = Locale | `→ ${string}`;
type Row = { url: string; cookie?: string; accept?: string; off: Outcome; on: Outcome };

// The URL prefix; at the bare root only, the cookie (when on), then Accept-Language
// (first supported language by quality); else es.
const ROWS: Row[] = [
  // The URL prefix decides, whatever the cookie and the browser say.
  { url: '/en/blog', cookie: 'es', accept: 'es', off: 'en', on: 'en' },
  { url: '/en', accept: 'es', off: 'en', on: 'en' },
  { url: '/es/blog', cookie: 'en', accept: 'en', off: 'es', on: 'es' },
  { url: '/es', cookie: 'en', accept: 'en', off: 'es', on: 'es' },
  { url: '/en/blog?lng=es', accept: 'es', off: 'en', on: 'en' },
  // An unprefixed path other than the root is Spanish: neither cookie nor browser moves it.
  { url: '/blog', cookie: 'en', accept: 'en', off: 'es', on: 'es' },
  { url: '/Contact', cookie: 'en', accept: 'en-US', off: 'es', on: 'es' },
  // Only the table's codes, exactly as the route table reads them, are prefixes.
  { url: '/EN/blog', accept: 'en', off: 'es', on: 'es' },
  { url: '/en-GB/blog', accept: 'en', off: 'es', on: 'es' },
  { url: '/english', accept: 'en', off: 'es', on: 'es' },
  { url: '//en/blog', accept: 'en', off: 'es', on: 'es' },
  { url: '/zz/blog', accept: 'en', off: 'es', on: 'es' },
  { url: '/?lng=en', off: 'es', on: 'es' },
  // The bare root: Accept-Language, the first supported language by quality.
  { url: '/', off: 'es', on: 'es' },
  { url: '/', accept: 'en-GB,en;q=0.9', off: '→ /en', on: '→ /en' },
  { url: '/', accept: 'en-US,en;q=0.9,es;q=0.8', off: '→ /en', on: '→ /en' },
  { url: '/', accept: 'es-ES,es;q=0.9,en;q=0.8', off: 'es', on: 'es' },
  { url: '/', accept: 'zz-ZZ,zz;q=0.9,en;q=0.5', off: '→ /en', on: '→ /en' },
  { url: '/', accept: 'es;q=0.2,en;q=0.9', off: '→ /en', on: '→ /en' },
  { url: '/', accept: 'en-GB;q=0.5, es-419;q=0.6', off: 'es', on: 'es' },
  { url: '/', accept: 'EN-us', off: '→ /en', on: '→ /en' },
  { url: '/', accept: 'xx,zz', off: 'es', on: 'es' },
  // q=0 is "not acceptable", never a preference.
  { url: '/', accept: 'en;q=0', off: 'es', on: 'es' },
  { url: '/', accept: 'zz, en;q=0.0, es;q=0.1', off: 'es', on: 'es' },
  { url: '/', accept: 'en-GB ; q=0, en;q=0.5', off: '→ /en', on: '→ /en' },
  // Garbage never throws and never becomes a locale.
  { url: '/', accept: '*', off: 'es', on: 'es' },
  { url: '/', accept: '', off: 'es', on: 'es' },
  { url: '/', accept: ';;;,,,q=abc', off: 'es', on: 'es' },
  { url: '/', accept: 'english, eng', off: 'es', on: 'es' },
  { url: '/', accept: 'x'.repeat(5000), off: 'es', on: 'es' },
  { url: '/', accept: '../../etc/passwd, __proto__, constructor', off: 'es', on: 'es' },
  // The query stays with the redirect.
  { url: '/?utm_source=news&x=1', accept: 'en', off: '→ /en?utm_source=news&x=1', on: '→ /en?utm_source=news&x=1' },
  // The cookie: ignored when off; when on, it wins at the root (and only there).
  { url: '/', cookie: 'en', accept: 'es', off: 'es', on: '→ /en' },
  { url: '/', cookie: 'en', off: 'es', on: '→ /en' },
  { url: '/', cookie: 'es', accept: 'en', off: '→ /en', on: 'es' },
  { url: '/', cookie: 'EN', accept: 'es', off: 'es', on: '→ /en' },
  { url: '/', cookie: 'zz', accept: 'en', off: '→ /en', on: '→ /en' },
  { url: '/', cookie: '../../etc', accept: 'es', off: 'es', on: 'es' },
  { url: '/', cookie: '../../etc', accept: 'en', off: '→ /en', on: '→ /en' },
  { url: '/', cookie: '__proto__', accept: 'en', off: '→ /en', on: '→ /en' },
  { url: '/', cookie: '%E0%A4%A', accept: 'es', off: 'es', on: 'es' },
  { url: '/', cookie: '', accept: 'en', off: '→ /en', on: '→ /en' },
];

const CASES = ROWS.flatMap((row) =>
  ([false, true] as const).map((localeCookie) => ({ ...row, localeCookie, expected: localeCookie ? row.on : row.off })),
);

test.each(CASES)(
  '$url with cookie $cookie (LOCALE_COOKIE $localeCookie) and Accept-Language $accept → $expected',
  async ({ url, cookie, accept, localeCookie, expected }) => {
    let call = request(detecting(localeCookie)).get(url);
    if (cookie !== undefined) call = call.set('Cookie', `i18n_redirected=${cookie}`);
    if (accept !== undefined) call = call.set('Accept-Language', accept);
    const res = await call;
    if (expected.startsWith('→ ')) {
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(expected.slice(2));
      expect(res.headers['content-language']).toBe(expected.slice(3, 5));
    } else {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ language: expected });
      expect(res.headers['content-language']).toBe(expected);
    }
    // The answer at / depends on the headers the detector read there; elsewhere on the URL alone.
    const path = url.split('?')[0];
    const vary = (res.headers.vary ?? '').split(/\s*,\s*/);
    expect(vary.includes('Accept-Language'), res.headers.vary).toBe(path === '/');
    expect(vary.includes('Cookie'), res.headers.vary).toBe(path === '/' && localeCookie);
    // The detector only reads: it never writes the cookie.
    expect(res.headers['set-cookie']).toBeUndefined();
  },
);

test('a HEAD of the bare root is redirected like a GET; a POST is not', async () => {
  const app = detecting(false);
  const head = await request(app).head('/').set('Accept-Language', 'en');
  expect(head.status).toBe(302);
  expect(head.headers.location).toBe('/en');
  const post = await request(app).post('/').set('Accept-Language', 'en');
  expect(post.status).toBe(200);
  expect(post.body).toEqual({ language: 'en' });
});

test('the bare root redirects an English browser to /en with Vary: Accept-Language', async () => {
  const res = await request(await testApp())
    .get('/')
    .set('Accept-Language', 'en-GB,en;q=0.9');
  expect(res.status).toBe(302);
  expect(res.headers.location).toBe('/en');
  expect(res.headers.vary).toMatch(/Accept-Language/);
});

test('the bare root serves Spanish to a Spanish or unknown browser, with Vary: Accept-Language', async () => {
  for (const language of ['es-ES,es;q=0.9', 'zz-ZZ', '']) {
    const res = await request(await testApp())
      .get('/')
      .set('Accept-Language', language);
    expect(res.status, language).toBe(200);
    expect(res.text).toContain('<html lang="es">');
    expect(res.headers.vary).toMatch(/Accept-Language/);
  }
});

test('a URL prefix decides the locale, whatever the browser says', async () => {
  const app = await testApp();
  const en = await request(app).get('/en/blog').set('Accept-Language', 'es');
  expect(en.text).toContain('<html lang="en">');
  expect(en.headers['content-language']).toBe('en');
  const es = await request(app).get('/es/blog').set('Accept-Language', 'en');
  expect(es.text).toContain('<html lang="es">');
  const unprefixed = await request(app).get('/blog').set('Accept-Language', 'en');
  expect(unprefixed.status).toBe(200);
  expect(unprefixed.text).toContain('<html lang="es">');
});

test('the i18n_redirected cookie is ignored by default', async () => {
  const res = await request(await testApp())
    .get('/')
    .set('Cookie', 'i18n_redirected=en')
    .set('Accept-Language', 'es');
  expect(res.status).toBe(200);
});

test('when enabled, the i18n_redirected cookie takes priority at / over Accept-Language', async () => {
  const app = await testApp({ LOCALE_COOKIE: 'true' });
  const toEn = await request(app).get('/').set('Cookie', 'i18n_redirected=en').set('Accept-Language', 'es');
  expect(toEn.status).toBe(302);
  expect(toEn.headers.location).toBe('/en');
  expect(toEn.headers.vary).toMatch(/Cookie/);
  const stayEs = await request(app).get('/').set('Cookie', 'i18n_redirected=es').set('Accept-Language', 'en');
  expect(stayEs.status).toBe(200);
  const garbage = await request(app).get('/').set('Cookie', 'i18n_redirected=../../etc').set('Accept-Language', 'es');
  expect(garbage.status).toBe(200);
});

test.each([
  ['index', {}, 'es', '/es'],
  ['index', {}, 'en', '/en'],
  ['blog', {}, 'es', '/blog'],
  ['blog', {}, 'en', '/en/blog'],
  ['blog-slug', { slug: 'a-post' }, 'es', '/blog/a-post'],
  ['Contact', {}, 'en', '/en/Contact'],
] as const)(
  'the switcher links %s to %s in %s as %s (Spanish home is /es: / would send an English browser back)',
  (base, params, locale, path) => {
    expect(switchLocalePath(base, params, locale)).toBe(path);
  },
);

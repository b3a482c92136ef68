import request from 'supertest';
import { expect, test } from 'vitest';
import { isLocale, preferredLocale, resolveRootLocale } from '../shared/locales.ts';
import { switchLocalePath } from '../shared/routes.ts';
import { testApp } from './helpers/app.ts';

test('only es and en are locales (the whitelist before any path)', () => {
  expect(isLocale('es')).toBe(true);
  expect(isLocale('en')).toBe(true);
  for (const bad of ['fr', 'EN', '../en', 'en/../../etc', '', null, undefined, 'constructor', '__proto__']) {
    expect(isLocale(bad), String(bad)).toBe(false);
  }
});

test.each([
  ['en-US,en;q=0.9,es;q=0.8', 'en'],
  ['es-ES,es;q=0.9,en;q=0.8', 'es'],
  ['fr-FR,fr;q=0.9,en;q=0.5', 'en'],
  ['de,fr', null],
  ['es;q=0.2,en;q=0.9', 'en'],
  ['en;q=0', null],
  ['*', null],
  ['', null],
  [';;;,,,q=abc', null],
  ['x'.repeat(5000), null],
])('preferredLocale(%j) is the first supported language by quality: %s', (header, expected) => {
  expect(preferredLocale(header)).toBe(expected);
});

test('the root locale comes from the cookie (when given) before Accept-Language, else es', () => {
  expect(resolveRootLocale({ cookie: 'en', acceptLanguage: 'es' })).toBe('en');
  expect(resolveRootLocale({ cookie: 'es', acceptLanguage: 'en' })).toBe('es');
  expect(resolveRootLocale({ cookie: 'xx', acceptLanguage: 'en' })).toBe('en');
  expect(resolveRootLocale({ acceptLanguage: 'de' })).toBe('es');
  expect(resolveRootLocale({})).toBe('es');
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
  for (const language of ['es-ES,es;q=0.9', 'de-DE', '']) {
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

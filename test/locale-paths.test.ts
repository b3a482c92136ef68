// The two rules of a path's locale (shared/locales.ts), which every handler, link and form of the
// site goes through: localeOf (the locale a path is in, by its first segment exactly) and
// localeHref (a path in a locale's form: the default locale unprefixed, the others under their
// prefix). The route table's own forms and the last-resort page are held to them.
import express from 'express';
import request from 'supertest';
import { expect, test } from 'vitest';
import { errorHandler } from '../server/http/error-handler.ts';
import { lastResortPage } from '../server/render/render-page.tsx';
import { defaultLocale, localeHref, localeOf, type Locale } from '../shared/locales.ts';
import { BASE_ROUTES, formOfPath, localePath, ROUTES } from '../shared/routes.ts';

test.each([
  // The first segment, exactly: a locale's code and nothing else.
  { path: '/en', locale: 'en', rule: '/en alone is English' },
  { path: '/en/', locale: 'en', rule: '/en/ is English' },
  { path: '/en/x', locale: 'en', rule: '/en/x is English' },
  { path: '/en/blog/a-post', locale: 'en', rule: 'a deep /en/ path is English' },
  { path: '/es', locale: 'es', rule: '/es alone is Spanish' },
  { path: '/es/x', locale: 'es', rule: '/es/x is Spanish' },
  // Anything else is the default locale's, Spanish.
  { path: '/', locale: 'es', rule: 'the root is Spanish' },
  { path: '', locale: 'es', rule: 'an empty path is Spanish' },
  { path: '/x', locale: 'es', rule: 'an unprefixed path is Spanish' },
  { path: '/entries', locale: 'es', rule: '/entries is Spanish (it only starts with the letters en)' },
  { path: '/english', locale: 'es', rule: '/english is Spanish' },
  { path: '/en-GB/x', locale: 'es', rule: '/en-GB/x is Spanish' },
  { path: '/EN/x', locale: 'es', rule: '/EN/x is Spanish (codes are lower case)' },
  { path: '//en/x', locale: 'es', rule: '//en/x is Spanish (its first segment is empty)' },
  { path: '/x/en', locale: 'es', rule: '/x/en is Spanish (only the first segment counts)' },
  { path: '/zz/x', locale: 'es', rule: '/zz/x is Spanish (zz is no language’s code, so never a locale)' },
  { path: '/constructor', locale: 'es', rule: '/constructor is Spanish' },
] as const)('localeOf: $rule', ({ path, locale }) => {
  expect(localeOf(path)).toBe(locale);
});

test.each([
  { path: '/', locale: 'es', href: '/', rule: 'the Spanish home is the bare root' },
  { path: '/', locale: 'en', href: '/en', rule: 'the English home is /en, without a trailing slash' },
  { path: '/logout', locale: 'es', href: '/logout', rule: 'Spanish paths are unprefixed' },
  { path: '/logout', locale: 'en', href: '/en/logout', rule: 'English paths are under /en' },
  { path: '/documents/users.pdf', locale: 'en', href: '/en/documents/users.pdf', rule: 'a deep path keeps every segment' },
] as const)('localeHref: $rule', ({ path, locale, href }) => {
  expect(localeHref(path, locale)).toBe(href);
});

test('the default locale is Spanish, and the only one linked unprefixed', () => {
  expect(defaultLocale).toBe('es');
});

test.each(ROUTES.map((route) => ({ name: route.name, fullPath: route.fullPath, locale: route.locale, prefixed: route.prefixed })))(
  'route $name ($fullPath) is in its own locale by localeOf, and formOfPath finds its form',
  ({ fullPath, locale, prefixed }) => {
    expect(localeOf(fullPath)).toBe(locale);
    expect(formOfPath(fullPath)).toEqual({ locale, prefixed });
  },
);

const WITHOUT_PARAMS = BASE_ROUTES.filter((route) => !route.path.includes(':'));
test.each(WITHOUT_PARAMS.flatMap((route) => (['es', 'en'] as const).map((locale) => ({ base: route.base, path: route.path, locale }))))(
  'localeHref($path, $locale) is the link the route table makes (localePath)',
  ({ base, path, locale }) => {
    expect(localeHref(path, locale)).toBe(localePath(base, locale));
    expect(localeOf(localeHref(path, locale))).toBe(locale);
  },
);

/** The last-resort page of a request that failed, in the language of its path. */
async function lastResortLanguage(path: string): Promise<Locale | undefined> {
  const app = express();
  app.use(() => {
    throw new Error('boom');
  });
  app.use(errorHandler({ logger: { error: () => undefined, warn: () => undefined } as never, isProduction: true, lastResortPage }));
  const res = await request(app).get(path).set('Accept', 'text/html');
  expect(res.status).toBe(500);
  return /<html lang="(\w+)"/.exec(res.text)?.[1] as Locale | undefined;
}

test.each([
  { path: '/en/blog', locale: 'en' },
  { path: '/en', locale: 'en' },
  { path: '/entries', locale: 'es' },
  { path: '/es/blog', locale: 'es' },
  { path: '/blog', locale: 'es' },
] as const)('the last-resort page of a failed $path is in $locale (localeOf)', async ({ path, locale }) => {
  expect(await lastResortLanguage(path)).toBe(locale);
});

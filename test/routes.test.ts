import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../scripts/build-state.ts';
import { runGuards, UnknownMiddlewareError } from '../shared/guards.ts';
import { defaultLocale, LOCALE_CODES, type Locale } from '../shared/locales.ts';
import {
  BASE_ROUTES,
  fillParams,
  formOfPath,
  localeForms,
  localePath,
  matchRoute,
  routeByName,
  ROUTES,
  type BaseRoute,
  type Route,
} from '../shared/routes.ts';
import { confinedArea, hasRole, roleArea } from '../shared/user.ts';
import { sampleParams, SAMPLES, type Sample } from './helpers/sample-urls.ts';

// Every route exists unprefixed (in the default locale) and under the prefix of each locale of the table.
const FORMS: readonly { label: string; prefix: string; locale: Locale; suffix: string }[] = [
  { label: 'unprefixed', prefix: '', locale: defaultLocale, suffix: `___${defaultLocale}___default` },
  ...LOCALE_CODES.map((locale) => ({ label: `/${locale}`, prefix: `/${locale}`, locale, suffix: `___${locale}` })),
];

/** The paths of the specification's route table (docs/specification.md §4.2): the second cell of each row. */
function specificationPaths(): string[] {
  const spec = readFileSync(join(ROOT, 'docs', 'specification.md'), 'utf8');
  const section = spec.slice(spec.indexOf('\n## 4. Routes'), spec.indexOf('\n## 5.'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*(Name|-)/.test(line))
    .flatMap((line) => [...line.split('|')[2]!.matchAll(/`(\/[^`]*)`/g)].map((match) => match[1]!));
}

const TABLE: readonly BaseRoute[] = BASE_ROUTES;

// The console's sections: a page of its own under /admin for each (docs/decisions/039).
const CONSOLE_SECTIONS = TABLE.filter((route) => /^\/admin\/[a-z]+$/.test(route.path)).map((route) => route.base);

test.each(CONSOLE_SECTIONS)(
  'the console page %s is guarded like /admin (signed in, role, isAdmin), in the admin area, not indexed, its own page',
  (base) => {
    const admin = BASE_ROUTES.find((r) => r.base === 'admin')!;
    const route = BASE_ROUTES.find((r) => r.base === base)!;
    expect(route).toMatchObject({ public: false, guards: admin.guards, indexable: false, area: 'admin', page: base });
  },
);

test('/admin/projects is the console’s projects page and /admin/projects/7 a project', () => {
  expect(matchRoute('/en/admin/projects')).toMatchObject({ kind: 'route', route: { name: 'admin-projects___en' } });
  expect(matchRoute('/admin/projects/7')).toMatchObject({
    kind: 'route',
    route: { name: 'admin-project___es___default' },
    params: { id: '7' },
  });
});

test('the route table holds every route of the specification (docs/specification.md §4.2): its path, or a 301 to it', () => {
  const paths = specificationPaths();
  expect(paths.length).toBeGreaterThan(10);
  const missing = paths.filter((path) => !TABLE.some((route) => route.path === path) && matchRoute(path)?.kind !== 'redirect');
  expect(missing).toEqual([]);
  expect(ROUTES).toHaveLength(BASE_ROUTES.length * (LOCALE_CODES.length + 1));
});

// Every route of the table, in each form, with its sample's parameters (test/helpers/sample-urls.ts).
const cases = TABLE.flatMap(({ base, path }) => FORMS.map((form) => ({ base, path, ...form })));

test.each(cases)(
  'route $base in the $label form is named base___locale(___default) and matches its path',
  ({ base, path, prefix, locale, suffix }) => {
    const name = `${base}${suffix}`;
    const route = routeByName(name);
    expect(route, name).toBeDefined();
    const concrete = fillParams(path, sampleParams(base, locale));
    const url = path === '/' ? prefix || '/' : prefix + concrete;
    const match = matchRoute(url);
    expect(match).toMatchObject({ kind: 'route', route: { name, locale } });
  },
);

test.each(TABLE)('localePath($base) links the default locale unprefixed and every other locale under its prefix', ({ base, path }) => {
  for (const locale of LOCALE_CODES) {
    const params = sampleParams(base, locale);
    const unprefixed = fillParams(path, params);
    const expected = locale === defaultLocale ? unprefixed : path === '/' ? `/${locale}` : `/${locale}${unprefixed}`;
    expect(localePath(base, locale, params), locale).toBe(expected);
  }
});

test('unmatched paths match nothing (the error page answers 404)', () => {
  // zz is no language's code, so /zz is never a locale's prefix.
  for (const path of ['/nope', '/en/nope', '/zz/blog', '/blog/a/b', '/blog/UPPER', '/es/en', '/blog/-x']) {
    expect(matchRoute(path), path).toBeNull();
  }
});

test('/contact redirects 301 to /Contact (the canonical capital C)', () => {
  expect(matchRoute('/contact')).toEqual({ kind: 'redirect', location: '/Contact', status: 301 });
  expect(matchRoute('/en/contact')).toEqual({ kind: 'redirect', location: '/en/Contact', status: 301 });
});

test('a trailing slash redirects 301 to the path without it', () => {
  expect(matchRoute('/blog/')).toEqual({ kind: 'redirect', location: '/blog', status: 301 });
  expect(matchRoute('/en/')).toEqual({ kind: 'redirect', location: '/en', status: 301 });
});

test('the locale of a path comes from its prefix, else the default es', () => {
  expect(formOfPath('/en/blog')).toEqual({ locale: 'en', prefixed: true });
  expect(formOfPath('/es')).toEqual({ locale: 'es', prefixed: true });
  expect(formOfPath('/blog')).toEqual({ locale: 'es', prefixed: false });
  expect(formOfPath('/english')).toEqual({ locale: 'es', prefixed: false });
});

test('private pages run the auth guard first; the pages a signed-out visitor sees (their sample names no role) opt out', () => {
  for (const route of ROUTES) {
    const seenSignedOut = (SAMPLES as Record<string, Sample>)[route.base]?.role === undefined;
    if (seenSignedOut) expect(route.allGuards, route.name).not.toContain('auth');
    else expect(route.allGuards[0], route.name).toBe('auth');
  }
});

test("an unknown guard name is a 500 'Unknown middleware {name}'", () => {
  const route: Route = { ...routeByName('blog___en')!, allGuards: ['nonexistent'] };
  let caught: unknown;
  try {
    runGuards({ route, params: {}, url: '/en/blog', user: null });
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(UnknownMiddlewareError);
  expect((caught as UnknownMiddlewareError).status).toBe(500);
  expect((caught as Error).message).toBe('Unknown middleware nonexistent');
});

test.each([
  { role: 'ADMIN', area: 'admin', confined: undefined },
  { role: 'CLI', area: 'client', confined: 'client' },
  { role: 'ORG', area: 'organization', confined: 'organization' },
  { role: 'CONS', area: 'expert', confined: 'expert' },
  // Roles the site does not know, including the names of Object's own properties.
  { role: 'GUEST', area: undefined, confined: undefined },
  { role: 'constructor', area: undefined, confined: undefined },
  { role: '__proto__', area: undefined, confined: undefined },
])('role $role: its area (the navbar link) is $area, the area it is confined to $confined', ({ role, area, confined }) => {
  expect(roleArea(role)).toBe(area);
  expect(confinedArea(role)).toBe(confined);
  // Every area is a route.
  if (area) expect(localePath(area, 'en')).toBe(`/en/${area}`);
});

test('the role guard sends an unknown role named like an Object property home, like any other unknown role', () => {
  const route = routeByName('client___en')!;
  const user = { name: 'A', lastName: 'B', userName: 'ab', role: 'constructor', avatar: null, scope: [] };
  expect(runGuards({ route, params: {}, url: '/en/client', user })).toEqual({ kind: 'redirect', to: '/en' });
});

test('every locale form of a path that is not a page comes from the route forms (unprefixed, then each locale’s prefix)', () => {
  for (const path of ['/logout', '/documents/users.pdf']) {
    expect(localeForms(path)).toEqual([path, ...LOCALE_CODES.map((locale) => `/${locale}${path}`)]);
  }
});

test.each([
  [{ role: 'ADMIN' }, true],
  [{ role: 'CLI' }, false],
  [{ role: 'admin' }, false],
  [{ role: 'constructor' }, false],
  [null, false],
  [undefined, false],
] as const)('the one role check: %j is ADMIN → %s (pages, API, PDFs and the backend all ask it)', (user, admin) => {
  expect(hasRole(user, 'ADMIN')).toBe(admin);
});

// The sample of every page (test/helpers/sample-urls.ts), from which the tests' lists of pages
// are made: one for every route of the table and none for a route that is not, each URL its own
// route's in every form, and each seen by someone the route's guards let in.
import { expect, test } from 'vitest';
import { defaultLocale, LOCALE_CODES } from '../shared/locales.ts';
import { BASE_ROUTES, matchRoute, ROUTE_FORMS, type BaseRoute } from '../shared/routes.ts';
import { roleArea } from '../shared/user.ts';
import { LINKED_FORMS, samplePages, samplePagesInEveryForm, SAMPLES, type Sample } from './helpers/sample-urls.ts';

const BASES = BASE_ROUTES.map((route) => route.base);

test('every route of the route table has a sample URL', () => {
  const missing = BASES.filter((base) => !Object.hasOwn(SAMPLES, base));
  expect(missing, `no sample in test/helpers/sample-urls.ts for ${missing.join(', ')}`).toEqual([]);
});

test('the samples name no route the route table does not have', () => {
  const unknown = Object.keys(SAMPLES).filter((base) => !(BASES as readonly string[]).includes(base));
  expect(unknown, `test/helpers/sample-urls.ts has samples of routes that do not exist: ${unknown.join(', ')}`).toEqual([]);
});

test.each(samplePagesInEveryForm())('the sample $url is a URL of its own route, $base', ({ base, url, locale }) => {
  expect(matchRoute(url)).toMatchObject({ kind: 'route', route: { base, locale } });
});

test.each(BASE_ROUTES.map((route: BaseRoute) => ({ ...route, sample: (SAMPLES as Record<string, Sample>)[route.base]! })))(
  "the sample of $base is seen by someone its guards let in: signed out when it is public, else a role of its area's",
  ({ public: isPublic, area, sample }) => {
    const role = sample.role;
    if (isPublic) expect(role).toBeUndefined();
    else expect(role).toBeDefined();
    if (area && role) expect(roleArea(role)).toBe(area);
  },
);

test('the lists of pages hold every route once per form asked, in the table’s order', () => {
  expect(samplePages().map((page) => page.base)).toEqual(BASES.flatMap((base) => LINKED_FORMS.map(() => base)));
  expect(samplePagesInEveryForm()).toHaveLength(BASES.length * ROUTE_FORMS.length);
  const homes = samplePages().filter((page) => page.base === 'index');
  expect(homes.map((page) => page.url)).toEqual(LOCALE_CODES.map((locale) => (locale === defaultLocale ? '/' : `/${locale}`)));
});

import { expect, test } from 'vitest';
import { runGuards, UnknownMiddlewareError } from '../shared/guards.ts';
import { BASE_ROUTES, formOfPath, localeForms, localePath, matchRoute, routeByName, ROUTES, type Route } from '../shared/routes.ts';
import { confinedArea, hasRole, roleArea } from '../shared/user.ts';

// Every route exists in three forms: unprefixed (Spanish default), /es, /en.
const FORMS = [
  { label: 'unprefixed', prefix: '', locale: 'es', suffix: '___es___default' },
  { label: '/es', prefix: '/es', locale: 'es', suffix: '___es' },
  { label: '/en', prefix: '/en', locale: 'en', suffix: '___en' },
] as const;

const EXPECTED_PATHS: Record<string, string> = {
  index: '/',
  login: '/login',
  changePassword: '/changePassword',
  profile: '/profile',
  blog: '/blog',
  'blog-slug': '/blog/:slug',
  'blog-tag': '/blog/tag/:tag',
  Contact: '/Contact',
  cookies: '/cookies',
  legal: '/legal',
  privacy: '/privacy',
  responsible: '/responsible',
  admin: '/admin',
  client: '/client',
  organization: '/organization',
  expert: '/expert',
  // The projects of the private area (docs/decisions/013).
  'client-projects-new': '/client/projects/new',
  'organization-projects-new': '/organization/projects/new',
  'client-project': '/client/projects/:id',
  'organization-project': '/organization/projects/:id',
  'expert-project': '/expert/projects/:id',
  'admin-project': '/admin/projects/:id',
  // The admin console's sections, each a page of its own (docs/decisions/039).
  'admin-projects': '/admin/projects',
  'admin-users': '/admin/users',
  'admin-inbox': '/admin/inbox',
  'admin-audit': '/admin/audit',
  'admin-deletions': '/admin/deletions',
  'admin-branding': '/admin/branding',
  notFound: '/notFound',
  // Two-factor authentication (docs/decisions/016): the code after the password, the set-up page.
  twoFactor: '/login/code',
  twoFactorSetup: '/profile/twoFactor',
  // The account links and the forgotten-password form (docs/decisions/017).
  invitation: '/invitation',
  forgotPassword: '/forgotPassword',
  resetPassword: '/resetPassword',
  confirmEmail: '/confirmEmail',
  // The notification centre (the navbar's bell), any signed-in user's, like /profile (docs/decisions/042).
  notifications: '/notifications',
};

test.each(['admin-projects', 'admin-users', 'admin-inbox', 'admin-audit', 'admin-deletions', 'admin-branding'])(
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

test('the route table holds every route of the specification (docs/specification.md §4)', () => {
  expect(Object.fromEntries(BASE_ROUTES.map((r) => [r.base, r.path]))).toEqual(EXPECTED_PATHS);
  expect(ROUTES).toHaveLength(BASE_ROUTES.length * 3);
});

const cases = Object.entries(EXPECTED_PATHS).flatMap(([base, path]) => FORMS.map((form) => ({ base, path, ...form })));

test.each(cases)(
  'route $base in the $label form is named base___locale(___default) and matches its path',
  ({ base, path, prefix, locale, suffix }) => {
    const name = `${base}${suffix}`;
    const route = routeByName(name);
    expect(route, name).toBeDefined();
    const concrete = path.replace(':slug', 'a-post').replace(':tag', 'a-tag').replace(':id', '42');
    const url = path === '/' ? prefix || '/' : prefix + concrete;
    const match = matchRoute(url);
    expect(match).toMatchObject({ kind: 'route', route: { name, locale } });
  },
);

test.each(Object.keys(EXPECTED_PATHS))('localePath(%s) links the default locale unprefixed and English under /en', (base) => {
  const params: Record<string, string> | undefined =
    base === 'blog-slug' ? { slug: 'x' } : base === 'blog-tag' ? { tag: 'x' } : base.endsWith('-project') ? { id: '7' } : undefined;
  const path = EXPECTED_PATHS[base]!.replace(':slug', 'x').replace(':tag', 'x').replace(':id', '7');
  expect(localePath(base, 'es', params)).toBe(path);
  expect(localePath(base, 'en', params)).toBe(path === '/' ? '/en' : `/en${path}`);
});

test('unmatched paths match nothing (the error page answers 404)', () => {
  for (const path of ['/nope', '/en/nope', '/fr/blog', '/blog/a/b', '/blog/UPPER', '/es/en', '/blog/-x']) {
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

test('private pages run the auth guard first; public pages opt out', () => {
  const publicBases = [
    'index',
    'login',
    'blog',
    'blog-slug',
    'blog-tag',
    'Contact',
    'cookies',
    'legal',
    'privacy',
    'responsible',
    'notFound',
  ];
  // The code page after the password: no session exists yet (docs/decisions/016).
  publicBases.push('twoFactor');
  // The pages of e-mailed links and the forgotten-password form: the link is the proof (docs/decisions/017).
  publicBases.push('invitation', 'forgotPassword', 'resetPassword', 'confirmEmail');
  for (const route of ROUTES) {
    if (publicBases.includes(route.base)) expect(route.allGuards, route.name).not.toContain('auth');
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

test('every locale form of a path that is not a page comes from the route forms (unprefixed, /es, /en)', () => {
  expect(localeForms('/logout')).toEqual(['/logout', '/es/logout', '/en/logout']);
  expect(localeForms('/documents/users.pdf')).toEqual(['/documents/users.pdf', '/es/documents/users.pdf', '/en/documents/users.pdf']);
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

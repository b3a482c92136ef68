// The one route table (docs/specification.md §4). React Router's route objects (matched on both sides),
// links, the sitemap and the hreflang alternates are all derived from it. Pure: no I/O.
import { matchRoutes, type RouteObject } from 'react-router-dom';
import { defaultLocale, LOCALE_CODES, localeOf, prefixedPath, type Locale } from './locales.ts';
import type { Area } from './user.ts';
import { BoundedMap } from './bounded-map.ts';

export type BaseRoute = {
  /** Route base name: names are `${base}___${locale}` (+ `___default` for the unprefixed form). */
  base: string;
  /** Path without locale prefix; `:slug` marks the one parameter the site uses. */
  path: string;
  /**
   * The page it shows: the name of its server module (server/pages/<page>.ts: loader, action)
   * and of its component (client/pages/<page>.tsx).
   */
  page: string;
  /** Public pages opt out of the default `auth` guard: every other page needs a signed-in user. */
  public: boolean;
  /** Guards besides `auth`, by name (the keys of GUARDS, shared/guards.ts); resolved at run time so that an unknown name is a 500. */
  guards: readonly string[];
  /** Listed in the sitemap. */
  indexable: boolean;
  /** A page per entry of content (a post, a practice, a case study): the sitemap lists each from the content, not from this table. */
  listedByContent?: boolean;
  /** Status of a successful render (the notFound page answers 404). */
  status?: number;
  /** The role area the page belongs to (the role guard confines CLI, ORG and CONS to theirs). */
  area?: Area;
  /** Shows what a single-use link opens: never stored by a browser, proxy or the service worker. */
  noStore?: boolean;
};

/** A section of the admin console: `/admin/<section>`, page `admin-<section>`, guarded like /admin. */
function adminSection<S extends string>(section: S) {
  const name = `admin-${section}` as const;
  return {
    base: name,
    path: `/admin/${section}` as const,
    page: name,
    public: false,
    guards: ['role', 'isAdmin'],
    indexable: false,
    area: 'admin',
  } as const;
}

export const BASE_ROUTES = [
  { base: 'index', path: '/', page: 'home', public: true, guards: ['role'], indexable: true },
  { base: 'login', path: '/login', page: 'login', public: true, guards: ['guest'], indexable: false },
  { base: 'changePassword', path: '/changePassword', page: 'change-password', public: false, guards: [], indexable: false },
  { base: 'profile', path: '/profile', page: 'profile', public: false, guards: [], indexable: false },
  { base: 'blog', path: '/blog', page: 'blog', public: true, guards: [], indexable: true },
  { base: 'blog-slug', path: '/blog/:slug', page: 'blog-post', public: true, guards: [], indexable: false, listedByContent: true },
  // A tag's posts (tags are per language: a tag's page exists in the language of its posts).
  { base: 'blog-tag', path: '/blog/tag/:tag', page: 'blog', public: true, guards: [], indexable: false },
  // The practices and the case studies: a page each, and a page listing them (content/practices,
  // content/case-studies, or the CMS). Like a post, one is listed in the sitemap by its content.
  { base: 'practices', path: '/practices', page: 'practices', public: true, guards: [], indexable: true },
  { base: 'practice', path: '/practices/:slug', page: 'practice', public: true, guards: [], indexable: false, listedByContent: true },
  { base: 'case-studies', path: '/case-studies', page: 'case-studies', public: true, guards: [], indexable: true },
  {
    base: 'case-study',
    path: '/case-studies/:slug',
    page: 'case-study',
    public: true,
    guards: [],
    indexable: false,
    listedByContent: true,
  },
  // The site search: its results are not a page of their own for search engines (noindex, follow).
  { base: 'search', path: '/search', page: 'search', public: true, guards: [], indexable: false },
  { base: 'Contact', path: '/Contact', page: 'contact', public: true, guards: [], indexable: true },
  { base: 'cookies', path: '/cookies', page: 'legal', public: true, guards: [], indexable: true },
  { base: 'legal', path: '/legal', page: 'legal', public: true, guards: [], indexable: true },
  { base: 'privacy', path: '/privacy', page: 'legal', public: true, guards: [], indexable: true },
  { base: 'responsible', path: '/responsible', page: 'legal', public: true, guards: [], indexable: true },
  { base: 'admin', path: '/admin', page: 'admin', public: false, guards: ['role', 'isAdmin'], indexable: false, area: 'admin' },
  { base: 'client', path: '/client', page: 'client', public: false, guards: ['role'], indexable: false, area: 'client' },
  {
    base: 'organization',
    path: '/organization',
    page: 'organization',
    public: false,
    guards: ['role'],
    indexable: false,
    area: 'organization',
  },
  { base: 'expert', path: '/expert', page: 'expert', public: false, guards: ['role'], indexable: false, area: 'expert' },
  // The projects of the private area: a brief is written in the owner's area; a
  // project's page exists under each area (the server decides who may see which project).
  {
    base: 'client-projects-new',
    path: '/client/projects/new',
    page: 'project-new',
    public: false,
    guards: ['role'],
    indexable: false,
    area: 'client',
  },
  {
    base: 'organization-projects-new',
    path: '/organization/projects/new',
    page: 'project-new',
    public: false,
    guards: ['role'],
    indexable: false,
    area: 'organization',
  },
  {
    base: 'client-project',
    path: '/client/projects/:id',
    page: 'project',
    public: false,
    guards: ['role'],
    indexable: false,
    area: 'client',
  },
  {
    base: 'organization-project',
    path: '/organization/projects/:id',
    page: 'project',
    public: false,
    guards: ['role'],
    indexable: false,
    area: 'organization',
  },
  {
    base: 'expert-project',
    path: '/expert/projects/:id',
    page: 'project',
    public: false,
    guards: ['role'],
    indexable: false,
    area: 'expert',
  },
  {
    base: 'admin-project',
    path: '/admin/projects/:id',
    page: 'project',
    public: false,
    guards: ['role', 'isAdmin'],
    indexable: false,
    area: 'admin',
  },
  // The admin console's sections, each its own page (and chunk) under /admin, the console's home.
  // Path words are not translated, like the rest of the table: /en/admin/users.
  ...(['projects', 'users', 'inbox', 'audit', 'deletions', 'branding'] as const).map(adminSection),
  { base: 'notFound', path: '/notFound', page: 'not-found', public: true, guards: [], indexable: false, status: 404 },
  // Two-factor authentication: the code asked after a right password (no session yet), and
  // the signed-in user's set-up page.
  { base: 'twoFactor', path: '/login/code', page: 'two-factor', public: true, guards: ['guest'], indexable: false },
  { base: 'twoFactorSetup', path: '/profile/twoFactor', page: 'two-factor-setup', public: false, guards: [], indexable: false },
  // The signed-in user's notifications (the navbar's bell): every role has one, like the profile.
  { base: 'notifications', path: '/notifications', page: 'notifications', public: false, guards: [], indexable: false },
  // Accounts that run themselves (server/account-links/): the pages the e-mailed links open, and the
  // forgotten-password form. Open to anyone: the link is the proof, not a session.
  { base: 'invitation', path: '/invitation', page: 'invitation', public: true, guards: [], indexable: false, noStore: true },
  { base: 'forgotPassword', path: '/forgotPassword', page: 'forgot-password', public: true, guards: [], indexable: false },
  { base: 'resetPassword', path: '/resetPassword', page: 'reset-password', public: true, guards: [], indexable: false, noStore: true },
  { base: 'confirmEmail', path: '/confirmEmail', page: 'confirm-email', public: true, guards: [], indexable: false, noStore: true },
] as const satisfies readonly BaseRoute[];

/** The pages of the site, each named after its two modules (server/pages/, client/pages/). */
export type PageKey = (typeof BASE_ROUTES)[number]['page'];
export const PAGE_KEYS: readonly PageKey[] = [...new Set(BASE_ROUTES.map((route) => route.page))];

export type RouteBase = (typeof BASE_ROUTES)[number]['base'];
export type LegalPageKey = 'cookies' | 'legal' | 'privacy' | 'responsible';
export const LEGAL_PAGES: readonly LegalPageKey[] = ['cookies', 'legal', 'privacy', 'responsible'];

/** One of the three forms of a route: unprefixed (default locale), /es, /en. */
export type RouteForm = { locale: Locale; prefixed: boolean };

export type Route = Omit<BaseRoute, 'page'> & { page: PageKey } & RouteForm & {
    /** `login___en`, `login___es___default`. */
    name: string;
    /** Full path pattern of this form, e.g. `/en/blog/:slug`. */
    fullPath: string;
    /** The guards to run, `auth` first unless the page is public. */
    allGuards: readonly string[];
  };

export type RouteParams = Record<string, string>;

export function routeName(base: string, form: RouteForm): string {
  return form.prefixed ? `${base}___${form.locale}` : `${base}___${form.locale}___default`;
}

/** `path` in a form: under the form's prefix, or as it is (shared/locales.ts writes the prefix). */
function formPath(form: RouteForm, path: string): string {
  return form.prefixed ? prefixedPath(path, form.locale) : path;
}

/** Every form of every route: unprefixed (default locale) first, then /es, /en. */
export const ROUTE_FORMS: readonly RouteForm[] = [
  { locale: defaultLocale, prefixed: false },
  ...LOCALE_CODES.map((locale) => ({ locale, prefixed: true })),
];

export const ROUTES: readonly Route[] = ROUTE_FORMS.flatMap((form) =>
  BASE_ROUTES.map((base) => ({
    ...base,
    ...form,
    name: routeName(base.base, form),
    fullPath: formPath(form, base.path),
    allGuards: base.public ? base.guards : ['auth', ...base.guards],
  })),
);

const routesByName = new Map(ROUTES.map((r) => [r.name, r]));

export function routeByName(name: string): Route | undefined {
  return routesByName.get(name);
}

/** A path pattern (`/blog/:slug`) with its parameters filled, each percent-encoded; a missing one throws. */
export function fillParams(pattern: string, params: RouteParams = {}): string {
  return pattern.replace(/:([a-zA-Z]+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`Missing route parameter "${key}" for ${pattern}`);
    return encodeURIComponent(value);
  });
}

/** The path of a route base in a given form (keeps /es vs unprefixed), with its parameters. */
export function routePath(base: string, form: RouteForm, params?: RouteParams): string {
  const route = routesByName.get(routeName(base, form));
  if (!route) throw new Error(`Unknown route ${routeName(base, form)}`);
  return fillParams(route.fullPath, params);
}

/**
 * Link to a route by name in a locale, the way the site links: the default locale uses the
 * unprefixed form, the others their prefix. `localePath('login', 'en')` → `/en/login`.
 */
export function localePath(base: string, locale: Locale, params?: RouteParams): string {
  return routePath(base, { locale, prefixed: locale !== defaultLocale }, params);
}

export type RouteMatch = { kind: 'route'; route: Route; params: RouteParams } | { kind: 'redirect'; location: string; status: 301 };

/**
 * React Router's route objects of the table: one per form of every route, its id the route's
 * name. React Router matches them on both sides (here through `matchRoutes`, in the client's
 * `<Routes>` through `useRoutes`); the client gives each an element (client/routes.tsx).
 */
export const ROUTE_OBJECTS: readonly (RouteObject & { id: string; path: string })[] = ROUTES.map((route) => ({
  id: route.name,
  path: route.fullPath,
}));

/** A parameter's value (slug, tag, project id): lower-case letters, digits and inner hyphens. */
const PARAM_VALUE = /^[a-z0-9][a-z0-9-]{0,99}$/;

// React Router flattens and ranks the table on every `matchRoutes` call: the answers for the
// paths actually asked (a bounded number) are kept, so that a request pays a Map lookup.
const MATCHES_KEPT = 2000;
const matches = new BoundedMap<string, RouteMatch | null>(MATCHES_KEPT);

/** The canonical spelling of a matched path: the table's case, no trailing slash, parameters encoded. */
function canonicalPath(route: Route, params: RouteParams): string {
  return fillParams(route.fullPath, params);
}

function matchUncached(pathname: string): RouteMatch | null {
  const found = matchRoutes(ROUTE_OBJECTS as RouteObject[], pathname);
  const last = found?.[found.length - 1];
  const route = last?.route.id === undefined ? undefined : routesByName.get(last.route.id);
  if (!last || !route) return null;
  const params: RouteParams = {};
  for (const [key, value] of Object.entries(last.params)) {
    if (value === undefined || key === '*' || !PARAM_VALUE.test(value)) return null;
    params[key] = value;
  }
  // React Router ignores case and trailing slashes: other spellings of a page answer 301 to its own.
  const canonical = canonicalPath(route, params);
  if (canonical !== pathname) return { kind: 'redirect', location: canonical, status: 301 };
  return { kind: 'route', route, params };
}

/** Matches a URL pathname (raw, as requested) against the table, through React Router. */
export function matchRoute(pathname: string): RouteMatch | null {
  let match = matches.get(pathname);
  if (match === undefined) {
    match = matchUncached(pathname);
    matches.set(pathname, match);
  }
  return match;
}

/**
 * Every locale form of a path that is not a page (logout, consent, documents, offline):
 * `localeForms('/logout')` → ['/logout', '/es/logout', '/en/logout'], in ROUTE_FORMS' order.
 */
export function localeForms(path: string): string[] {
  return ROUTE_FORMS.map((form) => formPath(form, path));
}

/** The locale form of any path, matched or not: prefixed when its first segment is its locale (localeOf). */
export function formOfPath(pathname: string): RouteForm {
  const locale = localeOf(pathname);
  return { locale, prefixed: pathname.split('/')[1] === locale };
}

/**
 * The same page in another locale, for the locale switcher. The default locale's home is linked
 * in its prefixed form (`/es`): the bare root `/` sends a browser that prefers another language
 * to that language, so a visitor who chose Spanish there would be sent straight back.
 */
export function switchLocalePath(base: string, params: RouteParams, locale: Locale): string {
  if (base === 'index' && locale === defaultLocale) return routePath(base, { locale, prefixed: true });
  return localePath(base, locale, params);
}

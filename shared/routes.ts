// The one route table (DESIGN.md §2). Server matching, client routing, links, the sitemap and
// the hreflang alternates are all derived from it. Pure: no I/O.
import { defaultLocale, isLocale, LOCALE_CODES, type Locale } from './locales.ts';
import type { Area } from './user.ts';

/** Guard names, run in order before a page renders (server) or a navigation (client). */
export const GUARD_NAMES = ['auth', 'guest', 'role', 'isAdmin'] as const;
export type GuardName = (typeof GUARD_NAMES)[number];

export type PageKey =
  | 'home'
  | 'login'
  | 'changePassword'
  | 'profile'
  | 'blog'
  | 'blogPost'
  | 'contact'
  | 'legal'
  | 'admin'
  | 'client'
  | 'organization'
  | 'expert'
  | 'projectNew'
  | 'project'
  | 'notFound'
  | 'twoFactor'
  | 'twoFactorSetup'
  | 'invitation'
  | 'forgotPassword'
  | 'resetPassword'
  | 'confirmEmail';

export type BaseRoute = {
  /** Route base name: names are `${base}___${locale}` (+ `___default` for the unprefixed form). */
  base: string;
  /** Path without locale prefix; `:slug` marks the one parameter the site uses. */
  path: string;
  page: PageKey;
  /** Public pages opt out of the default `auth` guard (seed-spec §2). */
  public: boolean;
  /** Guards besides `auth`, by name; resolved at run time so that an unknown name is a 500. */
  guards: readonly string[];
  /** Listed in the sitemap. */
  indexable: boolean;
  /** Status of a successful render (the notFound page answers 404). */
  status?: number;
  /** The role area the page belongs to (the role guard confines CLI, ORG and CONS to theirs). */
  area?: Area;
  /** Shows what a single-use link opens: never stored by a browser, proxy or the service worker. */
  noStore?: boolean;
};

export const BASE_ROUTES: readonly BaseRoute[] = [
  { base: 'index', path: '/', page: 'home', public: true, guards: ['role'], indexable: true },
  { base: 'login', path: '/login', page: 'login', public: true, guards: ['guest'], indexable: false },
  { base: 'changePassword', path: '/changePassword', page: 'changePassword', public: false, guards: [], indexable: false },
  { base: 'profile', path: '/profile', page: 'profile', public: false, guards: [], indexable: false },
  { base: 'blog', path: '/blog', page: 'blog', public: true, guards: [], indexable: true },
  { base: 'blog-slug', path: '/blog/:slug', page: 'blogPost', public: true, guards: [], indexable: false },
  // A tag's posts (tags are per language: a tag's page exists in the language of its posts).
  { base: 'blog-tag', path: '/blog/tag/:tag', page: 'blog', public: true, guards: [], indexable: false },
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
  // The projects of the private area (DESIGN.md §8): a brief is written in the owner's area; a
  // project's page exists under each area (the server decides who may see which project).
  {
    base: 'client-projects-new',
    path: '/client/projects/new',
    page: 'projectNew',
    public: false,
    guards: ['role'],
    indexable: false,
    area: 'client',
  },
  {
    base: 'organization-projects-new',
    path: '/organization/projects/new',
    page: 'projectNew',
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
  { base: 'notFound', path: '/notFound', page: 'notFound', public: true, guards: [], indexable: false, status: 404 },
  // Two-factor authentication: the code asked after a right password (no session yet), and
  // the signed-in user's set-up page.
  { base: 'twoFactor', path: '/login/code', page: 'twoFactor', public: true, guards: ['guest'], indexable: false },
  { base: 'twoFactorSetup', path: '/profile/twoFactor', page: 'twoFactorSetup', public: false, guards: [], indexable: false },
  // Accounts that run themselves (server/accounts/): the pages the e-mailed links open, and the
  // forgotten-password form. Open to anyone: the link is the proof, not a session.
  { base: 'invitation', path: '/invitation', page: 'invitation', public: true, guards: [], indexable: false, noStore: true },
  { base: 'forgotPassword', path: '/forgotPassword', page: 'forgotPassword', public: true, guards: [], indexable: false },
  { base: 'resetPassword', path: '/resetPassword', page: 'resetPassword', public: true, guards: [], indexable: false, noStore: true },
  { base: 'confirmEmail', path: '/confirmEmail', page: 'confirmEmail', public: true, guards: [], indexable: false, noStore: true },
];

export type RouteBase = (typeof BASE_ROUTES)[number]['base'];
export type LegalPageKey = 'cookies' | 'legal' | 'privacy' | 'responsible';
export const LEGAL_PAGES: readonly LegalPageKey[] = ['cookies', 'legal', 'privacy', 'responsible'];

/** One of the three forms of a route: unprefixed (default locale), /es, /en. */
export type RouteForm = { locale: Locale; prefixed: boolean };

export type Route = BaseRoute &
  RouteForm & {
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

function prefixFor(form: RouteForm): string {
  return form.prefixed ? `/${form.locale}` : '';
}

function joinPath(prefix: string, path: string): string {
  if (path === '/') return prefix || '/';
  return prefix + path;
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
    fullPath: joinPath(prefixFor(form), base.path),
    allGuards: base.public ? base.guards : ['auth', ...base.guards],
  })),
);

const routesByName = new Map(ROUTES.map((r) => [r.name, r]));

export function routeByName(name: string): Route | undefined {
  return routesByName.get(name);
}

function fillParams(pattern: string, params: RouteParams = {}): string {
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

// Precomputed at load: static paths in a Map (exact case, then lower-cased for the 301 to the
// canonical spelling, e.g. /contact → /Contact), dynamic ones as compiled patterns.
const staticRoutes = new Map<string, Route>();
const staticRoutesLower = new Map<string, Route>();
const dynamicRoutes: { route: Route; regex: RegExp; keys: string[] }[] = [];
const SLUG_PATTERN = '([a-z0-9][a-z0-9-]{0,99})';

for (const route of ROUTES) {
  if (route.fullPath.includes(':')) {
    const keys: string[] = [];
    const source = route.fullPath.replace(/:([a-zA-Z]+)/g, (_, key: string) => {
      keys.push(key);
      return SLUG_PATTERN;
    });
    dynamicRoutes.push({ route, regex: new RegExp(`^${source}$`), keys });
  } else {
    staticRoutes.set(route.fullPath, route);
    staticRoutesLower.set(route.fullPath.toLowerCase(), route);
  }
}

/** Matches a URL pathname (already percent-decoded by nothing: raw) against the table. */
export function matchRoute(pathname: string): RouteMatch | null {
  const exact = staticRoutes.get(pathname);
  if (exact) return { kind: 'route', route: exact, params: {} };

  if (pathname.length > 1 && pathname.endsWith('/')) {
    const trimmed = pathname.replace(/\/+$/, '') || '/';
    if (matchRoute(trimmed)) return { kind: 'redirect', location: trimmed, status: 301 };
    return null;
  }

  for (const { route, regex, keys } of dynamicRoutes) {
    const m = regex.exec(pathname);
    if (m) {
      const params: RouteParams = {};
      keys.forEach((key, i) => (params[key] = m[i + 1] ?? ''));
      return { kind: 'route', route, params };
    }
  }

  const folded = staticRoutesLower.get(pathname.toLowerCase());
  if (folded) return { kind: 'redirect', location: folded.fullPath, status: 301 };
  return null;
}

/**
 * Every locale form of a path that is not a page (logout, consent, documents, offline):
 * `localeForms('/logout')` → ['/logout', '/es/logout', '/en/logout'], in ROUTE_FORMS' order.
 */
export function localeForms(path: string): string[] {
  return ROUTE_FORMS.map((form) => joinPath(prefixFor(form), path));
}

/** The locale form of any path, matched or not: `/en/...` is English, anything else default. */
export function formOfPath(pathname: string): RouteForm {
  const first = pathname.split('/')[1];
  if (isLocale(first)) return { locale: first, prefixed: true };
  return { locale: defaultLocale, prefixed: false };
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

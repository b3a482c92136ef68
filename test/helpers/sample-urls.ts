// One sample of every page of the route table (BASE_ROUTES, shared/routes.ts): the parameters of
// a post, a tag or a project the tests have, and who must be signed in to see it. The tests' lists
// of pages (the server's answers, hydration, axe, layout) are made from the table and this map,
// so that a new route joins every list by itself; test/sample-urls.test.ts fails, naming the
// route, until it has its sample here.
import { defaultLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { BASE_ROUTES, ROUTE_FORMS, routePath, type RouteBase, type RouteForm, type RouteParams } from '../../shared/routes.ts';
import type { Role } from '../../shared/user.ts';

export type Sample = {
  /** Who must be signed in to see the page; none: a signed-out visitor sees it (a guests-only page too). */
  role?: Role;
  /** The route's parameters, the same in every locale or per locale (a tag is a word of its language). */
  params?: RouteParams | Partial<Record<Locale, RouteParams>>;
  /** The status the sample answers when it is not 200: the 404 page, a link's page opened without its link. */
  status?: number;
  /** Text the page's h1 holds, in the locales a test checks it. */
  h1?: Partial<Record<Locale, string | RegExp>>;
};

/** A post written in every locale, under one slug (content/blog/<slug>/). */
export const BLOG_SLUG = 'web-accessibility-2026';

/**
 * The demo projects (server/projects/demo.ts; the browser tests' SAMPLE_SITE seeds them) each
 * area's sample opens: the client's proposal, the organisation's active project,
 * which has the expert, milestones, messages and a document.
 */
export const SAMPLE_PROJECT = { client: '2', organization: '3', expert: '3', admin: '3' } as const;

/** The 404 page's heading, which an unknown address shows too. */
export const NOT_FOUND_H1: Partial<Record<Locale, string>> = { es: 'No se ha encontrado esta página', en: 'This page could not be found' };

/** A page a single-use link opens, seen without its link: "this link does not work", 404. */
const WITHOUT_ITS_LINK: Sample = { status: 404 };

export const SAMPLES = {
  index: {},
  login: {},
  changePassword: { role: 'CLI' },
  profile: { role: 'CLI' },
  blog: { h1: { es: 'Blog', en: 'Blog' } },
  'blog-slug': { params: { slug: BLOG_SLUG }, h1: { es: /accesibilidad web/, en: /web accessibility/ } },
  'blog-tag': { params: { es: { tag: 'proyectos' }, en: { tag: 'projects' } } },
  practices: { h1: { es: 'Qué hacemos', en: 'What we do' } },
  practice: { params: { slug: 'data' }, h1: { es: 'Datos y analítica', en: 'Data and analytics' } },
  'case-studies': { h1: { es: 'Casos de clientes', en: 'Client stories' } },
  'case-study': { params: { slug: 'valdeluz-online-services' }, h1: { es: /sede electrónica/, en: /council services/ } },
  search: { h1: { es: 'Buscar', en: 'Search' } },
  Contact: {},
  cookies: {},
  legal: {},
  privacy: {},
  responsible: {},
  admin: { role: 'ADMIN' },
  client: { role: 'CLI' },
  organization: { role: 'ORG' },
  expert: { role: 'CONS' },
  'client-projects-new': { role: 'CLI' },
  'organization-projects-new': { role: 'ORG' },
  'client-project': { role: 'CLI', params: { id: SAMPLE_PROJECT.client } },
  'organization-project': { role: 'ORG', params: { id: SAMPLE_PROJECT.organization } },
  'expert-project': { role: 'CONS', params: { id: SAMPLE_PROJECT.expert } },
  'admin-project': { role: 'ADMIN', params: { id: SAMPLE_PROJECT.admin } },
  'admin-projects': { role: 'ADMIN' },
  'admin-users': { role: 'ADMIN' },
  'admin-inbox': { role: 'ADMIN' },
  'admin-audit': { role: 'ADMIN' },
  'admin-deletions': { role: 'ADMIN' },
  'admin-branding': { role: 'ADMIN' },
  notFound: { status: 404, h1: NOT_FOUND_H1 },
  // Without a password just given, the code page says the sign-in expired.
  twoFactor: {},
  twoFactorSetup: { role: 'ADMIN' },
  notifications: { role: 'ORG' },
  invitation: WITHOUT_ITS_LINK,
  forgotPassword: {},
  resetPassword: WITHOUT_ITS_LINK,
  confirmEmail: WITHOUT_ITS_LINK,
} as const satisfies Record<RouteBase, Sample>;

/** One page as a test visits it. */
export type SamplePage = {
  base: RouteBase;
  /** Its URL in one locale form, e.g. `/en/blog/tag/projects`. */
  url: string;
  locale: Locale;
  /** Who is signed in; undefined: a signed-out visitor. */
  role: Role | undefined;
  status: number;
  h1: string | RegExp | undefined;
};

/** The forms the site links to: the default locale unprefixed, every other locale under its prefix. */
export const LINKED_FORMS: readonly RouteForm[] = LOCALE_CODES.map((locale) => ({ locale, prefixed: locale !== defaultLocale }));

function sampleOf(base: string): Sample {
  const sample = (SAMPLES as Record<string, Sample>)[base];
  if (!sample) throw new Error(`The route ${base} has no sample in test/helpers/sample-urls.ts`);
  return sample;
}

/**
 * A sample's parameters in a locale; a locale the sample has none of (one added to the table after
 * it) takes the default locale's, and a route with neither throws, naming both.
 */
export function sampleParams(base: string, locale: Locale): RouteParams | undefined {
  const { params } = sampleOf(base);
  if (params === undefined) return undefined;
  const perLocale = params as Partial<Record<Locale, RouteParams>>;
  if (!LOCALE_CODES.some((code) => code in params)) return params as RouteParams;
  const found = perLocale[locale] ?? perLocale[defaultLocale];
  if (!found) throw new Error(`The sample of ${base} has no parameters in ${locale} (test/helpers/sample-urls.ts)`);
  return found;
}

/** The sample URL of a route base in a locale form. */
export function sampleUrl(base: RouteBase, form: RouteForm): string {
  return routePath(base, form, sampleParams(base, form.locale));
}

/** Every page of the route table, in its order, in each of `forms` (the linked ones unless told). */
export function samplePages(forms: readonly RouteForm[] = LINKED_FORMS): SamplePage[] {
  return BASE_ROUTES.flatMap(({ base }) =>
    forms.map((form) => {
      const sample = sampleOf(base);
      return {
        base,
        url: sampleUrl(base, form),
        locale: form.locale,
        role: sample.role,
        status: sample.status ?? 200,
        h1: sample.h1?.[form.locale],
      };
    }),
  );
}

/** Every page in every form: unprefixed, then under each locale's prefix (ROUTE_FORMS). */
export function samplePagesInEveryForm(): SamplePage[] {
  return samplePages(ROUTE_FORMS);
}

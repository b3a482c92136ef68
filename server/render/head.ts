// SEO head of a page: title with the site name, description, canonical URL and
// hreflang alternates (es, en, x-default), all derived from the route table.
import { defaultLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import type { Alternate, Head } from '../../shared/page-data.ts';
import { localePath, type Route, type RouteParams } from '../../shared/routes.ts';

export function pageTitle(title: string | null, siteName: string): string {
  return title ? `${title} | ${siteName}` : siteName;
}

/** What a page's loader says about its head (see PageMeta in loaders.ts). */
export type HeadMeta = {
  alternates?: Partial<Record<Locale, RouteParams>>;
  canonicalQuery?: string;
  prev?: string;
  next?: string;
  robots?: string;
};

export function headForRoute(options: {
  route: Route;
  params: RouteParams;
  origin: string;
  title: string;
  description: string;
  indexable: boolean;
  meta?: HeadMeta;
}): Head {
  const { route, params, origin, meta } = options;
  // The canonical form of /es/x is /x: the default locale links unprefixed.
  const path = origin + localePath(route.base, route.locale, params);
  const forms = meta?.alternates ?? Object.fromEntries(LOCALE_CODES.map((locale) => [locale, params]));
  const alternates: Alternate[] = LOCALE_CODES.flatMap((locale) => {
    const own = forms[locale];
    return own ? [{ hrefLang: locale, href: origin + localePath(route.base, locale, own) }] : [];
  });
  // x-default is the default language's page, when the page exists in it.
  const fallback = forms[defaultLocale];
  if (fallback) alternates.push({ hrefLang: 'x-default', href: origin + localePath(route.base, defaultLocale, fallback) });
  const robots = options.indexable ? meta?.robots : 'noindex';
  return {
    title: options.title,
    description: options.description,
    canonical: path + (meta?.canonicalQuery ?? ''),
    // A page in one language only has no alternates to tell of.
    alternates: alternates.length > 2 ? alternates : [],
    ...(robots ? { robots } : {}),
    ...(meta?.prev !== undefined ? { prev: path + meta.prev } : {}),
    ...(meta?.next !== undefined ? { next: path + meta.next } : {}),
  };
}

export function headForError(options: { origin: string; pathname: string; title: string }): Head {
  return {
    title: options.title,
    description: options.title,
    canonical: options.origin + options.pathname,
    alternates: [],
    robots: 'noindex',
  };
}

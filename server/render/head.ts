// SEO head of a page (DESIGN.md §3): title with the site name, description, canonical URL and
// hreflang alternates (es, en, x-default), all derived from the route table.
import { defaultLocale, LOCALE_CODES } from '../../shared/locales.ts';
import type { Alternate, Head } from '../../shared/page-data.ts';
import { localePath, type Route, type RouteParams } from '../../shared/routes.ts';

export function pageTitle(title: string | null, siteName: string): string {
  return title ? `${title} | ${siteName}` : siteName;
}

export function headForRoute(options: {
  route: Route;
  params: RouteParams;
  origin: string;
  title: string;
  description: string;
  indexable: boolean;
}): Head {
  const { route, params, origin } = options;
  const alternates: Alternate[] = LOCALE_CODES.map((locale) => ({
    hrefLang: locale,
    href: origin + localePath(route.base, locale, params),
  }));
  alternates.push({ hrefLang: 'x-default', href: origin + localePath(route.base, defaultLocale, params) });
  return {
    title: options.title,
    description: options.description,
    // The canonical form of /es/x is /x: the default locale links unprefixed.
    canonical: origin + localePath(route.base, route.locale, params),
    alternates,
    ...(options.indexable ? {} : { robots: 'noindex' }),
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

// Structured data for search engines (schema.org as JSON-LD): the organisation and the web site
// on the home page; the post and its breadcrumb trail (home → blog → post) on a post's page.
// Server-only: written into the document's <head> (render-page.tsx), never into the page's
// data; a client navigation removes it rather than carry it (crawlers load every URL afresh).
// A noindex page has none.
import type { BlogPosting, BreadcrumbList, DayOfWeek, Organization, WebSite, WithContext } from 'schema-dts';
import type { Brand } from '../brand/brand.ts';
import type { Company } from '../brand/company.ts';
import { intlLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import type { PagePayload } from '../../shared/page-data.ts';
import { localePath } from '../../shared/routes.ts';
import type { Translate } from '../../shared/translate.ts';
import { defaultSocialImage, SITE_LOGO, socialImageOf } from './images.ts';
import { postTags, postUpdated, type PostFacts } from './post.ts';

export type StructuredData = WithContext<Organization | WebSite | BlogPosting | BreadcrumbList>;

export type JsonLdSite = {
  origin: string;
  siteName: string;
  /** The company's contact details and tagline (brand/brand.json). */
  brand: Pick<Brand, 'contact' | 'tagline'>;
  /** The registered name and tax ID, as the legal notice shows them (brand/company.ts). */
  company: Pick<Company, 'legalName' | 'taxId'>;
  translator: (locale: Locale) => Translate;
};

const DAYS: Record<string, DayOfWeek> = {
  Mo: 'https://schema.org/Monday',
  Tu: 'https://schema.org/Tuesday',
  We: 'https://schema.org/Wednesday',
  Th: 'https://schema.org/Thursday',
  Fr: 'https://schema.org/Friday',
  Sa: 'https://schema.org/Saturday',
  Su: 'https://schema.org/Sunday',
};

const CONTEXT = 'https://schema.org';

function organizationId(origin: string): string {
  return `${origin}/#organization`;
}

function organization(site: JsonLdSite, locale: Locale): WithContext<Organization> {
  const { contact } = site.brand;
  const { address } = contact;
  return {
    '@context': CONTEXT,
    '@type': 'Organization',
    '@id': organizationId(site.origin),
    name: site.siteName,
    legalName: site.company.legalName,
    taxID: site.company.taxId,
    url: `${site.origin}/`,
    slogan: site.brand.tagline[locale],
    logo: { '@type': 'ImageObject', url: site.origin + SITE_LOGO.path, width: `${SITE_LOGO.width}`, height: `${SITE_LOGO.height}` },
    email: contact.email,
    telephone: contact.phone,
    address: {
      '@type': 'PostalAddress',
      streetAddress: address.street,
      postalCode: address.postalCode,
      addressLocality: address.city,
      ...(address.region ? { addressRegion: address.region } : {}),
      addressCountry: address.country,
    },
    contactPoint: {
      '@type': 'ContactPoint',
      contactType: 'customer service',
      email: contact.email,
      telephone: contact.phone,
      availableLanguage: LOCALE_CODES.map(intlLocale),
      ...(contact.openingHours.length > 0
        ? {
            hoursAvailable: contact.openingHours.map((hours) => ({
              '@type': 'OpeningHoursSpecification' as const,
              dayOfWeek: hours.days.map((day) => DAYS[day]!),
              opens: hours.opens,
              closes: hours.closes,
            })),
          }
        : {}),
    },
  };
}

function webSite(site: JsonLdSite): WithContext<WebSite> {
  return {
    '@context': CONTEXT,
    '@type': 'WebSite',
    '@id': `${site.origin}/#website`,
    name: site.siteName,
    url: `${site.origin}/`,
    inLanguage: LOCALE_CODES.map(intlLocale),
    publisher: { '@id': organizationId(site.origin) },
  };
}

function blogPosting(post: PostFacts, canonical: string, site: JsonLdSite): WithContext<BlogPosting> {
  const t = site.translator(post.locale);
  const image = socialImageOf(post, site.origin) ?? defaultSocialImage(site.origin, t('seo.defaultImageAlt', { siteName: site.siteName }));
  const tags = postTags(post);
  return {
    '@context': CONTEXT,
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.description,
    datePublished: post.date,
    dateModified: postUpdated(post),
    author: { '@type': 'Person', name: post.author },
    image: [image.url],
    inLanguage: intlLocale(post.locale),
    url: canonical,
    mainEntityOfPage: { '@type': 'WebPage', '@id': canonical },
    publisher: {
      '@type': 'Organization',
      '@id': organizationId(site.origin),
      name: site.siteName,
      logo: { '@type': 'ImageObject', url: site.origin + SITE_LOGO.path },
    },
    ...(tags.length ? { keywords: tags.map((tag) => tag.name) } : {}),
  };
}

function breadcrumbs(post: PostFacts, locale: Locale, canonical: string, site: JsonLdSite): WithContext<BreadcrumbList> {
  const t = site.translator(locale);
  const trail = [
    { name: site.siteName, item: site.origin + localePath('index', locale) },
    { name: t('pages.blog.title'), item: site.origin + localePath('blog', locale) },
    { name: post.title, item: canonical },
  ];
  return {
    '@context': CONTEXT,
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, index) => ({ '@type': 'ListItem', position: index + 1, ...crumb })),
  };
}

/** The JSON-LD objects of a page, each for its own <script type="application/ld+json">. */
export function jsonLdOf(payload: PagePayload, site: JsonLdSite): StructuredData[] {
  const { state, head } = payload;
  if (state.kind !== 'page' || head.robots?.includes('noindex')) return [];
  if (state.page === 'home') return [organization(site, payload.locale), webSite(site)];
  if (state.page === 'blog-post') {
    const { post } = state.data as { post: PostFacts };
    return [blogPosting(post, head.canonical, site), breadcrumbs(post, payload.locale, head.canonical, site)];
  }
  return [];
}

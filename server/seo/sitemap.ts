// robots.txt and sitemap.xml, both derived from the route table (every public, indexable page
// in both locales, plus each practice, case study and blog post in each language it is written in).
import { defaultLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import type { PostSummary } from '../../shared/page-data.ts';
import { BASE_ROUTES, localePath } from '../../shared/routes.ts';
import type { ContentSource } from '../content/source.ts';
import { escapeHtml } from '../http/html.ts';

export function robotsTxt(origin: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /_data', 'Disallow: /api/', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}

/** A post in each language it is written in, each naming the others (its own slug in each). */
function postEntries(origin: string, post: PostSummary): string {
  const languages = LOCALE_CODES.filter((locale) => post.translations[locale]);
  const href = (locale: Locale) => escapeHtml(origin + localePath('blog-slug', locale, { slug: post.translations[locale]! }));
  const links = languages.map((locale) => `<xhtml:link rel="alternate" hreflang="${locale}" href="${href(locale)}"/>`);
  if (languages.length > 1 && post.translations[defaultLocale]) {
    links.push(`<xhtml:link rel="alternate" hreflang="x-default" href="${href(defaultLocale)}"/>`);
  }
  const lastmod = post.updated ?? post.date;
  return `<url><loc>${href(post.locale)}</loc><lastmod>${lastmod}</lastmod>${languages.length > 1 ? links.join('') : ''}</url>`;
}

function urlEntry(origin: string, base: string, params: Record<string, string> = {}, lastmod?: string): string {
  const links = LOCALE_CODES.map(
    (locale) => `<xhtml:link rel="alternate" hreflang="${locale}" href="${escapeHtml(origin + localePath(base, locale, params))}"/>`,
  );
  links.push(`<xhtml:link rel="alternate" hreflang="x-default" href="${escapeHtml(origin + localePath(base, defaultLocale, params))}"/>`);
  return LOCALE_CODES.map(
    (locale) =>
      `<url><loc>${escapeHtml(origin + localePath(base, locale, params))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}${links.join('')}</url>`,
  ).join('');
}

/**
 * A page of content by its slug (a practice, a case study: one slug in every language it is
 * written in), in each of those languages, each naming the others.
 */
function slugEntries(origin: string, base: string, slug: string, languages: readonly Locale[]): string {
  const href = (locale: Locale) => escapeHtml(origin + localePath(base, locale, { slug }));
  const links = languages.map((locale) => `<xhtml:link rel="alternate" hreflang="${locale}" href="${href(locale)}"/>`);
  if (languages.includes(defaultLocale)) links.push(`<xhtml:link rel="alternate" hreflang="x-default" href="${href(defaultLocale)}"/>`);
  return languages.map((locale) => `<url><loc>${href(locale)}</loc>${languages.length > 1 ? links.join('') : ''}</url>`).join('');
}

/** The slugs of a kind of content in each language, as the languages each slug is written in. */
async function slugLanguages(list: (locale: Locale) => Promise<readonly { slug: string }[]>): Promise<Map<string, Locale[]>> {
  const bySlug = new Map<string, Locale[]>();
  for (const locale of LOCALE_CODES) {
    // A source that cannot list them (a CMS without the type, or down: it logged why) lists none.
    const entries = await Promise.resolve()
      .then(() => list(locale))
      .catch(() => []);
    for (const { slug } of entries) bySlug.set(slug, [...(bySlug.get(slug) ?? []), locale]);
  }
  return bySlug;
}

/**
 * Posts the sitemap lists per language at most, the newest: the CMS's lists stop there too
 * (cms/content.ts), and 2 × 5,000 entries stay well under the protocol's 50,000 URLs and 50 MB.
 */
export const SITEMAP_POSTS_MAX = 5_000;

export async function sitemapXml(origin: string, content: ContentSource): Promise<string> {
  const pages = BASE_ROUTES.filter((r) => r.public && r.indexable).map((r) => urlEntry(origin, r.base));
  // listPosts answers newest first.
  const lists = await Promise.all(LOCALE_CODES.map(async (locale) => (await content.listPosts(locale)).slice(0, SITEMAP_POSTS_MAX)));
  const posts = lists.flat().map((post) => postEntries(origin, post));
  const practices = await slugLanguages(async (locale) => (await content.listPractices(locale)).map((p) => ({ slug: p.practice })));
  const studies = await slugLanguages((locale) => content.listCaseStudies(locale));
  const pagesOfContent = [
    ...[...practices].map(([slug, languages]) => slugEntries(origin, 'practice', slug, languages)),
    ...[...studies].map(([slug, languages]) => slugEntries(origin, 'case-study', slug, languages)),
  ];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">' +
    pages.join('') +
    pagesOfContent.join('') +
    posts.join('') +
    '</urlset>'
  );
}

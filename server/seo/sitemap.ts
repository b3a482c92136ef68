// robots.txt and sitemap.xml, both derived from the route table (every public, indexable page
// in both locales, plus each blog post in each language it is written in).
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
 * Posts the sitemap lists per language at most, the newest: the CMS's lists stop there too
 * (cms/content.ts), and 2 × 5,000 entries stay well under the protocol's 50,000 URLs and 50 MB.
 */
export const SITEMAP_POSTS_MAX = 5_000;

export async function sitemapXml(origin: string, content: ContentSource): Promise<string> {
  const pages = BASE_ROUTES.filter((r) => r.public && r.indexable).map((r) => urlEntry(origin, r.base));
  // listPosts answers newest first.
  const lists = await Promise.all(LOCALE_CODES.map(async (locale) => (await content.listPosts(locale)).slice(0, SITEMAP_POSTS_MAX)));
  const posts = lists.flat().map((post) => postEntries(origin, post));
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">' +
    pages.join('') +
    posts.join('') +
    '</urlset>'
  );
}

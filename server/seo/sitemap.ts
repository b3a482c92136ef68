// robots.txt and sitemap.xml, both derived from the route table (every public, indexable page
// in both locales, plus each blog post).
import { defaultLocale, LOCALE_CODES } from '../../shared/locales.ts';
import { BASE_ROUTES, localePath } from '../../shared/routes.ts';
import type { ContentSource } from '../content/source.ts';
import { escapeHtml } from '../render/html.ts';

export function robotsTxt(origin: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /_data', 'Disallow: /api/', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
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

export async function sitemapXml(origin: string, content: ContentSource): Promise<string> {
  const pages = BASE_ROUTES.filter((r) => r.public && r.indexable).map((r) => urlEntry(origin, r.base));
  const posts = (await content.listPosts(defaultLocale)).map((p) => urlEntry(origin, 'blog-slug', { slug: p.slug }, p.date));
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">' +
    pages.join('') +
    posts.join('') +
    '</urlset>'
  );
}

// The blog's feeds: RSS 2.0 and Atom 1.0 per language, the newest posts first, built with the
// `feed` library. Served where the blog is, in every locale form of the route table:
// /blog/rss.xml and /blog/atom.xml (Spanish), /es/blog/… (the same feeds: like /es/x, whose
// canonical form is /x, they name the unprefixed address as their own), /en/blog/….
//
// The library writes item titles and summaries into CDATA sections and attribute values almost
// raw, so the text is prepared here: plain text becomes HTML where the format says it is HTML
// (Atom's type="html", RSS descriptions), characters XML 1.0 forbids are dropped, and a title's
// `]]>` cannot end its CDATA section early.
import express, { type Router } from 'express';
import type { Item } from 'feed';
import type { Locale } from '../../shared/locales.ts';
import type { FeedLink } from '../../shared/page-data.ts';
import { formOfPath, localeForms, localePath } from '../../shared/routes.ts';
import type { Translate } from '../../shared/translate.ts';
import type { ContentSource } from '../content/source.ts';
import { escapeHtml } from '../http/html.ts';
import { socialImageOf } from './images.ts';
import { postDate, postTags, postUpdated, type PostFacts } from './post.ts';

/** Posts a feed carries: the newest of the language. */
export const FEED_SIZE = 20;

export const FEED_FORMATS = {
  rss: { file: 'rss.xml', type: 'application/rss+xml', label: 'RSS' },
  atom: { file: 'atom.xml', type: 'application/atom+xml', label: 'Atom' },
} as const;
export type FeedFormat = keyof typeof FEED_FORMATS;
const FORMATS = Object.keys(FEED_FORMATS) as FeedFormat[];

/** A feed's address in a language: beside the blog's page, in the form the site links (/blog/rss.xml, /en/blog/rss.xml). */
export function feedPath(format: FeedFormat, locale: Locale): string {
  return `${localePath('blog', locale)}/${FEED_FORMATS[format].file}`;
}

/** The <link rel="alternate"> of each feed, for every page's head. */
export function feedLinks(origin: string, locale: Locale, title: string): FeedLink[] {
  return FORMATS.map((format) => ({
    type: FEED_FORMATS[format].type,
    title: `${title} (${FEED_FORMATS[format].label})`,
    href: origin + feedPath(format, locale),
  }));
}

/** Characters XML 1.0 does not allow (controls, lone surrogates, U+FFFE/U+FFFF) make a feed unreadable: dropped. */
function xmlChars(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- the control characters are what is removed
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '',
  );
}

/**
 * Text for a CDATA section written by the library's XML writer (xml-js), which splits only the
 * first `]]>` of a text: the later ones are split here, the same way, so none ends the section.
 */
function cdataText(text: string): string {
  let first = true;
  return xmlChars(text).replace(/]]>/g, (match) => {
    if (first) {
      first = false;
      return match;
    }
    return ']]]]><![CDATA[>';
  });
}

/** Text where the format expects HTML (escaped: no `<`, `>` or `&` of its own, hence no `]]>` either). */
function htmlText(text: string): string {
  return escapeHtml(xmlChars(text));
}

const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
};

/**
 * The cover as an enclosure, when its address names an image type (an address without one
 * would give a meaningless type), with its size in bytes when the site serves the file itself.
 * RSS requires a length: 0 when unknown, as RSS readers expect then; Atom's is optional and
 * left out rather than said wrong.
 */
function coverEnclosure(post: PostFacts, site: FeedSite, format: FeedFormat) {
  const image = socialImageOf(post, site.origin);
  if (!image) return null;
  const url = new URL(image.url);
  const extension = url.pathname.split('.').pop()?.toLowerCase() ?? '';
  const type = IMAGE_TYPES[extension];
  if (!type) return null;
  const bytes = url.origin === new URL(site.origin).origin ? (site.coverBytes?.(url.pathname) ?? null) : null;
  if (bytes !== null) return { url: image.url, type, length: bytes };
  return format === 'rss' ? { url: image.url, type, length: 0 } : { url: image.url, type };
}

/**
 * The library writes an Atom enclosure's type from the file's extension (`image/jpg`, which is
 * no registered type) whatever it is given: each enclosure link gets the type its extension
 * stands for (IMAGE_TYPES).
 */
function atomEnclosureTypes(xml: string): string {
  return xml.replace(
    /(<link rel="enclosure" [^>]*?type=")image\/([a-z0-9.+-]+)(")/gi,
    (match, before: string, ext: string, after: string) => {
      const type = IMAGE_TYPES[ext.toLowerCase()];
      return type ? `${before}${type}${after}` : match;
    },
  );
}

export type FeedSite = {
  content: ContentSource;
  origin: string;
  siteName: string;
  translator: (locale: Locale) => Translate;
  /** The size in bytes of an image the site serves at this path (a post's cover under /assets/content), or null. */
  coverBytes?: (path: string) => number | null;
};

function feedItem(format: FeedFormat, post: PostFacts, site: FeedSite, locale: Locale): Item {
  const url = site.origin + localePath('blog-slug', locale, { slug: post.slug });
  const cover = coverEnclosure(post, site, format);
  const tags = postTags(post);
  const author = xmlChars(post.author);
  return {
    // RSS titles are plain text; Atom's are written as type="html" by the library.
    title: format === 'rss' ? cdataText(post.title) : htmlText(post.title),
    id: url,
    link: url,
    date: postDate(postUpdated(post)),
    published: postDate(post.date),
    description: htmlText(post.description),
    // RSS's <author> is an e-mail address: the name goes in <dc:creator> (RSS) or <author><name> (Atom).
    ...(format === 'rss' ? { extensions: [{ name: 'dc:creator', objects: { _text: author } }] } : { author: [{ name: author }] }),
    ...(tags.length
      ? {
          // Atom's label is an attribute the library does not escape for `<`: a tag's name loses its angle brackets there.
          category: tags.map((tag) =>
            format === 'rss' ? { name: xmlChars(tag.name) } : { name: xmlChars(tag.name).replace(/[<>]/g, ''), term: tag.slug },
          ),
        }
      : {}),
    ...(cover ? { image: cover } : {}),
  };
}

/** The feed of a language in one format, as XML. */
export async function feedXml(format: FeedFormat, locale: Locale, site: FeedSite): Promise<string> {
  const t = site.translator(locale);
  const posts: PostFacts[] = (await site.content.listPosts(locale)).slice(0, FEED_SIZE);
  const blogUrl = site.origin + localePath('blog', locale);
  const newest = posts.map((post) => postDate(postUpdated(post)).getTime()).filter(Number.isFinite);
  // The library (and its XML writer) is loaded on the first feed asked for, not at every start.
  const { Feed } = await import('feed');
  const feed = new Feed({
    id: blogUrl,
    link: blogUrl,
    title: xmlChars(t('seo.feedTitle', { siteName: site.siteName })),
    description: xmlChars(t('pages.blog.description', { siteName: site.siteName })),
    language: locale,
    updated: newest.length ? new Date(Math.max(...newest)) : new Date(),
    generator: false,
    feedLinks: { [format]: site.origin + feedPath(format, locale) },
  });
  for (const post of posts) feed.addItem(feedItem(format, post, site, locale));
  if (format === 'atom') return atomEnclosureTypes(feed.atom1());
  // The library declares the Dublin Core namespace only for full-content items: <dc:creator> needs it.
  return feed.rss2().replace('<rss version="2.0"', '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"');
}

/** GET (and HEAD) of every feed in every locale form; cached like the sitemap (public, an hour). */
export function feedRoutes(site: FeedSite): Router {
  const router = express.Router();
  for (const format of FORMATS) {
    router.get(localeForms(`/blog/${FEED_FORMATS[format].file}`), async (req, res) => {
      const xml = await feedXml(format, formOfPath(req.path).locale, site);
      res.type(`${FEED_FORMATS[format].type}; charset=utf-8`).set('Cache-Control', 'public, max-age=3600').send(xml);
    });
  }
  return router;
}

// What a shared link shows: Open Graph (Facebook, LinkedIn, WhatsApp, Slack…), article tags on
// posts, a Twitter large-image card; and the links to the blog's feeds. Computed with the rest
// of the head (server/render/resolve.ts), so a client navigation re-applies them too.
//
// A page search engines may index gets the full set. A noindex page (the private area, errors)
// gets og:site_name and og:title only: a link to it pasted in a chat is named, and nothing
// about it is described or pictured.
import { LOCALE_CODES, localeInfo, type Locale } from '../../shared/locales.ts';
import type { Head } from '../../shared/page-data.ts';
import type { Translate } from '../../shared/translate.ts';
import { feedLinks } from './feeds.ts';
import { defaultSocialImage, socialImageOf, type SocialImage } from './images.ts';
import { postTags, postUpdated, type PostFacts } from './post.ts';

export type SocialTag = [property: string, content: string];

/** og:locale is language_TERRITORY, from the site's locale table: es-ES → es_ES, en-US → en_US. */
export function ogLocale(locale: Locale): string {
  return localeInfo(locale).iso.replace('-', '_');
}

export type SocialPage = {
  origin: string;
  siteName: string;
  locale: Locale;
  /** The page's own title, without the site name (the site name on the home page). */
  title: string;
  /** The post a post's page shows. */
  article: PostFacts | null;
  t: Translate;
};

function imageTags(image: SocialImage): SocialTag[] {
  return [
    ['og:image', image.url],
    ...(image.width && image.height
      ? ([
          ['og:image:width', String(image.width)],
          ['og:image:height', String(image.height)],
        ] satisfies SocialTag[])
      : []),
    ['og:image:alt', image.alt],
  ];
}

function articleTags(post: PostFacts): SocialTag[] {
  return [
    // ISO 8601 as the source gives it (a bare date is one).
    ['article:published_time', post.date],
    ['article:modified_time', postUpdated(post)],
    ['article:author', post.author],
    ...postTags(post).map((tag): SocialTag => ['article:tag', tag.name]),
  ];
}

export function socialTags(head: Head, page: SocialPage): SocialTag[] {
  const basic: SocialTag[] = [
    ['og:site_name', page.siteName],
    ['og:title', page.title],
  ];
  if (head.robots?.includes('noindex')) return basic;
  const image =
    (page.article && socialImageOf(page.article, page.origin)) ??
    defaultSocialImage(page.origin, page.t('seo.defaultImageAlt', { siteName: page.siteName }));
  return [
    ['og:type', page.article ? 'article' : 'website'],
    ...basic,
    ['og:description', head.description],
    ['og:url', head.canonical],
    ['og:locale', ogLocale(page.locale)],
    // The languages the page is also in (a post: its translations; a tag: none).
    ...LOCALE_CODES.filter((l) => l !== page.locale && head.alternates.some((a) => a.hrefLang === l)).map((l): SocialTag => [
      'og:locale:alternate',
      ogLocale(l),
    ]),
    ...imageTags(image),
    ...(page.article ? articleTags(page.article) : []),
    ['twitter:card', 'summary_large_image'],
    ['twitter:title', page.title],
    ['twitter:description', head.description],
    ['twitter:image', image.url],
    ['twitter:image:alt', image.alt],
  ];
}

/** The head with its social tags and the feeds of the page's language. */
export function publishingHead(head: Head, page: SocialPage): Head {
  return {
    ...head,
    social: socialTags(head, page),
    feeds: feedLinks(page.origin, page.locale, page.t('seo.feedTitle', { siteName: page.siteName })),
  };
}

// Blog posts, legal pages and the home page's content from Strapi (v4 or v5), behind the same
// ContentSource as the embedded Markdown. The content types the site expects in the CMS:
//
//   Collection "post" (REST /api/posts), Internationalization on (es default, en):
//     title        Text (short), required
//     slug         UID (from title), required; a translation may have its own slug (the
//                  translations of a post are one document in Strapi 5 — its documentId —
//                  and linked by `localizations` in Strapi 4)
//     description  Text (long)
//     content      Rich text: Markdown (Strapi 4, Strapi 5 "Rich text (Markdown)")
//                  or Strapi 5 "Rich text (Blocks)"
//     author       Text (short)
//     date         Date (falls back to publishedAt when empty)
//     cover        Media, single image, optional (served through /cms/uploads/..., or from
//                  the upload provider's host when it is one of CMS_MEDIA_HOSTS); its
//                  `formats` (thumbnail, small, medium, large) become the image's srcset
//     tags         Relation, post has and belongs to many "tag", optional
//
//   Collection "tag" (REST /api/tags), Internationalization on:
//     name         Text (short), required
//     slug         UID (from name)
//
//   Collection "legal-page" (REST /api/legal-pages), Internationalization on:
//     page         Enumeration: cookies | legal | privacy | responsible, required
//     title        Text (short), required
//     description  Text (long)
//     content      Rich text (Markdown or Blocks)
//     (updatedAt, set by Strapi, is shown as the "last updated" date)
//
//   Single type "home" (REST /api/home), Internationalization on:
//     figures      Component, repeatable ("home.figure"): value Text (short), label Text
//                  (short), both required; the first 6 are shown
//     logos        Component, repeatable ("home.client-logo"): name Text (short) and logo Media
//                  (single image), both required; the first 12 are shown (in Strapi 5, turn
//                  localization off for this field: the same logos in every language)
//     sample       Boolean, optional (on: the page says its figures and stories are samples)
//
//   Collection "case-study" (REST /api/case-studies), Internationalization on:
//     title        Text (short), required
//     slug         UID (from title), required
//     client       Text (short), required
//     sector       Text (short), required
//     practice     Enumeration: digital | data | sustainability | compliance, required
//     resultValue  Text (short), optional ("−45 %"), with
//     resultLabel  Text (short) (what the figure counts)
//     quote        Text (long), required; quoteBy Text (short), required (name, role)
//     story        Rich text (Markdown or Blocks)
//     order        Integer (smallest first; the home page shows the first three)
//     sample       Boolean, optional
//     challenge    Text (long), optional: the client's problem, the case study's page opens with it
//     figures      Component, repeatable ("home.figure"), optional: further results (at most 4)
//
//   Collection "practice" (REST /api/practices), Internationalization on: a practice's own page
//     practice     Enumeration: digital | data | sustainability | compliance, required (one
//                  entry per practice and language; a second is skipped with a warning)
//     title        Text (short), required; description Text (long), required (≤ 300)
//     body         Rich text (Markdown or Blocks): what the practice is
//     steps        Component, repeatable ("practice.step"): title Text (short), text Text (long)
//                  — how the work goes, at most 6
//     engagements  Component, repeatable ("practice.engagement"): text Text (short), at most 6
//     caseStudy    Text (short), optional: the slug of the case study the page shows (else the
//                  practice's first)
//
//   Collection "author" (REST /api/authors), Internationalization on: who writes the posts
//     name         Text (short), required: as the posts' `author` gives it
//     role         Text (short), required
//     bio          Rich text (Markdown or Blocks): the short bio under a post
//     photo        Media, single image, optional
//
//   Collection "redirect" (REST /api/redirects), Internationalization off (a path carries its
//   language: /old, /es/old and /en/old are three redirects):
//     from         Text (short), required: a path (/old-page), never a page of the site
//     to           Text (short), required: a path (/blog?tag=x) or an http(s) URL
//     status       Integer, 301 (default, permanent) or 302 (temporary)
//     (checked by server/content/redirects.ts: a bad one, a loop, a second one from the same
//     path are refused with a warning; the oldest of two from the same path wins)
//
//   Read anonymously, so the Public role needs find + findOne on posts and legal pages, and find
//   on tags, and find on home, case-study, practice, author and redirect (with CMS_TOKEN, the token does instead): Strapi 4 and 5 leave out of an answer,
//   without an error, a relation whose type its reader may not find (no tags shown). A post
//   type without `tags` (an older content model) still works: Strapi 5 refuses the populate
//   (400 "Invalid key tags"), the site asks again without tags, logs it once and shows no
//   tags. Never with the service account: its jwt would get its role's permissions instead
//   of the Public role's.
//
// The list of posts is read page by page (Strapi answers at most 100 entries a page, its
// default api.rest.maxLimit), following meta.pagination, up to 50 pages (5000 posts) per locale;
// past that the newest 5000 are listed and a warning is logged.
// Answers are validated entry by entry (an invalid entry — a post, a case study, a figure, a
// logo — is skipped with a warning), rendered
// to sanitised HTML once, and cached per locale and slug/page for ttlMs, or until the CMS's
// webhook says they changed (purge, server/cms/invalidation.ts). When the CMS fails,
// the last good value is served (stale) and the CMS is left alone for failureTtlMs; with no
// value to fall back on, the page fails with a 503 (the home page instead shows no figures,
// logos or case studies: server/render/loaders.ts). A home or case-study type the CMS does not
// have (404) is no content, with one warning.
import { defaultLocale as siteDefaultLocale, type Locale } from '../../shared/locales.ts';
import type { Author, CaseStudy, HomeContent, LegalDocument, Post, PracticeContent } from '../../shared/page-data.ts';
import { foldText } from '../../shared/blog.ts';
import { LEGAL_PAGES, type LegalPageKey } from '../../shared/routes.ts';
import type { RedirectTable } from '../content/redirects.ts';
import type { ContentSource } from '../content/source.ts';
import type { Logger } from '../base/logger.ts';
import { contentLoader, type CachedLoader } from './cached-loader.ts';
import type { StrapiClient } from './client.ts';
import { createEntryReader, entryLocale } from './entries.ts';
import { createHomeFetch } from './home.ts';
import { createPracticesFetch } from './practices.ts';
import { normalizeEntries } from './normalize.ts';
import { createPosts, type ReadPost } from './posts.ts';
import { createRedirectFetch } from './redirects.ts';
import { legalSchema } from './schemas.ts';

export type StrapiContent = ContentSource & {
  redirects(): Promise<RedirectTable>;
  /** Makes what a change in the CMS touched stale on this instance (server/cms/invalidation.ts). */
  purge(scope: ContentPurge): void;
};

/**
 * What changed in the CMS: a post (by its documentId and/or slug; neither: every post), a legal
 * page (or every one), or everything (media, which any page may show).
 */
export type ContentPurge =
  | { model: 'post'; documentId?: string | undefined; slug?: string | undefined }
  | { model: 'legal-page'; page?: LegalPageKey | undefined }
  /** The public site's other content: the home's single type, the case studies, the practices and the authors. */
  | { model: 'home' }
  /** The editors' redirects. */
  | { model: 'redirect' }
  | { model: 'all' };

export type StrapiContentOptions = {
  client: StrapiClient;
  defaultLocale?: Locale;
  ttlMs?: number;
  /** After a failure, how long the CMS is left alone (stale or failed answers are kept). */
  failureTtlMs?: number;
  /** Origin whose absolute /uploads URLs are accepted; by default the client's. */
  cmsOrigin?: string;
  /** CMS_MEDIA_HOSTS: images (covers, images in the content) on these hosts are shown. */
  mediaHosts?: readonly string[];
  logger: Logger;
  now?: () => number;
  /**
   * Drafts (the preview, server/cms/drafts.ts, with a client that reads them): nothing is
   * cached, so that a draft never reaches a visitor, and translations come from
   * `localizations` only (no other language's list is read for a preview).
   */
  draft?: boolean;
};

export function createStrapiContent(options: StrapiContentOptions): StrapiContent {
  const { client, logger } = options;
  const defaultLocale = options.defaultLocale ?? siteDefaultLocale;
  const draft = options.draft === true;
  const settings = {
    ttlMs: options.ttlMs ?? 60_000,
    failureTtlMs: options.failureTtlMs ?? 10_000,
    now: options.now ?? Date.now,
    logger,
    draft,
  };
  const cachedLists = contentLoader<ReadPost[]>(settings);
  const cachedPosts = contentLoader<ReadPost<Post> | null>(settings);
  const cachedLegal = contentLoader<LegalDocument | null>(settings);
  const cachedHome = contentLoader<HomeContent | null>(settings);
  const cachedCaseStudies = contentLoader<CaseStudy[]>(settings);
  const cachedRedirects = contentLoader<RedirectTable>(settings);
  const entries = createEntryReader({ logger, cmsOrigin: options.cmsOrigin ?? client.origin, mediaHosts: options.mediaHosts ?? [] });
  const posts = createPosts({ client, logger, entries, draft, lists: cachedLists, posts: cachedPosts });
  const { fetchHome, fetchCaseStudies } = createHomeFetch({ client, logger, entries, defaultLocale });
  const cachedPractices = contentLoader<PracticeContent[]>(settings);
  const cachedAuthors = contentLoader<Map<string, Author>>(settings);
  const { fetchPractices, fetchAuthors } = createPracticesFetch({ client, logger, entries });
  const authorsIn = (locale: Locale) => cachedAuthors(`authors:${locale}`, () => fetchAuthors(locale));
  const fetchRedirects = createRedirectFetch({ client, logger, entries });

  async function fetchLegal(page: LegalPageKey, locale: Locale): Promise<LegalDocument | null> {
    const body = await client.get('/api/legal-pages', { 'filters[page][$eq]': page, locale }, { as: 'public' });
    const entry = entries.validEntries(legalSchema, normalizeEntries(body), 'legal page').find((e) => e.page === page);
    if (!entry) return null;
    const { title, description, updatedAt } = entry;
    return { page, title, description, updated: updatedAt, html: await entries.toHtml(entry.content), locale: entryLocale(entry, locale) };
  }

  /** The legal page in the locale, else (a missing translation) the default locale's. */
  async function withFallback<T>(locale: Locale, read: (locale: Locale) => Promise<T | null>): Promise<T | null> {
    const found = await read(locale);
    if (found !== null || locale === defaultLocale) return found;
    return read(defaultLocale);
  }

  return {
    ...posts,
    async getLegal(page, locale) {
      if (!LEGAL_PAGES.includes(page)) return null;
      return cachedLegal(`legal:${locale}:${page}`, () => withFallback(locale, (l) => fetchLegal(page, l)));
    },
    getHome: (locale) => cachedHome(`home:${locale}`, () => withFallback(locale, fetchHome)),
    listCaseStudies: (locale) => cachedCaseStudies(`case-studies:${locale}`, () => fetchCaseStudies(locale)),
    listPractices: (locale) => cachedPractices(`practices:${locale}`, () => fetchPractices(locale)),
    async getAuthor(name, locale) {
      const key = foldText(name);
      const own = (await authorsIn(locale)).get(key);
      if (own || locale === defaultLocale) return own ?? null;
      return (await authorsIn(defaultLocale)).get(key) ?? null;
    },
    redirects: () => cachedRedirects('redirects', fetchRedirects),
    purge: (scope) => {
      purgeCaches(scope, {
        lists: cachedLists,
        posts: cachedPosts,
        legal: cachedLegal,
        home: cachedHome,
        caseStudies: cachedCaseStudies,
        practices: cachedPractices,
        authors: cachedAuthors,
      });
      if (scope.model === 'redirect' || scope.model === 'all') cachedRedirects.expire(() => true);
    },
  };
}

/**
 * What a change makes stale. A post: every language's list (it may join, leave or move in
 * any), its entries by documentId (all its translations, an old slug too) and by slug, and the
 * posts remembered as missing (it may be one of them, under a slug no event names); with
 * neither id nor slug, every post. A legal page: that page in every language (a language
 * without its own text shows the default language's). Media: everything.
 */
function purgeCaches(
  scope: ContentPurge,
  caches: {
    lists: CachedLoader<ReadPost[]>;
    posts: CachedLoader<ReadPost<Post> | null>;
    legal: CachedLoader<LegalDocument | null>;
    home: CachedLoader<HomeContent | null>;
    caseStudies: CachedLoader<CaseStudy[]>;
    practices: CachedLoader<PracticeContent[]>;
    authors: CachedLoader<Map<string, Author>>;
  },
): void {
  if (scope.model === 'post' || scope.model === 'all') {
    caches.lists.expire(() => true);
    const { documentId, slug } = scope.model === 'post' ? scope : {};
    const every = scope.model === 'all' || (!documentId && !slug);
    caches.posts.expire(
      (_key, read) =>
        every || !read || (documentId !== undefined && read.documentId === documentId) || (slug !== undefined && read.post.slug === slug),
    );
  }
  if (scope.model === 'legal-page' || scope.model === 'all') {
    const page = scope.model === 'legal-page' ? scope.page : undefined;
    caches.legal.expire((key) => !page || key.endsWith(`:${page}`));
  }
  if (scope.model === 'home' || scope.model === 'all') {
    caches.home.expire(() => true);
    caches.caseStudies.expire(() => true);
    caches.practices.expire(() => true);
    caches.authors.expire(() => true);
  }
}

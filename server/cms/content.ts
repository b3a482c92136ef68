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
//
//   Read anonymously, so the Public role needs find + findOne on posts and legal pages, and find
//   on tags, and find on home and case-study (with CMS_TOKEN, the token does instead): Strapi 4 and 5 leave out of an answer,
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
import { z } from 'zod';
import { SLUG_PATTERN, tagsOf } from '../../shared/blog.ts';
import { defaultLocale as siteDefaultLocale, isLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import { HOME_LIMITS } from '../../shared/home.ts';
import type { CaseStudy, HomeContent, HomeFigure, LegalDocument, Post, PostSummary, ResponsiveImage } from '../../shared/page-data.ts';
import { PRACTICES } from '../../shared/practices.ts';
import { LEGAL_PAGES, type LegalPageKey } from '../../shared/routes.ts';
import type { ContentSource } from '../content/source.ts';
import { loadMarkdown } from '../content/markdown-lazy.ts';
import { HttpError } from '../http/errors.ts';
import type { Logger } from '../base/logger.ts';
import { blocksToMarkdown } from './blocks.ts';
import { createSingleFlight, createTtlCache } from '../base/cache.ts';
import type { StrapiClient } from './client.ts';
import { CmsError } from './errors.ts';
import { cmsMediaUrl } from './media-url.ts';
import { normalizeEntries, normalizeResponse, paginationOf, type CmsEntry } from './normalize.ts';

export type StrapiContent = ContentSource & {
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
  /** The home page's content: its single type and the case studies. */
  | { model: 'home' }
  | { model: 'all' };

/** A post as read, before its translations are looked up: what links it to them. */
type ReadPost<T extends PostSummary = PostSummary> = {
  post: T;
  documentId: string | null;
  /** The translations' slugs from the answer's `localizations`; null when the answer has none. */
  localizations: Partial<Record<Locale, string>> | null;
};

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

const SLUG = SLUG_PATTERN;
// Strapi answers at most `api.rest.maxLimit` entries a page (100 by default), whatever is asked:
// lists are read page by page, following meta.pagination.
const LIST_PAGE_SIZE = 100;
// A bound on memory and on the time a list takes: at most this many pages (5000 posts) per locale.
const MAX_LIST_PAGES = 50;
// Pages read at once after the first, which tells how many there are.
const PAGES_AT_ONCE = 4;

/** Newest first, ties by slug: the order does not depend on how the CMS sorts equal dates. */
function newestFirst(a: PostSummary, b: PostSummary): number {
  return b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug);
}

// Strapi's `date` is YYYY-MM-DD; `publishedAt`/`updatedAt` are ISO date-times: keep the day.
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}/, 'must be a date')
  .transform((value) => value.slice(0, 10));
const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');
const richText = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).nullish();
const size = z.number().int().positive().max(20_000);
const rendition = z.looseObject({ url: z.string(), width: size, height: size });
const media = z
  .looseObject({
    url: z.string(),
    width: size.nullish(),
    height: size.nullish(),
    alternativeText: z.string().nullish(),
    formats: z.record(z.string(), rendition.nullish().catch(null)).nullish().catch(null),
  })
  .nullish()
  .catch(null);
// A relation Strapi left out (no permission, not populated) is absent; a broken one is ignored.
const tagList = z
  .array(z.looseObject({ name: z.string(), slug: z.string().nullish() }))
  .nullish()
  .catch(null);
const localizationList = z
  .array(z.looseObject({ slug: z.string().nullish(), locale: z.string().nullish() }))
  .nullish()
  .catch(null);

const postSchema = z
  .looseObject({
    title: z.string().trim().min(1),
    slug: z.string().regex(SLUG, 'must be lower-case letters, digits and hyphens'),
    description: text,
    content: richText,
    author: text,
    date: day.nullish(),
    publishedAt: day.nullish(),
    updatedAt: day.nullish(),
    cover: media,
    tags: tagList,
    localizations: localizationList,
    documentId: z.string().optional(),
    locale: z.string().optional(),
  })
  .refine((entry) => entry.date || entry.publishedAt, { message: 'needs a date (or publishedAt)', path: ['date'] });

const legalSchema = z.looseObject({
  page: z.enum(LEGAL_PAGES),
  title: z.string().trim().min(1),
  description: text,
  content: richText,
  updatedAt: day,
  locale: z.string().optional(),
});

const figureSchema = z.looseObject({
  value: z.string().trim().min(1).max(HOME_LIMITS.figureValue),
  label: z.string().trim().min(1).max(HOME_LIMITS.figureLabel),
});
const logoSchema = z.looseObject({ name: z.string().trim().min(1).max(HOME_LIMITS.logoName), logo: media });
const homeSchema = z.looseObject({
  // Items are checked one by one (a bad one is skipped, not the whole home).
  figures: z.array(z.unknown()).nullish(),
  logos: z.array(z.unknown()).nullish(),
  sample: z.boolean().nullish(),
  locale: z.string().optional(),
});
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);
const caseStudySchema = z
  .looseObject({
    title: z.string().trim().min(1).max(HOME_LIMITS.title),
    slug: z.string().regex(SLUG_PATTERN, 'must be lower-case letters, digits and hyphens'),
    client: z.string().trim().min(1).max(HOME_LIMITS.client),
    sector: z.string().trim().min(1).max(HOME_LIMITS.sector),
    practice: z.enum(PRACTICES),
    resultValue: optionalText(HOME_LIMITS.figureValue),
    resultLabel: optionalText(HOME_LIMITS.figureLabel),
    quote: z.string().trim().min(1).max(HOME_LIMITS.quote),
    quoteBy: z.string().trim().min(1).max(HOME_LIMITS.quoteBy),
    story: richText,
    order: z.number().int().nullish(),
    sample: z.boolean().nullish(),
    locale: z.string().optional(),
  })
  .refine((entry) => Boolean(entry.resultValue) === Boolean(entry.resultLabel), {
    path: ['resultLabel'],
    message: 'goes with resultValue (both or neither)',
  });

/** A logo without its own size (an SVG in some upload providers): room kept for this shape. */
const LOGO_FALLBACK_SIZE = { width: 240, height: 96 };

type PostEntry = z.infer<typeof postSchema>;

type CacheSettings = { ttlMs: number; failureTtlMs: number; now: () => number; logger: Logger };

type CachedLoader<T> = ((key: string, load: () => Promise<T>) => Promise<T>) & {
  /** Makes the entries `match` picks stale (a failure's entry has no value); loads under way are not kept. */
  expire(match: (key: string, value: T | undefined) => boolean): void;
};

/**
 * A loader with a cache: fresh values for ttlMs; when a reload fails, the last good value
 * (stale), else a 503. Either way the CMS is left alone for failureTtlMs, so that a CMS that is
 * down neither slows every page by its timeout nor gets asked on every page view.
 * After `expire`, a load that started before it is neither joined nor kept: it may have read
 * the CMS before the change (each expiry starts a new generation of loads).
 */
function staleOnFailure<T>({ ttlMs, failureTtlMs, now, logger }: CacheSettings): CachedLoader<T> {
  const cache = createTtlCache<{ ok: true; value: T } | { ok: false; error: HttpError }>({ now });
  const singleFlight = createSingleFlight<T>();
  let generation = 0;
  const load = async (key: string, load: () => Promise<T>) => {
    const hit = cache.get(key);
    if (hit?.fresh) {
      if (hit.value.ok) return hit.value.value;
      throw hit.value.error;
    }
    const started = generation;
    return singleFlight(`${started}:${key}`, async () => {
      try {
        const value = await load();
        if (started === generation) cache.set(key, { ok: true, value }, ttlMs);
        return value;
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : 'unknown error';
        if (hit?.value.ok) {
          logger.warn({ key }, `CMS content ${key}: ${reason}; serving the last good copy`);
          cache.set(key, hit.value, failureTtlMs);
          return hit.value.value;
        }
        logger.warn({ key }, `CMS content ${key}: ${reason}; nothing cached to serve`);
        const error = new HttpError(503, `Content is unavailable: ${key}`, 'errors.generic', { cause });
        cache.set(key, { ok: false, error }, failureTtlMs);
        throw error;
      }
    });
  };
  return Object.assign(load, {
    expire(match: (key: string, value: T | undefined) => boolean) {
      generation++;
      cache.expire((key, entry) => match(key, entry.ok ? entry.value : undefined));
    },
  });
}

/** No cache at all (drafts): every call loads; a failure is a 503, as with nothing cached. */
function uncached<T>(logger: Logger): CachedLoader<T> {
  const load = async (key: string, load: () => Promise<T>) => {
    try {
      return await load();
    } catch (cause) {
      logger.warn({ key }, `CMS draft ${key}: ${cause instanceof Error ? cause.message : 'unknown error'}`);
      throw new HttpError(503, `Content is unavailable: ${key}`, 'errors.generic', { cause });
    }
  };
  return Object.assign(load, { expire() {} });
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'entry'} ${issue.message}`).join('; ');
}

export function createStrapiContent(options: StrapiContentOptions): StrapiContent {
  const { client, logger } = options;
  const defaultLocale = options.defaultLocale ?? siteDefaultLocale;
  const ttlMs = options.ttlMs ?? 60_000;
  const failureTtlMs = options.failureTtlMs ?? 10_000;
  const cmsOrigin = options.cmsOrigin ?? client.origin;
  const mediaHosts = options.mediaHosts ?? [];
  const now = options.now ?? Date.now;
  const settings = { ttlMs, failureTtlMs, now, logger };
  const draft = options.draft === true;
  const cachedLists = draft ? uncached<ReadPost[]>(logger) : staleOnFailure<ReadPost[]>(settings);
  const cachedPosts = draft ? uncached<ReadPost<Post> | null>(logger) : staleOnFailure<ReadPost<Post> | null>(settings);
  const cachedLegal = draft ? uncached<LegalDocument | null>(logger) : staleOnFailure<LegalDocument | null>(settings);
  const cachedHome = draft ? uncached<HomeContent | null>(logger) : staleOnFailure<HomeContent | null>(settings);
  const cachedCaseStudies = draft ? uncached<CaseStudy[]>(logger) : staleOnFailure<CaseStudy[]>(settings);

  function mediaUrl(url: unknown): string | null {
    return cmsMediaUrl(url, { cmsOrigin, mediaHosts });
  }

  async function toHtml(content: PostEntry['content']): Promise<string> {
    const { markdownToSafeHtml } = await loadMarkdown();
    const markdown = typeof content === 'string' ? content : blocksToMarkdown(content, { mediaUrl });
    // Images and links to the CMS's uploads go through the proxy; the sanitiser keeps only
    // images the CSP allows, so one on another host is dropped.
    return markdownToSafeHtml(markdown, { mediaHosts, rewriteUrl: mediaUrl });
  }

  function validEntries<T extends z.ZodType>(schema: T, entries: CmsEntry[], what: string): z.infer<T>[] {
    const valid: z.infer<T>[] = [];
    for (const entry of entries) {
      const result = schema.safeParse(entry);
      if (result.success) valid.push(result.data);
      else logger.warn({ entryId: entry.id }, `CMS ${what} ${String(entry.id)} skipped: ${describeIssues(result.error)}`);
    }
    return valid;
  }

  function entryLocale(entry: { locale?: string | undefined }, asked: Locale): Locale {
    return isLocale(entry.locale) ? entry.locale : asked;
  }

  /** Strapi's media with its renditions (`formats`) as an image with a srcset; null when not showable. */
  function responsiveImage(cover: PostEntry['cover']): ResponsiveImage | null {
    const src = cover ? mediaUrl(cover.url) : null;
    if (!cover || !src) return null;
    const renditions = Object.values(cover.formats ?? {})
      .flatMap((format) => {
        const url = format ? mediaUrl(format.url) : null;
        return url && format ? [{ url, width: format.width, height: format.height }] : [];
      })
      .sort((a, b) => a.width - b.width);
    // The original's size, else (an upload provider that drops it) the largest rendition's.
    const largest = renditions.at(-1);
    const width = cover.width ?? largest?.width ?? 1200;
    const height = cover.height ?? largest?.height ?? 630;
    const widths = [...renditions.filter((r) => r.width < width), { url: src, width }];
    return {
      src,
      width,
      height,
      alt: cover.alternativeText ?? '',
      ...(widths.length > 1 ? { srcset: widths.map((r) => `${r.url} ${r.width}w`).join(', ') } : {}),
    };
  }

  function toRead(entry: PostEntry, locale: Locale): ReadPost {
    let localizations: Partial<Record<Locale, string>> | null = null;
    if (entry.localizations) {
      localizations = {};
      for (const other of entry.localizations) {
        if (isLocale(other.locale) && other.slug && SLUG.test(other.slug)) localizations[other.locale] = other.slug;
      }
    }
    const post: PostSummary = {
      slug: entry.slug,
      title: entry.title,
      description: entry.description,
      // The refine above guarantees one of the two.
      date: entry.date ?? entry.publishedAt ?? '',
      ...(entry.updatedAt ? { updated: entry.updatedAt } : {}),
      author: entry.author,
      locale,
      tags: tagsOf(entry.tags ?? []),
      cover: responsiveImage(entry.cover),
      translations: { [locale]: entry.slug },
    };
    return { post, documentId: entry.documentId ?? null, localizations };
  }

  /** Whether the post type has the `tags` relation; false once the CMS refused to populate it. */
  let tagsInModel = true;

  function populate(withTags: boolean): Record<string, string> {
    return {
      'populate[cover]': 'true',
      'populate[localizations][fields][0]': 'slug',
      'populate[localizations][fields][1]': 'locale',
      ...(withTags ? { 'populate[tags][fields][0]': 'name', 'populate[tags][fields][1]': 'slug' } : {}),
    };
  }

  /**
   * A read of posts. A 400 to a read with the tags' populate is read again without them; when
   * that succeeds the post type has no tags (Strapi 5 refuses an unknown populate), and later
   * reads go without. Whether tags were asked is decided per read, not by the flag at the time
   * of the answer: reads in flight when another one found out are read again too.
   */
  async function readPosts(query: Record<string, string | number>): Promise<unknown> {
    const withTags = tagsInModel;
    try {
      return await client.get('/api/posts', { ...query, ...populate(withTags) }, { as: 'public' });
    } catch (error) {
      if (!(withTags && error instanceof CmsError && error.status === 400)) throw error;
      // When this fails too, the 400 was about something else: the error is the read's, tags stay.
      const body = await client.get('/api/posts', { ...query, ...populate(false) }, { as: 'public' });
      if (tagsInModel) {
        tagsInModel = false;
        logger.warn('CMS posts: the CMS refused to populate `tags` (400): reading posts without tags (add the relation to show them)');
      }
      return body;
    }
  }

  /** Only entries in the language asked for: a post is not offered in a language it is not written in. */
  function inLocale(entries: PostEntry[], locale: Locale): PostEntry[] {
    return entries.filter((entry) => entryLocale(entry, locale) === locale);
  }

  async function fetchPostPage(locale: Locale, page: number) {
    const body = await readPosts({
      locale,
      // The slug breaks ties between equal dates, so that pages do not overlap or skip.
      'sort[0]': 'date:desc',
      'sort[1]': 'slug:asc',
      'pagination[page]': page,
      'pagination[pageSize]': LIST_PAGE_SIZE,
    });
    const answer = normalizeResponse(body);
    const entries = answer.kind === 'collection' ? answer.entries : answer.entry ? [answer.entry] : [];
    // Only the summaries are kept: a page's content bodies are garbage once it is read.
    return {
      posts: inLocale(validEntries(postSchema, entries, 'post'), locale).map((entry) => toRead(entry, locale)),
      pagination: paginationOf(answer.meta),
    };
  }

  async function fetchPosts(locale: Locale): Promise<ReadPost[]> {
    const first = await fetchPostPage(locale, 1);
    const pageCount = first.pagination?.pageCount ?? 1;
    const last = Math.min(pageCount, MAX_LIST_PAGES);
    if (pageCount > MAX_LIST_PAGES) {
      logger.warn(
        { locale, total: first.pagination?.total, pageCount },
        `CMS posts (${locale}): ${pageCount} pages in the CMS; only the first ${MAX_LIST_PAGES} (the newest posts) are listed`,
      );
    }
    const pages = [first.posts];
    for (let page = 2; page <= last; page += PAGES_AT_ONCE) {
      const batch = Array.from({ length: Math.min(PAGES_AT_ONCE, last - page + 1) }, (_, i) => fetchPostPage(locale, page + i));
      for (const { posts } of await Promise.all(batch)) pages.push(posts);
    }
    // A post published while the pages are read pushes another onto the next page twice.
    const bySlug = new Map<string, ReadPost>();
    for (const read of pages.flat()) if (!bySlug.has(read.post.slug)) bySlug.set(read.post.slug, read);
    return [...bySlug.values()].sort((a, b) => newestFirst(a.post, b.post));
  }

  async function fetchPost(slug: string, locale: Locale): Promise<ReadPost<Post> | null> {
    const body = await readPosts({ 'filters[slug][$eq]': slug, locale });
    const entry = inLocale(validEntries(postSchema, normalizeEntries(body), 'post'), locale).find((e) => e.slug === slug);
    if (!entry) return null;
    const read = toRead(entry, locale);
    return { ...read, post: { ...read.post, html: await toHtml(entry.content) } };
  }

  /** documentId → slug of a list (Strapi 5), made once per list read. */
  const slugsByDocument = new WeakMap<readonly ReadPost[], Map<string, string>>();
  function documentIndex(list: readonly ReadPost[]): Map<string, string> {
    let index = slugsByDocument.get(list);
    if (!index) {
      index = new Map(list.flatMap((read) => (read.documentId ? [[read.documentId, read.post.slug] as const] : [])));
      slugsByDocument.set(list, index);
    }
    return index;
  }

  /** Whether a read needs the other languages' lists for its translations (Strapi 5 without `localizations`). */
  function needsLists(read: ReadPost): boolean {
    return read.localizations === null && read.documentId !== null;
  }

  /**
   * The post's slug in every language it is written in: from `localizations` when the answer
   * has them (Strapi 4, and 5: its published translations), else by its documentId in the
   * other languages' lists (Strapi 5).
   */
  function withTranslations<T extends PostSummary>(read: ReadPost<T>, others: ReadonlyMap<Locale, readonly ReadPost[]>): T {
    const translations: Partial<Record<Locale, string>> = { ...read.localizations, [read.post.locale]: read.post.slug };
    const documentId = needsLists(read) ? read.documentId : null;
    if (documentId) {
      for (const [locale, list] of others) {
        const slug = documentIndex(list).get(documentId);
        if (slug) translations[locale] = slug;
      }
    }
    return { ...read.post, translations };
  }

  function cachedList(locale: Locale): Promise<ReadPost[]> {
    return cachedLists(`posts:${locale}`, () => fetchPosts(locale));
  }

  /**
   * The other languages' lists, to link translations by documentId (only Strapi 5 without
   * `localizations` in its answers needs them: each is read whole, 100 posts a request).
   * A list that cannot be read now leaves that language out rather than failing the page.
   */
  async function otherLists(locale: Locale, reads: readonly ReadPost[]): Promise<Map<Locale, ReadPost[]>> {
    const lists = new Map<Locale, ReadPost[]>();
    if (draft || !reads.some(needsLists)) return lists;
    await Promise.all(
      LOCALE_CODES.filter((other) => other !== locale).map(async (other) => {
        const list = await cachedList(other).catch(() => null);
        if (list) lists.set(other, list);
      }),
    );
    return lists;
  }

  // A language's list with its translations, made again only when one of the lists was read again.
  const listed = new Map<Locale, { own: ReadPost[]; others: ReadPost[][]; posts: PostSummary[] }>();
  async function translatedList(locale: Locale): Promise<PostSummary[]> {
    const own = await cachedList(locale);
    const others = await otherLists(locale, own);
    const seen = listed.get(locale);
    const otherValues = [...others.values()];
    if (seen && seen.own === own && seen.others.length === otherValues.length && seen.others.every((list, i) => list === otherValues[i])) {
      return seen.posts;
    }
    const posts = own.map((read) => withTranslations(read, others));
    listed.set(locale, { own, others: otherValues, posts });
    return posts;
  }

  async function fetchLegal(page: LegalPageKey, locale: Locale): Promise<LegalDocument | null> {
    const body = await client.get('/api/legal-pages', { 'filters[page][$eq]': page, locale }, { as: 'public' });
    const entry = validEntries(legalSchema, normalizeEntries(body), 'legal page').find((e) => e.page === page);
    if (!entry) return null;
    const { title, description, updatedAt } = entry;
    return { page, title, description, updated: updatedAt, html: await toHtml(entry.content), locale: entryLocale(entry, locale) };
  }

  /** The legal page in the locale, else (a missing translation) the default locale's. */
  async function withFallback<T>(locale: Locale, read: (locale: Locale) => Promise<T | null>): Promise<T | null> {
    const found = await read(locale);
    if (found !== null || locale === defaultLocale) return found;
    return read(defaultLocale);
  }

  /** Types the CMS answered 404 for (not in its content model): warned about once. */
  const missingTypes = new Set<string>();

  /**
   * A read of a home-page type; a 404 (the type, or the single type's entry in this language, is
   * not there) is null, with one warning per type when nothing else will be shown instead.
   */
  async function readOptional(path: string, query: Record<string, string | number>, last: boolean): Promise<unknown> {
    try {
      return await client.get(path, query, { as: 'public' });
    } catch (error) {
      if (!(error instanceof CmsError && error.status === 404)) throw error;
      if (last && !missingTypes.has(path)) {
        missingTypes.add(path);
        logger.warn({ path }, `CMS ${path}: not found (404): the home page shows none of it until the content type and its entries exist`);
      }
      return null;
    }
  }

  /** Items of a repeatable component, each checked: a bad one is skipped with a warning. */
  function validItems<T extends z.ZodType>(schema: T, items: readonly unknown[] | null | undefined, what: string): z.infer<T>[] {
    const valid: z.infer<T>[] = [];
    (items ?? []).forEach((item, i) => {
      const result = schema.safeParse(item);
      if (result.success) valid.push(result.data);
      else logger.warn({ item: i + 1 }, `CMS ${what} ${i + 1} skipped: ${describeIssues(result.error)}`);
    });
    return valid;
  }

  function logoImage(logo: z.infer<typeof logoSchema>): ResponsiveImage | null {
    const image = responsiveImage(logo.logo);
    if (!image) {
      logger.warn({ name: logo.name }, `CMS home logo "${logo.name}" skipped: its image is missing or on a host the site does not show`);
      return null;
    }
    const sized = logo.logo?.width && logo.logo.height ? {} : LOGO_FALLBACK_SIZE;
    return { ...image, ...sized, alt: logo.name };
  }

  async function fetchHome(locale: Locale): Promise<HomeContent | null> {
    const query = { locale, 'populate[figures]': 'true', 'populate[logos][populate][0]': 'logo' };
    // A language without its home falls back to the default language's (withFallback): only that one's 404 is news.
    const body = await readOptional('/api/home', query, locale === defaultLocale);
    const entry = body === null ? undefined : validEntries(homeSchema, normalizeEntries(body), 'home')[0];
    if (!entry) return null;
    const figures: HomeFigure[] = validItems(figureSchema, entry.figures, 'home figure')
      .slice(0, HOME_LIMITS.figures)
      .map(({ value, label }) => ({ value, label }));
    const logos = validItems(logoSchema, entry.logos, 'home logo')
      .flatMap((logo) => logoImage(logo) ?? [])
      .slice(0, HOME_LIMITS.logos);
    return { figures, logos, sample: entry.sample ?? false };
  }

  async function fetchCaseStudies(locale: Locale): Promise<CaseStudy[]> {
    // Sorted here, not by the CMS: a content model without `order` still works.
    const body = await readOptional('/api/case-studies', { locale, 'pagination[pageSize]': LIST_PAGE_SIZE }, true);
    if (body === null) return [];
    const entries = validEntries(caseStudySchema, normalizeEntries(body), 'case study')
      .filter((entry) => entryLocale(entry, locale) === locale)
      .sort((a, b) => (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER) || a.slug.localeCompare(b.slug));
    return Promise.all(
      entries.map(async (entry) => ({
        slug: entry.slug,
        locale,
        title: entry.title,
        client: entry.client,
        sector: entry.sector,
        practice: entry.practice,
        result: entry.resultValue && entry.resultLabel ? { value: entry.resultValue, label: entry.resultLabel } : null,
        quote: entry.quote,
        quoteBy: entry.quoteBy,
        html: await toHtml(entry.story),
        sample: entry.sample ?? false,
      })),
    );
  }

  return {
    listPosts: translatedList,
    async getPost(slug, locale) {
      if (!SLUG.test(slug)) return null;
      const read = await cachedPosts(`post:${locale}:${slug}`, () => fetchPost(slug, locale));
      return read && withTranslations(read, await otherLists(locale, [read]));
    },
    async getLegal(page, locale) {
      if (!LEGAL_PAGES.includes(page)) return null;
      return cachedLegal(`legal:${locale}:${page}`, () => withFallback(locale, (l) => fetchLegal(page, l)));
    },
    getHome: (locale) => cachedHome(`home:${locale}`, () => withFallback(locale, fetchHome)),
    listCaseStudies: (locale) => cachedCaseStudies(`case-studies:${locale}`, () => fetchCaseStudies(locale)),
    purge: (scope) =>
      purgeCaches(scope, { lists: cachedLists, posts: cachedPosts, legal: cachedLegal, home: cachedHome, caseStudies: cachedCaseStudies }),
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
  }
}

// Blog posts and legal pages from Strapi (v4 or v5), behind the same ContentSource as the
// embedded Markdown. The content types the site expects in the CMS:
//
//   Collection "post" (REST /api/posts), Internationalization on (es default, en):
//     title        Text (short), required
//     slug         UID (from title), required; a translation keeps the slug of its es entry
//     description  Text (long)
//     content      Rich text: Markdown (Strapi 4, Strapi 5 "Rich text (Markdown)")
//                  or Strapi 5 "Rich text (Blocks)"
//     author       Text (short)
//     date         Date (falls back to publishedAt when empty)
//     cover        Media, single image, optional (served through /cms/uploads/..., or from
//                  the upload provider's host when it is one of CMS_MEDIA_HOSTS)
//
//   Collection "legal-page" (REST /api/legal-pages), Internationalization on:
//     page         Enumeration: cookies | legal | privacy | responsible, required
//     title        Text (short), required
//     description  Text (long)
//     content      Rich text (Markdown or Blocks)
//     (updatedAt, set by Strapi, is shown as the "last updated" date)
//
//   Read anonymously, so the Public role needs find + findOne on both (with CMS_TOKEN, the
//   token does instead). Never with the service account: its jwt would get its role's
//   permissions instead of the Public role's.
//
// The list of posts is read page by page (Strapi answers at most 100 entries a page, its
// default api.rest.maxLimit), following meta.pagination, up to 50 pages (5000 posts) per locale;
// past that the newest 5000 are listed and a warning is logged.
// Answers are validated entry by entry (an invalid entry is skipped with a warning), rendered
// to sanitised HTML once, and cached per locale and slug/page for ttlMs. When the CMS fails,
// the last good value is served (stale) and the CMS is left alone for failureTtlMs; with no
// value to fall back on, the page fails with a 503.
import { z } from 'zod';
import { defaultLocale as siteDefaultLocale, isLocale, type Locale } from '../../shared/locales.ts';
import type { LegalDocument, Post, PostSummary } from '../../shared/page-data.ts';
import { LEGAL_PAGES, type LegalPageKey } from '../../shared/routes.ts';
import type { ContentSource } from '../content/source.ts';
import { loadMarkdown } from '../content/markdown-lazy.ts';
import { HttpError } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import { blocksToMarkdown } from './blocks.ts';
import { createSingleFlight, createTtlCache } from './cache.ts';
import type { StrapiClient } from './client.ts';
import { cmsMediaUrl } from './media-url.ts';
import { normalizeEntries, normalizeResponse, paginationOf, type CmsEntry } from './normalize.ts';

/** A post summary as the CMS gives it: with the cover image's proxied path, when there is one. */
export type CmsPostSummary = PostSummary & { coverUrl: string | null };
export type CmsPost = Post & { coverUrl: string | null };

export type StrapiContent = ContentSource & {
  listPosts(locale: Locale): Promise<CmsPostSummary[]>;
  getPost(slug: string, locale: Locale): Promise<CmsPost | null>;
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
};

const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;
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
const media = z.looseObject({ url: z.string() }).nullish().catch(null);

const postSchema = z
  .looseObject({
    title: z.string().trim().min(1),
    slug: z.string().regex(SLUG, 'must be lower-case letters, digits and hyphens'),
    description: text,
    content: richText,
    author: text,
    date: day.nullish(),
    publishedAt: day.nullish(),
    cover: media,
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

type PostEntry = z.infer<typeof postSchema>;

type CacheSettings = { ttlMs: number; failureTtlMs: number; now: () => number; logger: Logger };

/**
 * A loader with a cache: fresh values for ttlMs; when a reload fails, the last good value
 * (stale), else a 503. Either way the CMS is left alone for failureTtlMs, so that a CMS that is
 * down neither slows every page by its timeout nor gets asked on every page view.
 */
function staleOnFailure<T>({ ttlMs, failureTtlMs, now, logger }: CacheSettings): (key: string, load: () => Promise<T>) => Promise<T> {
  const cache = createTtlCache<{ ok: true; value: T } | { ok: false; error: HttpError }>({ now });
  const singleFlight = createSingleFlight<T>();
  return async (key, load) => {
    const hit = cache.get(key);
    if (hit?.fresh) {
      if (hit.value.ok) return hit.value.value;
      throw hit.value.error;
    }
    return singleFlight(key, async () => {
      try {
        const value = await load();
        cache.set(key, { ok: true, value }, ttlMs);
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
  const cachedLists = staleOnFailure<CmsPostSummary[]>(settings);
  const cachedPosts = staleOnFailure<CmsPost | null>(settings);
  const cachedLegal = staleOnFailure<LegalDocument | null>(settings);

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

  function toSummary(entry: PostEntry, locale: Locale): CmsPostSummary {
    return {
      slug: entry.slug,
      title: entry.title,
      description: entry.description,
      // The refine above guarantees one of the two.
      date: entry.date ?? entry.publishedAt ?? '',
      author: entry.author,
      locale: entryLocale(entry, locale),
      coverUrl: mediaUrl(entry.cover?.url),
    };
  }

  async function fetchPostPage(locale: Locale, page: number) {
    const body = await client.get(
      '/api/posts',
      {
        locale,
        // The slug breaks ties between equal dates, so that pages do not overlap or skip.
        'sort[0]': 'date:desc',
        'sort[1]': 'slug:asc',
        populate: 'cover',
        'pagination[page]': page,
        'pagination[pageSize]': LIST_PAGE_SIZE,
      },
      { as: 'public' },
    );
    const answer = normalizeResponse(body);
    const entries = answer.kind === 'collection' ? answer.entries : answer.entry ? [answer.entry] : [];
    // Only the summaries are kept: a page's content bodies are garbage once it is read.
    return {
      posts: validEntries(postSchema, entries, 'post').map((entry) => toSummary(entry, locale)),
      pagination: paginationOf(answer.meta),
    };
  }

  async function fetchPosts(locale: Locale): Promise<CmsPostSummary[]> {
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
    const bySlug = new Map<string, CmsPostSummary>();
    for (const post of pages.flat()) if (!bySlug.has(post.slug)) bySlug.set(post.slug, post);
    return [...bySlug.values()];
  }

  async function fetchPost(slug: string, locale: Locale): Promise<CmsPost | null> {
    const body = await client.get('/api/posts', { 'filters[slug][$eq]': slug, locale, populate: 'cover' }, { as: 'public' });
    const entry = validEntries(postSchema, normalizeEntries(body), 'post').find((e) => e.slug === slug);
    return entry ? { ...toSummary(entry, locale), html: await toHtml(entry.content) } : null;
  }

  async function fetchLegal(page: LegalPageKey, locale: Locale): Promise<LegalDocument | null> {
    const body = await client.get('/api/legal-pages', { 'filters[page][$eq]': page, locale }, { as: 'public' });
    const entry = validEntries(legalSchema, normalizeEntries(body), 'legal page').find((e) => e.page === page);
    if (!entry) return null;
    const { title, description, updatedAt } = entry;
    return { page, title, description, updated: updatedAt, html: await toHtml(entry.content), locale: entryLocale(entry, locale) };
  }

  /** The entry in the locale, else (a missing translation) the default locale's. */
  async function withFallback<T>(locale: Locale, read: (locale: Locale) => Promise<T | null>): Promise<T | null> {
    const found = await read(locale);
    if (found !== null || locale === defaultLocale) return found;
    return read(defaultLocale);
  }

  function listPosts(locale: Locale): Promise<CmsPostSummary[]> {
    return cachedLists(`posts:${locale}`, () => fetchPosts(locale));
  }

  return {
    async listPosts(locale) {
      const own = await listPosts(locale);
      if (locale === defaultLocale) return [...own].sort(newestFirst);
      // Per post: its translation when there is one, else the default-locale entry.
      const fallback = await listPosts(defaultLocale);
      const translated = new Set(own.map((post) => post.slug));
      return [...own, ...fallback.filter((post) => !translated.has(post.slug))].sort(newestFirst);
    },
    async getPost(slug, locale) {
      if (!SLUG.test(slug)) return null;
      return cachedPosts(`post:${locale}:${slug}`, () => withFallback(locale, (l) => fetchPost(slug, l)));
    },
    async getLegal(page, locale) {
      if (!LEGAL_PAGES.includes(page)) return null;
      return cachedLegal(`legal:${locale}:${page}`, () => withFallback(locale, (l) => fetchLegal(page, l)));
    },
  };
}

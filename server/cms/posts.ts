// The posts from the CMS: the list of a language read page by page, one post by its slug, and
// each one's translations (from the answer's `localizations`, else by its documentId in the
// other languages' lists). The content model and the caching: server/cms/content.ts.
import { SLUG_PATTERN, tagsOf } from '../../shared/blog.ts';
import { isLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import type { Post, PostSummary } from '../../shared/page-data.ts';
import type { ContentSource } from '../content/source.ts';
import type { Logger } from '../base/logger.ts';
import type { CachedLoader } from './cached-loader.ts';
import type { StrapiClient } from './client.ts';
import { entryLocale, LIST_PAGE_SIZE, type EntryReader } from './entries.ts';
import { CmsError } from './errors.ts';
import { normalizeEntries, normalizeResponse, paginationOf } from './normalize.ts';
import { postSchema, type PostEntry } from './schemas.ts';

/** A post as read, before its translations are looked up: what links it to them. */
export type ReadPost<T extends PostSummary = PostSummary> = {
  post: T;
  documentId: string | null;
  /** The translations' slugs from the answer's `localizations`; null when the answer has none. */
  localizations: Partial<Record<Locale, string>> | null;
};

// A bound on memory and on the time a list takes: at most this many pages (5000 posts) per locale.
const MAX_LIST_PAGES = 50;
// Pages read at once after the first, which tells how many there are.
const PAGES_AT_ONCE = 4;

/** Newest first, ties by slug: the order does not depend on how the CMS sorts equal dates. */
function newestFirst(a: PostSummary, b: PostSummary): number {
  return b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug);
}

function toRead(entry: PostEntry, locale: Locale, responsiveImage: EntryReader['responsiveImage']): ReadPost {
  let localizations: Partial<Record<Locale, string>> | null = null;
  if (entry.localizations) {
    localizations = {};
    for (const other of entry.localizations) {
      if (isLocale(other.locale) && other.slug && SLUG_PATTERN.test(other.slug)) localizations[other.locale] = other.slug;
    }
  }
  const post: PostSummary = {
    slug: entry.slug,
    title: entry.title,
    description: entry.description,
    // postSchema's refine guarantees one of the two.
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

function populate(withTags: boolean): Record<string, string> {
  return {
    'populate[cover]': 'true',
    'populate[localizations][fields][0]': 'slug',
    'populate[localizations][fields][1]': 'locale',
    ...(withTags ? { 'populate[tags][fields][0]': 'name', 'populate[tags][fields][1]': 'slug' } : {}),
  };
}

/** Only entries in the language asked for: a post is not offered in a language it is not written in. */
function inLocale(entries: PostEntry[], locale: Locale): PostEntry[] {
  return entries.filter((entry) => entryLocale(entry, locale) === locale);
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

type FetchOptions = { client: StrapiClient; logger: Logger; entries: EntryReader };

/** The reads of posts from the CMS, and whether its post type has tags (found out by a read). */
function createPostFetch({ client, logger, entries: reader }: FetchOptions) {
  const { validEntries, toHtml, responsiveImage } = reader;
  /** Whether the post type has the `tags` relation; false once the CMS refused to populate it. */
  let tagsInModel = true;

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
      posts: inLocale(validEntries(postSchema, entries, 'post'), locale).map((entry) => toRead(entry, locale, responsiveImage)),
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
    const read = toRead(entry, locale, responsiveImage);
    return { ...read, post: { ...read.post, html: await toHtml(entry.content) } };
  }

  return { fetchPosts, fetchPost };
}

export type PostsOptions = FetchOptions & {
  /** A preview's posts: translations from `localizations` only (no other language's list is read). */
  draft: boolean;
  lists: CachedLoader<ReadPost[]>;
  posts: CachedLoader<ReadPost<Post> | null>;
};

/** The posts' part of the content source: the lists and the posts, cached, with their translations. */
export function createPosts({
  draft,
  lists: cachedLists,
  posts: cachedPosts,
  ...fetch
}: PostsOptions): Pick<ContentSource, 'listPosts' | 'getPost'> {
  const { fetchPosts, fetchPost } = createPostFetch(fetch);

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

  return {
    listPosts: translatedList,
    async getPost(slug, locale) {
      if (!SLUG_PATTERN.test(slug)) return null;
      const read = await cachedPosts(`post:${locale}:${slug}`, () => fetchPost(slug, locale));
      return read && withTranslations(read, await otherLists(locale, [read]));
    },
  };
}

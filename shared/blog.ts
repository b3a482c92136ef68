// The blog's lists: pages of posts, a tag's posts, a search's results. Pure functions of the
// language's posts (newest first) and, for a search, of what the site search found
// (server/search/), used by the server's loader.
import type { BlogList, PostSummary, Tag } from './page-data.ts';
import type { SearchResults } from './search.ts';

/** Posts per page of the blog, of a tag's page and of a search. */
export const BLOG_PAGE_SIZE = 10;
/** Longest search the blog takes (longer input is cut). */
export const BLOG_SEARCH_MAX = 100;
/** How wide an image in a post's column is shown (`sizes`): the column is 46rem, less the page's sides below. */
export const POST_IMAGE_SIZES = '(min-width: 800px) 736px, calc(100vw - 2.5rem)';
/** A post's slug, a tag's slug: lower-case letters, digits and hyphens. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,99}$/;

/** Lower case, accents and case folded away: "Protección de Datos" → "proteccion de datos". */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A tag's slug from its name: "Protección de datos" → "proteccion-de-datos". */
export function slugify(name: string): string {
  return foldText(name)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
}

/**
 * Tags from a front matter list (names) or a CMS relation (names, with their own slug when it is
 * a valid one): deduplicated by slug, in order.
 */
export function tagsOf(items: readonly (string | { name: string; slug?: string | null | undefined })[]): Tag[] {
  const tags = new Map<string, Tag>();
  for (const item of items) {
    const name = (typeof item === 'string' ? item : item.name).trim().slice(0, 60);
    const own = typeof item === 'string' ? null : item.slug;
    const slug = own && SLUG_PATTERN.test(own) ? own : slugify(name);
    if (name && slug && !tags.has(slug)) tags.set(slug, { slug, name });
  }
  return [...tags.values()];
}

/**
 * The words of a search as shown and matched: control characters (a NUL, a line break) are
 * spaces, and it is cut to `max` characters (the blog's BLOG_SEARCH_MAX), never in the middle of one.
 */
export function searchWords(input: string, max = BLOG_SEARCH_MAX): string {
  return input
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .slice(0, max)
    .replace(/[\uD800-\uDBFF]$/, '')
    .trim();
}

// A source answers the same objects until its posts change (the embedded posts for the process's
// life, the CMS's for its cache's): what a list costs to compute is kept with them, so a page of
// a blog of thousands of posts does not count every tag or look up every slug again.
const tagCounts = new WeakMap<readonly PostSummary[], Map<string, Tag & { count: number }>>();
const bySlug = new WeakMap<readonly PostSummary[], Map<string, PostSummary>>();

/** The tags of the posts by slug, with how many posts carry each. */
function countTags(all: readonly PostSummary[]): Map<string, Tag & { count: number }> {
  let counts = tagCounts.get(all);
  if (counts) return counts;
  counts = new Map();
  for (const post of all) {
    for (const tag of post.tags) {
      const seen = counts.get(tag.slug);
      if (seen) seen.count++;
      else counts.set(tag.slug, { ...tag, count: 1 });
    }
  }
  tagCounts.set(all, counts);
  return counts;
}

export type BlogQuery = { page: number; tag?: string | null };

/** The tag cloud, and the tag asked for: undefined when it is not one of the posts'. */
function tagCloud(all: readonly PostSummary[], slug: string | null | undefined) {
  const counts = countTags(all);
  const tags = [...counts.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  const tag = slug ? counts.get(slug) : null;
  return { tags, tag: tag ? { slug: tag.slug, name: tag.name } : tag };
}

/** The page of the list asked for; `null` when the tag has no posts or the page is past the last. */
export function blogList(all: readonly PostSummary[], query: BlogQuery): BlogList | null {
  const { tags, tag } = tagCloud(all, query.tag);
  if (tag === undefined) return null;
  const selected = tag ? all.filter((post) => post.tags.some((t) => t.slug === tag.slug)) : all;
  const pageCount = Math.max(1, Math.ceil(selected.length / BLOG_PAGE_SIZE));
  if (query.page > pageCount) return null;
  const from = (query.page - 1) * BLOG_PAGE_SIZE;
  return { posts: selected.slice(from, from + BLOG_PAGE_SIZE), page: query.page, pageCount, total: selected.length, tag, q: '', tags };
}

/** The tag a search is confined to, checked against the posts: undefined when it is not one of theirs. */
export function blogSearchTag(all: readonly PostSummary[], slug: string | null | undefined): Tag | null | undefined {
  return tagCloud(all, slug).tag;
}

/**
 * A search's page of the blog: the posts the site search found, in its order, each with its
 * fragment (a post it found that the list no longer has — removed a moment ago — is left out).
 */
export function blogSearchList(all: readonly PostSummary[], query: BlogQuery & { q: string }, results: SearchResults): BlogList {
  let posts = bySlug.get(all);
  if (!posts) {
    posts = new Map(all.map((post) => [post.slug, post]));
    bySlug.set(all, posts);
  }
  const { tags, tag } = tagCloud(all, query.tag);
  const found = results.hits.flatMap((hit) => {
    const post = posts.get(hit.slug);
    return post ? [{ ...post, fragment: hit.fragment }] : [];
  });
  return { posts: found, page: results.page, pageCount: results.pageCount, total: results.total, tag: tag ?? null, q: query.q, tags };
}

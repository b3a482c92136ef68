// The blog's lists: pages of posts, a tag's posts, a search over titles and summaries. Pure
// functions of the language's posts (newest first), used by the server's loader.
import type { BlogList, PostSummary, Tag } from './page-data.ts';

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
 * spaces, and it is cut to BLOG_SEARCH_MAX characters, never in the middle of one.
 */
export function searchWords(input: string): string {
  return input
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .slice(0, BLOG_SEARCH_MAX)
    .replace(/[\uD800-\uDBFF]$/, '')
    .trim();
}

// A source answers the same objects until its posts change (the embedded posts for the process's
// life, the CMS's for its cache's): what a list costs to compute is kept with them, so a page of
// a blog of thousands of posts does not fold every title and count every tag again.
const foldedTexts = new WeakMap<PostSummary, string>();
const tagCounts = new WeakMap<readonly PostSummary[], Map<string, Tag & { count: number }>>();

/** Every search word is in the title or the summary (case and accents ignored). */
function matches(post: PostSummary, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  let text = foldedTexts.get(post);
  if (text === undefined) {
    text = foldText(`${post.title} ${post.description}`);
    foldedTexts.set(post, text);
  }
  return words.every((word) => text.includes(word));
}

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

export type BlogQuery = { page: number; tag?: string | null; q?: string };

/** The page of the list asked for; `null` when the tag has no posts or the page is past the last. */
export function blogList(all: readonly PostSummary[], query: BlogQuery): BlogList | null {
  const counts = countTags(all);
  const tags = [...counts.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  const tag = query.tag ? (counts.get(query.tag) ?? null) : null;
  if (query.tag && !tag) return null;
  const q = searchWords(query.q ?? '');
  const words = foldText(q).split(/\s+/).filter(Boolean);
  const selected =
    !tag && words.length === 0 ? all : all.filter((post) => (!tag || post.tags.some((t) => t.slug === tag.slug)) && matches(post, words));
  const pageCount = Math.max(1, Math.ceil(selected.length / BLOG_PAGE_SIZE));
  if (query.page > pageCount) return null;
  const from = (query.page - 1) * BLOG_PAGE_SIZE;
  return {
    posts: selected.slice(from, from + BLOG_PAGE_SIZE),
    page: query.page,
    pageCount,
    total: selected.length,
    tag: tag ? { slug: tag.slug, name: tag.name } : null,
    q,
    tags,
  };
}

// The posts a post's page suggests after it: those sharing the most of its tags first, then the
// newest. A pure function of the language's posts (newest first), used by the server's loader.
import type { PostSummary } from './page-data.ts';

/** How many related posts a post's page shows at most. */
export const RELATED_POSTS = 3;

/** What a post's page shows of a related post. */
export type RelatedPost = Pick<PostSummary, 'slug' | 'title' | 'description' | 'date'>;

/**
 * Up to `max` other posts of `posts` (newest first): most tags shared with `post` first, ties
 * (and posts sharing none) newest first. One pass, keeping the best `max`: a blog of thousands
 * of posts costs one look at each, never a sort of them all.
 */
export function relatedPosts(posts: readonly PostSummary[], post: PostSummary, max = RELATED_POSTS): RelatedPost[] {
  const tags = new Set(post.tags.map((tag) => tag.slug));
  // The best so far, best first; a later post replaces one only when it shares more tags (the
  // list is newest first, so on a tie the one kept is the newer).
  const best: { post: PostSummary; shared: number }[] = [];
  for (const other of posts) {
    if (other.slug === post.slug) continue;
    const shared = other.tags.reduce((count, tag) => count + (tags.has(tag.slug) ? 1 : 0), 0);
    if (best.length === max && shared <= best[best.length - 1]!.shared) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.shared < shared) at -= 1;
    best.splice(at, 0, { post: other, shared });
    if (best.length > max) best.pop();
  }
  return best.map(({ post: { slug, title, description, date } }) => ({ slug, title, description, date }));
}

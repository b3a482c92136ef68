// What the feeds, the social tags and the JSON-LD read of a post besides its summary: its tags
// and its last change, both optional (a source may not know them yet).
import type { PostSummary } from '../../shared/page-data.ts';

type Tag = { slug: string; name: string };
export type PostFacts = PostSummary & { tags?: readonly Tag[] | undefined; updated?: string | undefined };

export function postTags(post: PostFacts): readonly Tag[] {
  return post.tags ?? [];
}

/** The last change, or the publication date when the source does not know it. */
export function postUpdated(post: PostFacts): string {
  return post.updated ?? post.date;
}

/** A post's date as a Date: a bare YYYY-MM-DD is midnight UTC. */
export function postDate(value: string): Date {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
}

// The images a shared link or a search result shows: a post's cover, else the site's default
// social image; and the site's square logo (schema.org Organization). Both files are made by
// scripts/og-image.ts (name-free artwork: SITE_NAME may change without redrawing them).
import type { PostSummary } from '../../shared/page-data.ts';

/** Social networks take PNG or JPEG for og:image, never SVG. */
export const DEFAULT_SOCIAL_IMAGE = { path: '/og-default.png', width: 1200, height: 630 } as const;
export const SITE_LOGO = { path: '/logo-512.png', width: 512, height: 512 } as const;

/** An image for og:image and JSON-LD: an absolute URL; the size only when it is known. */
export type SocialImage = { url: string; width?: number; height?: number; alt: string };

/** A site-relative path (/cms/uploads/x.jpg) made absolute on the site's origin; an absolute http(s) URL kept. */
export function absoluteUrl(src: string, origin: string): string | null {
  try {
    const url = new URL(src, `${origin}/`);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

export function defaultSocialImage(origin: string, alt: string): SocialImage {
  return { url: origin + DEFAULT_SOCIAL_IMAGE.path, width: DEFAULT_SOCIAL_IMAGE.width, height: DEFAULT_SOCIAL_IMAGE.height, alt };
}

/** The post's cover (its `src` is the largest rendition, with its size) as a social image, or null. */
export function socialImageOf(post: PostSummary, origin: string): SocialImage | null {
  const url = post.cover ? absoluteUrl(post.cover.src, origin) : null;
  return url && post.cover ? { url, width: post.cover.width, height: post.cover.height, alt: post.cover.alt || post.title } : null;
}

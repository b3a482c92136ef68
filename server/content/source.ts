// The content source behind one small interface (embedded Markdown now; Strapi later).
import type { Locale } from '../../shared/locales.ts';
import type { LegalDocument, Post, PostSummary } from '../../shared/page-data.ts';
import type { LegalPageKey } from '../../shared/routes.ts';

export type ContentSource = {
  /** Posts in the locale (falling back to the default locale per post), newest first. */
  listPosts(locale: Locale): Promise<PostSummary[]>;
  getPost(slug: string, locale: Locale): Promise<Post | null>;
  getLegal(page: LegalPageKey, locale: Locale): Promise<LegalDocument | null>;
};

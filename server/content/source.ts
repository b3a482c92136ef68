// The content source behind one small interface (embedded Markdown now; Strapi later).
import type { Locale } from '../../shared/locales.ts';
import type { Author, CaseStudy, HomeContent, LegalDocument, Post, PostSummary, PracticeContent } from '../../shared/page-data.ts';
import type { LegalPageKey } from '../../shared/routes.ts';
import type { RedirectTable } from './redirects.ts';

export type ContentSource = {
  /** The posts written in the locale, newest first (a post is not offered in a language it is not written in). */
  listPosts(locale: Locale): Promise<PostSummary[]>;
  /** The post with this slug in this locale, or null. */
  getPost(slug: string, locale: Locale): Promise<Post | null>;
  /** Legal pages fall back to the default locale's text when a translation is missing. */
  getLegal(page: LegalPageKey, locale: Locale): Promise<LegalDocument | null>;
  /** The home page's figures and client logos: the locale's, else the default locale's; null when there are none. */
  getHome(locale: Locale): Promise<HomeContent | null>;
  /** The case studies written in the locale, in their order (`order`, then slug). */
  listCaseStudies(locale: Locale): Promise<CaseStudy[]>;
  /** The practices' own pages written in the locale, in the order of PRACTICES (a practice without its text has no page). */
  listPractices(locale: Locale): Promise<PracticeContent[]>;
  /** The author a post names (its `author`), as written in the locale, else in the default locale; null when there is no such author. */
  getAuthor(name: string, locale: Locale): Promise<Author | null>;
  /** The editors' redirects, checked (server/content/redirects.ts); a source without them has none. */
  redirects?(): Promise<RedirectTable>;
};

// A content source of posts given in full (bodies included) for the search's tests: changeable
// (the array is read on every call), and counting which posts' bodies were read.
import type { Locale } from '../../shared/locales.ts';
import type { CaseStudy, Post, PostSummary } from '../../shared/page-data.ts';
import { tagsOf } from '../../shared/blog.ts';
import type { ContentSource } from '../../server/content/source.ts';

export type FakePost = {
  slug: string;
  locale: Locale;
  title: string;
  description?: string;
  tags?: string[];
  html: string;
  date?: string;
  updated?: string;
};

/** A content source of these posts (changeable: `posts` is read on every call) and no case study but the ones given. */
export function fakeContent(posts: FakePost[], studies: CaseStudy[] = []) {
  const reads: string[] = [];
  const full = (p: FakePost): Post => ({
    slug: p.slug,
    locale: p.locale,
    title: p.title,
    description: p.description ?? '',
    date: p.date ?? '2026-01-01',
    ...(p.updated ? { updated: p.updated } : {}),
    author: 'Ana',
    tags: tagsOf(p.tags ?? []),
    cover: null,
    translations: { [p.locale]: p.slug },
    html: p.html,
  });
  const content: ContentSource = {
    listPosts: async (locale: Locale): Promise<PostSummary[]> =>
      posts
        .filter((p) => p.locale === locale)
        .map((p) => {
          const { html: _html, ...summary } = full(p);
          return summary;
        }),
    getPost: async (slug: string, locale: Locale) => {
      reads.push(`${locale}:${slug}`);
      const post = posts.find((p) => p.slug === slug && p.locale === locale);
      return post ? full(post) : null;
    },
    getLegal: async () => null,
    getHome: async () => null,
    listCaseStudies: async (locale: Locale) => studies.filter((s) => s.locale === locale),
    listPractices: async () => [],
    getAuthor: async () => null,
  };
  return { reads, content };
}

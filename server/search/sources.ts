// The search's sources over the content source (server/content/source.ts): the posts and the
// case studies, every language. A post's body is read when it is indexed (the embedded source
// reads it from the build's file, the CMS asks for it) and dropped once its row is written.
import { hash } from 'node:crypto';
import { LOCALE_CODES, localeHref } from '../../shared/locales.ts';
import { localePath } from '../../shared/routes.ts';
import type { ContentSource } from '../content/source.ts';
import { plainText, type SearchEntry, type SearchSource } from './documents.ts';

export type PostSourceOptions = {
  /**
   * The source's `updated` changes with every edit of a post (a CMS's updatedAt): an entry whose
   * summary is as indexed is then not read again. Front matter's `updated` is an editor's word,
   * not a guarantee: the embedded posts are read through.
   */
  trustUpdated: boolean;
};

/** The posts of every language. */
export function postSource(content: Pick<ContentSource, 'listPosts' | 'getPost'>, { trustUpdated }: PostSourceOptions): SearchSource {
  return {
    kind: 'post',
    async *entries(): AsyncIterable<SearchEntry> {
      for (const locale of LOCALE_CODES) {
        for (const summary of await content.listPosts(locale)) {
          const { slug } = summary;
          yield {
            kind: 'post',
            locale,
            slug,
            version: trustUpdated && summary.updated ? hash('sha256', JSON.stringify(summary), 'hex') : null,
            async read() {
              const post = await content.getPost(slug, locale);
              if (!post) return null;
              return {
                kind: 'post',
                locale,
                slug,
                path: localePath('blog-slug', locale, { slug }),
                title: post.title,
                summary: post.description,
                tags: post.tags,
                body: plainText(post.html),
                sortKey: post.date,
              };
            },
          };
        }
      }
    },
  };
}

/**
 * The case studies of every language (whole in their list: small, and few). Until they have a
 * page of their own they are read on the home, at their place in its case studies.
 */
export function caseStudySource(
  content: Pick<ContentSource, 'listCaseStudies'>,
  pathOf: (slug: string, locale: (typeof LOCALE_CODES)[number]) => string = (slug, locale) => `${localeHref('/', locale)}#case-${slug}`,
): SearchSource {
  return {
    kind: 'case-study',
    async *entries(): AsyncIterable<SearchEntry> {
      for (const locale of LOCALE_CODES) {
        for (const [i, study] of (await content.listCaseStudies(locale)).entries()) {
          const doc = {
            kind: 'case-study' as const,
            locale,
            slug: study.slug,
            path: pathOf(study.slug, locale),
            title: study.title,
            summary: [study.client, study.sector, study.result ? `${study.result.value} ${study.result.label}` : '']
              .filter(Boolean)
              .join(' · '),
            tags: [],
            body: plainText(`${study.html} ${study.quote} ${study.quoteBy}`),
            // Their order on the home: the first sorts highest.
            sortKey: String(999_999 - i).padStart(6, '0'),
          };
          yield { kind: 'case-study', locale, slug: study.slug, version: null, read: async () => doc };
        }
      }
    },
  };
}

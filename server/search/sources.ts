// The search's sources over the content source (server/content/source.ts): the posts, the case
// studies and the practices, every language. A post's body is read when it is indexed (the embedded source
// reads it from the build's file, the CMS asks for it) and dropped once its row is written.
import { hash } from 'node:crypto';
import { LOCALE_CODES } from '../../shared/locales.ts';
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

/** The case studies of every language (whole in their list: small, and few), each at its own page. */
export function caseStudySource(content: Pick<ContentSource, 'listCaseStudies'>): SearchSource {
  return {
    kind: 'case-study',
    async *entries(): AsyncIterable<SearchEntry> {
      for (const locale of LOCALE_CODES) {
        for (const [i, study] of (await content.listCaseStudies(locale)).entries()) {
          const doc = {
            kind: 'case-study' as const,
            locale,
            slug: study.slug,
            path: localePath('case-study', locale, { slug: study.slug }),
            title: study.title,
            summary: [study.client, study.sector, study.result ? `${study.result.value} ${study.result.label}` : '']
              .filter(Boolean)
              .join(' · '),
            tags: [],
            body: plainText(
              `${study.challenge ?? ''} ${study.html} ${study.figures.map((f) => `${f.value} ${f.label}`).join(' ')} ${study.quote} ${study.quoteBy}`,
            ),
            // Their order on the home: the first sorts highest.
            sortKey: String(999_999 - i).padStart(6, '0'),
          };
          yield { kind: 'case-study', locale, slug: study.slug, version: null, read: async () => doc };
        }
      }
    },
  };
}

/** The practices' pages of every language (four per language), each at its own page. */
export function practiceSource(content: Pick<ContentSource, 'listPractices'>): SearchSource {
  return {
    kind: 'practice',
    async *entries(): AsyncIterable<SearchEntry> {
      for (const locale of LOCALE_CODES) {
        for (const [i, practice] of (await content.listPractices(locale)).entries()) {
          const doc = {
            kind: 'practice' as const,
            locale,
            slug: practice.practice,
            path: localePath('practice', locale, { slug: practice.practice }),
            title: practice.title,
            summary: practice.description,
            tags: [],
            body: plainText(
              `${practice.html} ${practice.steps.map((step) => `${step.title}. ${step.text}`).join(' ')} ${practice.engagements.join('. ')}`,
            ),
            // Their order in the list of practices: the first sorts highest.
            sortKey: String(999_999 - i).padStart(6, '0'),
          };
          yield { kind: 'practice', locale, slug: practice.practice, version: null, read: async () => doc };
        }
      }
    },
  };
}

// The blog: ten posts a page, a tag's posts (/blog/tag/:tag), a search (?q=, the site search's
// posts: server/search/); past the last page, or an unknown tag, is not found.
import { blogList, blogSearchList, blogSearchTag, searchWords } from '../../shared/blog.ts';
import { notFound } from '../http/errors.ts';
import { pageNumber } from '../http/paging.ts';
import type { PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'content' | 'search'>;

export const loader = (async ({ services: { content, search }, locale, params, query, t }) => {
  const tag = params.tag ?? null;
  const page = pageNumber(query);
  const all = await content.listPosts(locale);
  const q = searchWords(query.get('q') ?? '');
  if (q) {
    if (blogSearchTag(all, tag) === undefined) throw notFound();
    const results = await search.search({ q, locale, kinds: ['post'], tag, page });
    if (!results) throw notFound();
    // Results are not a page of their own for search engines: the blog is.
    return {
      data: blogSearchList(all, { page, tag, q }, results),
      meta: { title: t('blog.searchTitle', { q }), robots: 'noindex, follow' },
    };
  }
  const list = blogList(all, { page, tag });
  if (!list) throw notFound();
  const pageQuery = (n: number) => (n > 1 ? `?page=${n}` : '');
  const named = list.tag ? t('blog.tagTitle', { tag: list.tag.name }) : t('pages.blog.title');
  return {
    data: list,
    meta: {
      title: page > 1 ? t('blog.pageTitle', { title: named, page: String(page) }) : named,
      ...(list.tag ? { description: t('blog.tagDescription', { tag: list.tag.name }) } : {}),
      canonicalQuery: pageQuery(page),
      // A tag, or a page past the first, is this language's alone.
      ...(list.tag || page > 1 ? { alternates: { [locale]: params } } : {}),
      ...(page > 1 ? { prev: pageQuery(page - 1) } : {}),
      ...(page < list.pageCount ? { next: pageQuery(page + 1) } : {}),
    },
  };
}) satisfies PageLoader<unknown, Uses>;

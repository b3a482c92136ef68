// The blog: the newest posts of the page's language, ten a page; a tag's posts (/blog/tag/x);
// the results of a search (?q=), each with the text around the words found. Links and a GET form: every view has its URL and works
// without JavaScript.
import { Link, useLocation } from 'react-router-dom';
import type { BlogList } from '../../shared/page-data.ts';
import { localePath } from '../../shared/routes.ts';
import { BlogSearch } from '../components/blog-search.tsx';
import { SearchFragment } from '../components/search-fragment.tsx';
import { ResponsiveImg } from '../blog/responsive-image.tsx';
import { TagLinks } from '../blog/tag-list.tsx';
import { PostMeta } from '../blog/post-meta.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/blog.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

function pageLink(pathname: string, list: BlogList, page: number): string {
  const query = new URLSearchParams();
  if (list.q) query.set('q', list.q);
  if (page > 1) query.set('page', String(page));
  const search = query.toString();
  return search ? `${pathname}?${search}` : pathname;
}

function heading(list: BlogList, t: ReturnType<typeof useI18n>['t']): string {
  if (list.q) return t('blog.searchTitle', { q: list.q });
  if (list.tag) return t('blog.tagTitle', { tag: list.tag.name });
  return t('pages.blog.title');
}

export default function BlogPage({ data }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { pathname } = useLocation();
  const blog = localePath('blog', locale);
  return (
    <div className="container page">
      <h1>{heading(data, t)}</h1>
      {!data.q && !data.tag && <p className="section-lead">{t('blog.lead')}</p>}
      <div className="blog-tools">
        <BlogSearch q={data.q} />
        {data.tags.length > 0 && (
          <div className="blog-topics">
            {/* The list's own name is its aria-label: this is its visible twin, beside the search's label. */}
            <p className="blog-tools-label" aria-hidden="true">
              {t('blog.topics')}
            </p>
            <TagLinks tags={data.tags} current={data.tag?.slug ?? null} label={t('blog.topics')} />
          </div>
        )}
      </div>
      {(data.q || data.tag) && (
        <p className="blog-status" role="status">
          {data.q ? t('blog.results', { count: data.total }) : t('blog.tagCount', { count: data.total })}{' '}
          <Link to={blog}>{t('blog.all')}</Link>
        </p>
      )}
      {data.posts.length === 0 ? (
        <p className="empty-state">{data.q ? t('blog.noResults') : t('blog.empty')}</p>
      ) : (
        <ul className="post-list">
          {data.posts.map((post, i) => (
            <li key={post.slug} className="post-summary">
              <article className={post.cover ? 'post-with-cover' : undefined}>
                {/* Beside the text from 768 px (16rem wide), above it on a phone. */}
                {post.cover && (
                  <ResponsiveImg
                    className="post-cover"
                    image={{ ...post.cover, alt: '' }}
                    sizes="(min-width: 768px) 16rem, calc(100vw - 2.5rem)"
                    lazy={i > 0}
                  />
                )}
                <div className="post-summary-body">
                  <h2>
                    <Link to={localePath('blog-slug', locale, { slug: post.slug })}>{post.title}</Link>
                  </h2>
                  <PostMeta date={post.date} author={post.author} />
                  <p>{post.description}</p>
                  {post.fragment && <SearchFragment parts={post.fragment} />}
                  <TagLinks tags={post.tags} label={t('blog.tags')} />
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      {data.pageCount > 1 && (
        <nav className="pager blog-pager" aria-label={t('blog.pages')}>
          {data.page > 1 ? (
            <Link rel="prev" to={pageLink(pathname, data, data.page - 1)}>
              {t('blog.newer')}
            </Link>
          ) : (
            <span />
          )}
          <span>{t('blog.pageOf', { page: data.page, pages: data.pageCount })}</span>
          {data.page < data.pageCount ? (
            <Link rel="next" to={pageLink(pathname, data, data.page + 1)}>
              {t('blog.older')}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </div>
  );
}

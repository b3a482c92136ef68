// The site search: a GET form (works without JavaScript; with it, a client navigation to the same
// URL), the results of every kind with their kind named and the text around the words found, and
// pages of them.
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { SEARCH_MAX } from '../../shared/search.ts';
import { SearchFragment } from '../components/search-fragment.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/search.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

function pageLink(action: string, q: string, page: number): string {
  const query = new URLSearchParams({ q });
  if (page > 1) query.set('page', String(page));
  return `${action}?${query.toString()}`;
}

export default function SearchPage({ data }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const action = localePath('search', locale);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const words = String(new FormData(event.currentTarget).get('q') ?? '').trim();
    void navigate(words ? pageLink(action, words, 1) : action);
  };
  return (
    <div className="container page">
      <h1>{data.q ? t('search.resultsTitle', { q: data.q }) : t('pages.search.title')}</h1>
      <form className="blog-search site-search" method="get" action={action} role="search" noValidate onSubmit={submit}>
        <label htmlFor="search-q">{t('search.label')}</label>
        <div className="blog-search-row">
          <input id="search-q" type="search" name="q" maxLength={SEARCH_MAX} defaultValue={data.q} key={data.q} />
          <button type="submit" className="button button-primary">
            {t('search.button')}
          </button>
        </div>
      </form>
      {!data.q ? (
        <p className="section-lead">{t('search.prompt')}</p>
      ) : (
        <p className="blog-status" role="status">
          {t('search.results', { count: data.total })}
          {data.cut && ` ${t('search.cut', { max: data.max })}`}
        </p>
      )}
      {data.q && data.hits.length === 0 && <p className="empty-state">{t('search.noResults')}</p>}
      {data.hits.length > 0 && (
        <ul className="post-list search-results">
          {data.hits.map((hit) => (
            <li key={`${hit.kind}:${hit.slug}`} className="post-summary">
              <article>
                <p className="search-kind">{t(`search.kind.${hit.kind}`)}</p>
                <h2>
                  <Link to={hit.path}>{hit.title}</Link>
                </h2>
                {hit.summary && <p>{hit.summary}</p>}
                <SearchFragment parts={hit.fragment} />
              </article>
            </li>
          ))}
        </ul>
      )}
      {data.pageCount > 1 && (
        <nav className="pager blog-pager" aria-label={t('search.pages')}>
          {data.page > 1 ? (
            <Link rel="prev" to={pageLink(action, data.q, data.page - 1)}>
              {t('search.previous')}
            </Link>
          ) : (
            <span />
          )}
          <span>{t('search.pageOf', { page: data.page, pages: data.pageCount })}</span>
          {data.page < data.pageCount ? (
            <Link rel="next" to={pageLink(action, data.q, data.page + 1)}>
              {t('search.next')}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </div>
  );
}

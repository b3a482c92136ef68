import type { FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { BLOG_SEARCH_MAX } from '../../shared/blog.ts';
import { localePath } from '../../shared/routes.ts';
import { useI18n } from '../runtime/i18n.tsx';

/**
 * The blog's search (titles, summaries, tags and bodies): a GET form to the blog (works without
 * JavaScript); with it, a client navigation to the same URL.
 */
export function BlogSearch({ q }: { q: string }) {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const action = localePath('blog', locale);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const words = String(new FormData(event.currentTarget).get('q') ?? '').trim();
    void navigate(words ? `${action}?${new URLSearchParams({ q: words }).toString()}` : action);
  };
  return (
    <form className="blog-search" method="get" action={action} role="search" noValidate onSubmit={submit}>
      <label htmlFor="blog-q">{t('blog.searchLabel')}</label>
      <div className="blog-search-row">
        <input id="blog-q" type="search" name="q" maxLength={BLOG_SEARCH_MAX} defaultValue={q} key={q} />
        <button type="submit" className="button button-primary">
          {t('blog.searchButton')}
        </button>
      </div>
    </form>
  );
}

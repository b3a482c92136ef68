import { Link } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { FormattedDate } from '../components/formatted-date.tsx';
import { useI18n } from '../i18n.tsx';
import type { PageProps } from './registry.ts';

export default function BlogPage({ data }: PageProps<'blog'>) {
  const { t, locale } = useI18n();
  return (
    <div className="container page">
      <h1>{t('pages.blog.title')}</h1>
      <p className="section-lead">{t('blog.lead')}</p>
      {data.posts.length === 0 ? (
        <p>{t('blog.empty')}</p>
      ) : (
        <ul className="post-list">
          {data.posts.map((post) => (
            <li key={post.slug} className="post-summary">
              <article lang={post.locale === locale ? undefined : post.locale}>
                {post.coverUrl && <img className="post-cover" src={post.coverUrl} alt="" width="600" height="315" loading="lazy" />}
                <h2>
                  <Link to={localePath('blog-slug', locale, { slug: post.slug })}>{post.title}</Link>
                </h2>
                <p className="post-meta">
                  <FormattedDate date={post.date} /> · {post.author}
                </p>
                <p>{post.description}</p>
              </article>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

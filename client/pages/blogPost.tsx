import { Link } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { FormattedDate } from '../components/formatted-date.tsx';
import { useI18n } from '../i18n.tsx';
import type { PageProps } from './registry.ts';

export default function BlogPostPage({ data }: PageProps<'blogPost'>) {
  const { t, locale } = useI18n();
  const { post } = data;
  return (
    <article className="container page prose" lang={post.locale === locale ? undefined : post.locale}>
      <p>
        <Link to={localePath('blog', locale)}>← {t('blog.back')}</Link>
      </p>
      <h1>{post.title}</h1>
      <p className="post-meta">
        <FormattedDate date={post.date} /> · {post.author}
      </p>
      {post.locale !== locale && <p className="notice">{t('blog.untranslated')}</p>}
      {post.coverUrl && <img className="post-cover" src={post.coverUrl} alt="" width="1200" height="630" />}
      {/* Sanitised on the server when the Markdown was loaded (server/content/markdown.ts). */}
      <div dangerouslySetInnerHTML={{ __html: post.html }} />
    </article>
  );
}

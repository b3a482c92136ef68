import { POST_IMAGE_SIZES } from '../../shared/blog.ts';
import { Link } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { ResponsiveImg } from '../blog/responsive-image.tsx';
import { TagLinks } from '../blog/tag-list.tsx';
import { PostMeta } from '../blog/post-meta.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/blog-post.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

export default function BlogPostPage({ data }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { post, author, related } = data;
  return (
    <article className="container page prose">
      <p>
        <Link to={localePath('blog', locale)}>← {t('blog.back')}</Link>
      </p>
      <h1>{post.title}</h1>
      <PostMeta date={post.date} author={post.author} />
      <TagLinks tags={post.tags} label={t('blog.tags')} />
      {post.cover && <ResponsiveImg className="post-cover" image={post.cover} sizes={POST_IMAGE_SIZES} />}
      {/* Sanitised on the server when the Markdown was loaded (server/content/markdown.ts). */}
      <div className="post-body" dangerouslySetInnerHTML={{ __html: post.html }} />
      {author ? (
        <aside className="post-author" aria-label={t('blog.author')}>
          {author.photo ? <img src={author.photo.src} width={72} height={72} alt="" loading="lazy" decoding="async" /> : null}
          <div>
            <h2>{author.name}</h2>
            <p className="post-author-role">{author.role}</p>
            <div className="post-author-bio" dangerouslySetInnerHTML={{ __html: author.html }} />
          </div>
        </aside>
      ) : null}
      {related.length > 0 ? (
        <nav className="related-posts" aria-labelledby="related-title">
          <h2 id="related-title">{t('blog.related')}</h2>
          <ul>
            {related.map((other) => (
              <li key={other.slug}>
                <Link to={localePath('blog-slug', locale, { slug: other.slug })}>{other.title}</Link>
                <p>{other.description}</p>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </article>
  );
}

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
  const { post } = data;
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
      <div dangerouslySetInnerHTML={{ __html: post.html }} />
    </article>
  );
}

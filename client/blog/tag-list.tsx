import { Link } from 'react-router-dom';
import type { Tag } from '../../shared/page-data.ts';
import { localePath } from '../../shared/routes.ts';
import { useI18n } from '../runtime/i18n.tsx';

/** A post's tags, or the blog's: each links to its page. */
export function TagLinks({ tags, current, label }: { tags: readonly Tag[]; current?: string | null; label: string }) {
  const { locale } = useI18n();
  if (tags.length === 0) return null;
  return (
    <ul className="tag-list" aria-label={label}>
      {tags.map((tag) => (
        <li key={tag.slug}>
          <Link
            className="tag"
            to={localePath('blog-tag', locale, { tag: tag.slug })}
            aria-current={tag.slug === current ? 'page' : undefined}
          >
            {tag.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}

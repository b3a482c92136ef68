import { FormattedDate } from '../components/formatted-date.tsx';

/** A post's date and, when it has one (a CMS field may be empty), its author. */
export function PostMeta({ date, author }: { date: string; author: string }) {
  return (
    <p className="post-meta">
      <FormattedDate date={date} />
      {author && ` · ${author}`}
    </p>
  );
}

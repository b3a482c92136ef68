import { Link } from 'react-router-dom';
import type { Locale } from '../../shared/locales.ts';
import type { Practice } from '../../shared/practices.ts';
import { localePath } from '../../shared/routes.ts';

/** The practices' icons, one symbol each: a file of its own (cached), not part of any script. */
export const PRACTICE_ICONS = '/practice-icons.svg';

/** A practice's icon in the text's colour; decorative (the practice's name is beside it). */
export function PracticeIcon({ practice, size }: { practice: Practice; size: number }) {
  return (
    <svg className="practice-icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <use href={`${PRACTICE_ICONS}#${practice}`} />
    </svg>
  );
}

/** The contact form, its subject filled in with the practice. */
export function practiceContactPath(practice: Practice, locale: Locale): string {
  return `${localePath('Contact', locale)}?practice=${practice}`;
}

/** The practice's own page. */
export function practicePagePath(practice: Practice, locale: Locale): string {
  return localePath('practice', locale, { slug: practice });
}

/** A practice's card (the home page, the list of practices): its icon, its name linking to its page, a sentence. */
export function PracticeCard({
  practice,
  title,
  text,
  more,
  locale,
  level = 3,
}: {
  practice: Practice;
  title: string;
  text: string;
  more: string;
  locale: Locale;
  level?: 2 | 3;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <li id={`practice-${practice}`} className="card practice">
      <span className="practice-badge">
        <PracticeIcon practice={practice} size={28} />
      </span>
      <Heading className="practice-title">
        <Link to={practicePagePath(practice, locale)}>{title}</Link>
      </Heading>
      <p>{text}</p>
      <p className="practice-more" aria-hidden="true">
        {more}
      </p>
    </li>
  );
}

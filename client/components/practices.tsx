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

/** Where a practice leads: the contact form, its subject filled in with the practice. */
export function practicePath(practice: Practice, locale: Locale): string {
  return `${localePath('Contact', locale)}?practice=${practice}`;
}

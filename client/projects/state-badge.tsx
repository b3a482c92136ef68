import type { ProjectState } from '../../shared/projects.ts';
import { useI18n } from '../runtime/i18n.tsx';

/** A project's state as a coloured label (the colour repeats the words, never replaces them). */
export function StateBadge({ state }: { state: ProjectState }) {
  const { t } = useI18n();
  return <span className={`state-badge state-${state}`}>{t(`projects.states.${state}`)}</span>;
}

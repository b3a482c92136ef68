// A list of projects as cards (one column on a phone, a grid on a wide screen): title, state,
// practice, owner, what waits for the reader, unread messages. Each links to the project's page
// in the reader's area.
import { companyName, personName } from '../../shared/account.ts';
import { Link } from 'react-router-dom';
import { projectPath, UNREAD_BADGE_MAX, type ProjectSummary } from '../../shared/projects.ts';
import { FormattedDate } from '../components/formatted-date.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { StateBadge } from './state-badge.tsx';

export function ProjectCards({ items, role, showOwner }: { items: ProjectSummary[]; role: string; showOwner: boolean }) {
  const { t, locale } = useI18n();
  return (
    <ul className="project-cards">
      {items.map((p) => (
        <li key={p.id} className="project-card">
          <h3>
            <Link to={projectPath(role, p.id, locale) ?? '#'}>{p.title}</Link>
          </h3>
          <p className="project-card-meta">
            <StateBadge state={p.state} />
            <span>{t(`projects.practices.${p.practice}`)}</span>
          </p>
          {showOwner && (
            <p className="project-card-owner">
              {p.company ? `${companyName(t, p.company)} · ` : ''}
              {personName(t, p.owner)}
              {p.organisation && p.organisation !== p.company?.name ? ` · ${p.organisation}` : ''}
            </p>
          )}
          {p.waiting && <p className="project-card-waiting">{t(`projects.waiting.${p.waiting}`)}</p>}
          <p className="project-card-foot">
            <span>
              {t('projects.area.updated')} <FormattedDate date={p.updatedAt.slice(0, 10)} />
            </span>
            {p.unread > 0 && (
              <span className="badge badge-new">
                {p.unread >= UNREAD_BADGE_MAX
                  ? t('projects.area.unreadMore', { count: UNREAD_BADGE_MAX - 1 })
                  : t('projects.area.unread', { count: p.unread })}
              </span>
            )}
          </p>
        </li>
      ))}
    </ul>
  );
}

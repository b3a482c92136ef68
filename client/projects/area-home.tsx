// The home of a role area: what waits for the user first, then their projects;
// for clients and organisations the way to a new brief. Nothing here promises a feature the
// site does not have.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { AreaProjects, Streamed } from '../../shared/page-data.ts';
import { newBriefPath } from '../../shared/projects.ts';
import { localePath } from '../../shared/routes.ts';
import type { SessionUser } from '../../shared/user.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { AreaProjectList, StreamedLists, WaitingList } from './area-projects.tsx';

export function AreaHome({
  area,
  lists,
  user,
  empty,
  children,
}: {
  area: 'client' | 'organization' | 'expert';
  /** The area's lists (streamed when the database is slow); null when they could not be read. */
  lists: Streamed<AreaProjects | null>;
  user: SessionUser | null;
  empty: string;
  children?: ReactNode;
}) {
  const { t, locale } = useI18n();
  const role = user?.role ?? '';
  const briefPath = newBriefPath(role, locale);
  return (
    <div className="container page area-page">
      <h1>{t(`pages.${area}.title`)}</h1>
      {user && <p className="lead">{t('areas.welcome', { name: `${user.name} ${user.lastName}`.trim() })}</p>}
      <p className="section-lead">{t(`projects.area.lead.${area}`)}</p>
      {briefPath && (
        <p className="actions">
          <Link className="button button-primary" to={briefPath}>
            {t('projects.area.newBrief')}
          </Link>
        </p>
      )}
      <StreamedLists value={lists}>
        {(data) => (
          <>
            <WaitingList data={data} role={role} />
            <AreaProjectList data={data} role={role} empty={empty} headingId="projects-title" />
          </>
        )}
      </StreamedLists>
      {children}
      <nav className="actions area-account" aria-label={t('projects.area.accountLinks')}>
        <Link className="button button-secondary button-small" to={localePath('profile', locale)}>
          {t('areas.profileLink')}
        </Link>
        <Link className="button button-secondary button-small" to={localePath('changePassword', locale)}>
          {t('areas.passwordLink')}
        </Link>
      </nav>
    </div>
  );
}

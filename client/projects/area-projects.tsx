// The projects of a role area: what waits for the user first, then their projects
// with filters by state and practice, a search and pages — all plain links and a GET form, so
// that it works without JavaScript and every view has its own URL.
import { Link, useLocation } from 'react-router-dom';
import type { ReactNode } from 'react';
import type { AreaProjects, Streamed as StreamedValue } from '../../shared/page-data.ts';
import { Streamed, StreamedSection } from '../components/streamed.tsx';
import { PRACTICES, PROJECT_STATES } from '../../shared/projects.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { ProjectCards } from './project-list.tsx';
import { SEARCH_MAX_LENGTH } from '../../shared/paging.ts';

export function AreaProjectList({ data, role, empty, headingId }: { data: AreaProjects; role: string; empty: string; headingId: string }) {
  const { t } = useI18n();
  const { pathname } = useLocation();
  const { projects, filter } = data;
  const pages = Math.max(1, Math.ceil(projects.total / projects.pageSize));
  const filtered = Boolean(filter.status || filter.practice || filter.q);
  const pageLink = (page: number) => {
    const query = new URLSearchParams();
    if (filter.status) query.set('status', filter.status);
    if (filter.practice) query.set('practice', filter.practice);
    if (filter.q) query.set('q', filter.q);
    if (page > 1) query.set('page', String(page));
    const search = query.toString();
    return `${pathname}${search ? `?${search}` : ''}#${headingId}`;
  };
  const showOwner = role === 'ADMIN' || role === 'CONS';
  return (
    <section aria-labelledby={headingId} className="area-section">
      <h2 id={headingId}>
        {t('projects.area.projectsTitle')} <span className="area-count">({t('projects.area.count', { count: projects.total })})</span>
      </h2>
      {(projects.total > 0 || filtered) && (
        <form
          className="project-filters"
          method="get"
          action={pathname}
          role="search"
          aria-label={t('projects.area.filtersLabel')}
          noValidate
        >
          <div className="field">
            <label htmlFor={`${headingId}-status`}>{t('projects.area.filterState')}</label>
            <select id={`${headingId}-status`} name="status" defaultValue={filter.status ?? ''}>
              <option value="">{t('projects.area.filterAll')}</option>
              {PROJECT_STATES.map((s) => (
                <option key={s} value={s}>
                  {t(`projects.states.${s}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${headingId}-practice`}>{t('projects.area.filterPractice')}</label>
            <select id={`${headingId}-practice`} name="practice" defaultValue={filter.practice ?? ''}>
              <option value="">{t('projects.area.filterAll')}</option>
              {PRACTICES.map((p) => (
                <option key={p} value={p}>
                  {t(`projects.practices.${p}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${headingId}-q`}>{t('projects.area.searchLabel')}</label>
            <input id={`${headingId}-q`} type="search" name="q" maxLength={SEARCH_MAX_LENGTH} defaultValue={filter.q} />
          </div>
          <div className="project-filters-actions">
            <button type="submit" className="button button-primary button-small">
              {t('projects.area.apply')}
            </button>
            {filtered && (
              <Link className="button button-secondary button-small" to={pathname}>
                {t('projects.area.clear')}
              </Link>
            )}
          </div>
        </form>
      )}
      {projects.items.length === 0 ? (
        <p className="empty-state">{filtered ? t('projects.area.emptyFiltered') : empty}</p>
      ) : (
        <ProjectCards items={projects.items} role={role} showOwner={showOwner} />
      )}
      {pages > 1 && (
        <nav className="pager" aria-label={t('projects.area.pager')}>
          {projects.page > 1 ? <Link to={pageLink(projects.page - 1)}>{t('projects.area.previous')}</Link> : <span />}
          <span>{t('projects.area.pageOf', { page: projects.page, pages })}</span>
          {projects.page < pages ? <Link to={pageLink(projects.page + 1)}>{t('projects.area.next')}</Link> : <span />}
        </nav>
      )}
    </section>
  );
}

/** What waits for the user, first on the dashboard. */
export function WaitingList({ data, role }: { data: AreaProjects; role: string }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="waiting-title" className="area-section">
      <h2 id="waiting-title">{t('projects.area.waitingTitle')}</h2>
      {data.waiting.length === 0 ? (
        <p className="empty-state">{t('projects.area.nothingWaiting')}</p>
      ) : (
        <ProjectCards items={data.waiting} role={role} showOwner={role === 'ADMIN' || role === 'CONS'} />
      )}
    </section>
  );
}

/** An area's lists: streamed when the database is slow, a notice when they could not be read. */
export function StreamedLists({
  value,
  children,
}: {
  value: StreamedValue<AreaProjects | null>;
  children: (data: AreaProjects) => ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Streamed value={value} fallback={<StreamedSection title={t('projects.area.projectsTitle')} />}>
      {(data) =>
        data ? (
          children(data)
        ) : (
          <p className="form-error" role="alert">
            {t('errors.unavailable')}
          </p>
        )
      }
    </Streamed>
  );
}

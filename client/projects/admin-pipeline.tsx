// The admin's pipeline (DESIGN.md §8): what waits for the company first (briefs to answer,
// declined proposals, accepted projects without an expert), then every project, newest first,
// by state and practice, searchable and paged — in the first paint, without JavaScript too.
import type { AreaProjects } from '../../shared/page-data.ts';
import { useI18n } from '../i18n.tsx';
import { AreaProjectList } from './area-projects.tsx';
import { ProjectCards } from './project-list.tsx';

export function AdminPipeline({ data }: { data: AreaProjects }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="pipeline-title" className="admin-section">
      <h2 id="pipeline-title">{t('adminPipeline.title')}</h2>
      <h3>{t('projects.area.waitingTitle')}</h3>
      {data.waiting.length === 0 ? (
        <p className="empty-state">{t('projects.area.nothingWaiting')}</p>
      ) : (
        <ProjectCards items={data.waiting} role="ADMIN" showOwner />
      )}
      <AreaProjectList data={data} role="ADMIN" empty={t('projects.area.emptyAdmin')} headingId="pipeline-list-title" />
    </section>
  );
}

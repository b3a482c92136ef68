// The pipeline: what waits for the company first (briefs to answer, declined
// proposals, accepted projects without an expert), then every project, newest first, by state
// and practice, searchable and paged — in the first paint, and without JavaScript too.
import { AreaProjectList, StreamedLists } from '../projects/area-projects.tsx';
import { ProjectCards } from '../projects/project-list.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { AreaProjects, Streamed as StreamedValue } from '../../shared/page-data.ts';
import type { AdminScreenProps } from './screen.ts';

export function PipelineScreen({
  pipeline: value,
  headingId,
}: Pick<AdminScreenProps, 'headingId'> & { pipeline: StreamedValue<AreaProjects | null> }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby={headingId} className="admin-section">
      <h2 id={headingId}>{t('adminPipeline.title')}</h2>
      <StreamedLists value={value}>
        {(pipeline) => (
          <>
            <h3>{t('projects.area.waitingTitle')}</h3>
            {pipeline.waiting.length === 0 ? (
              <p className="empty-state">{t('projects.area.nothingWaiting')}</p>
            ) : (
              <ProjectCards items={pipeline.waiting} role="ADMIN" showOwner />
            )}
            <AreaProjectList data={pipeline} role="ADMIN" empty={t('projects.area.emptyAdmin')} headingId={`${headingId}-list`} />
          </>
        )}
      </StreamedLists>
    </section>
  );
}

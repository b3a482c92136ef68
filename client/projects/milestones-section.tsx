// Milestones: agreed between the company, its experts and the owner, ticked off by the company
// and the experts while the project is open.
import type { FormState } from '../../shared/page-data.ts';
import { PROJECT_LIMITS, type Project } from '../../shared/projects.ts';
import { FieldError, fieldProps, TextField } from '../components/form-feedback.tsx';
import { FormattedDate, formatDate } from '../components/formatted-date.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { SectionForm } from './section-form.tsx';

export function MilestonesSection({
  project,
  nameOf,
  forms,
  success,
}: {
  project: Project;
  /** A user name → the person's name (who ticked a milestone off). */
  nameOf: (userName: string) => string;
  forms: { milestone: FormState | undefined; milestoneDone: FormState | undefined };
  success?: string | undefined;
}) {
  const { t, locale } = useI18n();
  const canEdit = project.writable && (project.standing === 'admin' || project.standing === 'expert');
  const list = (
    <ul className="milestones">
      {project.milestones.map((m) => (
        <li key={m.id} className={m.doneAt ? 'milestone milestone-done' : 'milestone'}>
          <span className="milestone-title">{m.title}</span>
          <span className="milestone-meta">
            {m.dueDate && (
              <span>
                {t('projects.page.dueDate')} <FormattedDate date={m.dueDate} />
              </span>
            )}
            {m.doneAt ? (
              <span>
                <span aria-hidden="true">✓ </span>
                {t('projects.page.doneBy', {
                  date: formatDate(m.doneAt.slice(0, 10), locale),
                  name: m.doneByName || nameOf(m.doneBy ?? ''),
                })}
              </span>
            ) : (
              <span>{t('projects.page.open')}</span>
            )}
          </span>
          {canEdit && (
            <button
              type="submit"
              name="milestone"
              value={`${m.id}:${m.doneAt ? 'reopen' : 'done'}`}
              className="button button-secondary button-small"
            >
              {m.doneAt ? t('projects.page.reopen', { title: m.title }) : t('projects.page.markDone', { title: m.title })}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
  return (
    <section aria-labelledby="milestones-title" className="project-section">
      <h2 id="milestones-title">{t('projects.page.milestonesTitle')}</h2>
      {project.milestones.length === 0 ? (
        <p className="empty-state">{t('projects.page.noMilestones')}</p>
      ) : canEdit ? (
        <SectionForm intent="milestoneDone" form={forms.milestoneDone} className="milestones-form" success={success} fieldless>
          {() => list}
        </SectionForm>
      ) : (
        list
      )}
      {canEdit && (
        <SectionForm intent="milestone" form={forms.milestone} className="inline-form">
          {(state) => (
            <>
              <TextField
                form="milestone"
                state={state}
                name="title"
                label={t('projects.page.milestoneTitle')}
                required
                maxLength={PROJECT_LIMITS.milestoneTitle}
                defaultValue={state?.values?.title ?? ''}
              />
              <div className="field">
                <label htmlFor="milestone-dueDate">{t('projects.page.dueDate')}</label>
                <input
                  id="milestone-dueDate"
                  name="dueDate"
                  type="date"
                  defaultValue={state?.values?.dueDate ?? ''}
                  {...fieldProps(state, 'dueDate', 'milestone-dueDate')}
                />
                <FieldError state={state} field="dueDate" id="milestone-dueDate" />
              </div>
              <button type="submit" className="button button-primary">
                {t('projects.page.addMilestone')}
              </button>
            </>
          )}
        </SectionForm>
      )}
    </section>
  );
}

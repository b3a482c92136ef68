// The experts of a project; admins assign and remove them while the project is open, choosing
// among the experts' profiles (practice and availability shown): a page of the best matches
// (the server ranks the project's practice first, then who is available, and leaves out who is
// assigned already), and a search by name for the others.
import { useLocation } from 'react-router-dom';
import type { FormState } from '../../shared/page-data.ts';
import { OPEN_STATES, PROJECT_PAGE_PARAMS, type ExpertPage, type Project } from '../../shared/projects.ts';
import { FieldError, fieldProps } from '../components/form-feedback.tsx';
import { formatDate } from '../components/formatted-date.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { SectionForm } from './section-form.tsx';
import { SEARCH_MAX_LENGTH } from '../../shared/paging.ts';

export function ExpertsSection({
  project,
  candidates,
  search,
  forms,
  success,
}: {
  project: Project;
  candidates: ExpertPage | null;
  /** The search of experts the page was asked for ('' for none). */
  search: string;
  forms: { assign: FormState | undefined; unassign: FormState | undefined };
  success?: string | undefined;
}) {
  const { t, locale } = useI18n();
  const { pathname } = useLocation();
  const canManage = project.standing === 'admin' && OPEN_STATES.includes(project.state);
  const today = new Date().toISOString().slice(0, 10);
  const choices = candidates?.items ?? [];
  // A search is offered when the page does not hold every candidate (or one was made).
  const searchable = Boolean(search) || (candidates !== null && candidates.total > choices.length);
  return (
    <section aria-labelledby="experts-title" className="project-section">
      <h2 id="experts-title">{t('projects.page.expertsTitle')}</h2>
      {project.experts.length === 0 ? (
        <p className="empty-state">{t('projects.page.noExperts')}</p>
      ) : canManage ? (
        <SectionForm intent="unassign" form={forms.unassign} className="project-people" success={success} fieldless>
          {() => (
            <ul>
              {project.experts.map((e) => (
                <li key={e.userName}>
                  <span>{e.name}</span>
                  <button type="submit" name="userName" value={e.userName} className="button button-secondary button-small">
                    {t('projects.page.remove', { name: e.name })}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </SectionForm>
      ) : (
        <ul className="project-people">
          {project.experts.map((e) => (
            <li key={e.userName}>{e.name}</li>
          ))}
        </ul>
      )}
      {canManage && searchable && (
        <form className="inline-form expert-search" method="get" action={`${pathname}#experts-title`} role="search" noValidate>
          <div className="field">
            <label htmlFor="expert-search">{t('projects.page.findExpert')}</label>
            <input
              id="expert-search"
              type="search"
              name={PROJECT_PAGE_PARAMS.expert}
              maxLength={SEARCH_MAX_LENGTH}
              defaultValue={search}
              aria-describedby="expert-search-hint"
            />
          </div>
          <button type="submit" className="button button-secondary button-small">
            {t('projects.page.findExpertButton')}
          </button>
          <p id="expert-search-hint" className="field-hint">
            {search
              ? t('projects.page.expertsFound', { count: candidates?.total ?? 0, q: search })
              : t('projects.page.expertsShown', { shown: choices.length, count: candidates?.total ?? 0 })}
          </p>
        </form>
      )}
      {canManage &&
        (choices.length === 0 && project.experts.length === 0 && !search ? (
          <p className="empty-state">{t('projects.page.noCandidates')}</p>
        ) : choices.length > 0 ? (
          <SectionForm intent="assign" form={forms.assign} className="inline-form">
            {(state) => (
              <>
                <div className="field">
                  <label htmlFor="assign-userName">{t('projects.page.assignLabel')}</label>
                  <select
                    id="assign-userName"
                    name="userName"
                    required
                    aria-describedby="assign-hint"
                    defaultValue=""
                    {...fieldProps(state, 'userName', 'assign-userName')}
                  >
                    {/* A required select starts on no one: the admin chooses, never the first by default. */}
                    <option value="" disabled>
                      {t('projects.page.assignChoose')}
                    </option>
                    {choices.map((c) => {
                      const busy = c.availability === 'busy' && c.busyUntil && c.busyUntil >= today;
                      const practices = c.practices.map((p) => t(`projects.practices.${p}`)).join(', ');
                      return (
                        <option key={c.userName} value={c.userName}>
                          {c.name}
                          {practices ? ` (${practices})` : ''}
                          {busy ? ` · ${t('projects.page.busyUntil', { date: formatDate(c.busyUntil!, locale) })}` : ''}
                        </option>
                      );
                    })}
                  </select>
                  <FieldError state={state} field="userName" id="assign-userName" />
                </div>
                <button type="submit" className="button button-primary">
                  {t('projects.page.assign')}
                </button>
                {/* After the button, on a row of its own: the button lines up with the list. */}
                <p id="assign-hint" className="field-hint">
                  {t('projects.page.assignHint')}
                </p>
              </>
            )}
          </SectionForm>
        ) : null)}
    </section>
  );
}

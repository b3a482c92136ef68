// The experts of a project; admins assign and remove them while the project is open, choosing
// among the experts' profiles (practice and availability shown, the project's practice first).
import type { FormState } from '../../shared/page-data.ts';
import { OPEN_STATES, type Expertise, type Project } from '../../shared/projects.ts';
import { FieldError, fieldProps } from '../components/form-feedback.tsx';
import { formatDate } from '../components/formatted-date.tsx';
import { useI18n } from '../i18n.tsx';
import { SectionForm } from './section-form.tsx';

function rank(e: Expertise, project: Project, today: string): number {
  const available = e.availability === 'available' || (e.busyUntil !== null && e.busyUntil < today);
  return (e.practices.includes(project.practice) ? 0 : 2) + (available ? 0 : 1);
}

export function ExpertsSection({
  project,
  candidates,
  forms,
  success,
}: {
  project: Project;
  candidates: Expertise[] | null;
  forms: { assign: FormState | undefined; unassign: FormState | undefined };
  success?: string | undefined;
}) {
  const { t, locale } = useI18n();
  const canManage = project.standing === 'admin' && OPEN_STATES.includes(project.state);
  const assigned = new Set(project.experts.map((e) => e.userName.toLowerCase()));
  const today = new Date().toISOString().slice(0, 10);
  const choices = (candidates ?? [])
    .filter((c) => !assigned.has(c.userName.toLowerCase()))
    .sort((a, b) => rank(a, project, today) - rank(b, project, today));
  return (
    <section aria-labelledby="experts-title" className="project-section">
      <h2 id="experts-title">{t('projects.page.expertsTitle')}</h2>
      {project.experts.length === 0 ? (
        <p className="empty-state">{t('projects.page.noExperts')}</p>
      ) : canManage ? (
        <SectionForm intent="unassign" form={forms.unassign} className="project-people" success={success}>
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
      {canManage &&
        (choices.length === 0 && project.experts.length === 0 ? (
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
                    {...fieldProps(state, 'userName', 'assign-userName')}
                  >
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

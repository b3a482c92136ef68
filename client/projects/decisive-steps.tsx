// The feedback and the confirmations of a project's decisive steps. After a brief, a proposal or
// a move the page comes back with `?done=<step>` (a 303 without JavaScript, the same address
// with it): a notice at the top of the page says what happened and what comes next, in a live
// region that stays in place so that screen readers announce the change. Accepting a proposal
// and closing a project restate the agreed terms before they are made: in the dialog with
// JavaScript, and without it in a panel the server asks for (`?confirm=<move>`).
import { Link, useLocation } from 'react-router-dom';
import {
  asksAboutOpenMilestones,
  bindsToTerms,
  needsConfirmation,
  openMilestones,
  PROJECT_NOTICES,
  type Project,
  type ProjectAction,
} from '../../shared/projects.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { ProposalFacts } from './proposal-section.tsx';
import { SectionForm } from './section-form.tsx';

/** What the page's `?done=` names, when it is a decisive step. */
function doneStep(search: string): string | null {
  const step = new URLSearchParams(search).get('done');
  return step && (PROJECT_NOTICES as readonly string[]).includes(step) ? step : null;
}

export function ProjectNotice() {
  const { t } = useI18n();
  const step = doneStep(useLocation().search);
  return (
    <div id="project-notice" className="project-notice" role="status" tabIndex={-1}>
      {step && <p className="form-success">{t(`projects.done.${step}`)}</p>}
    </div>
  );
}

/** The confirmation's words and terms, in the dialog and in the panel alike. */
export function ConfirmationText({ project, action }: { project: Project; action: ProjectAction }) {
  const { t } = useI18n();
  const open = openMilestones(project);
  return (
    <>
      <p>{t(`projects.confirm.${action}`, { title: project.title })}</p>
      {asksAboutOpenMilestones(action) && open.length > 0 && (
        <>
          <p className="notice" role="note">
            {t('projects.confirm.openMilestones', { count: open.length })}
          </p>
          <ul className="open-milestones">
            {open.map((m) => (
              <li key={m.id}>{m.title}</li>
            ))}
          </ul>
        </>
      )}
      {bindsToTerms(action) && project.proposal && <ProposalFacts proposal={project.proposal} terms />}
    </>
  );
}

/**
 * Without JavaScript (or when a move came unconfirmed): the page asks here, at its top, with the
 * dialog's words and colours — confirm posts the move with `confirmed=yes`, cancel goes back.
 */
export function ConfirmPanel({ project }: { project: Project }) {
  const { t } = useI18n();
  const { pathname, search } = useLocation();
  const asked = new URLSearchParams(search).get('confirm') as ProjectAction | null;
  if (!asked || !project.actions.includes(asked) || !needsConfirmation(asked, openMilestones(project).length)) return null;
  return (
    <section aria-labelledby="confirm-title" className="project-section confirm-panel" role="alertdialog" aria-describedby="confirm-text">
      <h2 id="confirm-title">{t(`projects.actions.${asked}`)}</h2>
      <div id="confirm-text">
        <ConfirmationText project={project} action={asked} />
      </div>
      <SectionForm intent="action" form={undefined} className="alert-dialog-actions" fieldless>
        {(_state, pending) => (
          <>
            <input type="hidden" name="action" value={asked} />
            <input type="hidden" name="confirmed" value="yes" />
            {project.proposal && <input type="hidden" name="version" value={project.proposal.version} />}
            <Link className="button alert-cancel" to={pathname} replace>
              {t('projects.confirm.no')}
            </Link>
            <button type="submit" className="alert-confirm" disabled={pending}>
              {bindsToTerms(asked) ? t(`projects.confirm.${asked}Yes`) : t('projects.confirm.yes')}
            </button>
          </>
        )}
      </SectionForm>
    </section>
  );
}

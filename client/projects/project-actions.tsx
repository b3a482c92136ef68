// The next step of a project for the reader: the moves of the state machine their standing
// allows now (the server decides again). Moves that cannot be undone ask first, with JavaScript;
// accepting and closing restate the agreed terms and are confirmed to the server (`confirmed`),
// which otherwise asks on the page (decisive-steps.tsx).
import { useRef, useState } from 'react';
import { bindsToTerms, type ProjectAction, type ProjectState } from '../../shared/projects.ts';
import { AlertDialog } from '../components/alert-dialog.tsx';
import { FormFeedback } from '../components/form-feedback.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { ConfirmationText } from './decisive-steps.tsx';
import { SectionForm } from './section-form.tsx';
import type { ProjectFormSectionProps } from './proposal-section.tsx';

/** States where the next move is the company manager's (accept or decline, close, withdraw). */
const MANAGERS_DECIDE: readonly ProjectState[] = ['brief', 'proposal', 'delivered'];

const CONFIRM: readonly ProjectAction[] = ['accept', 'decline', 'cancel', 'withdraw', 'close', 'deliver'];

export function ProjectActions({ project, form, success }: ProjectFormSectionProps) {
  const { t } = useI18n();
  const moves = project.actions.filter((a) => a !== 'send_proposal');
  const [asking, setAsking] = useState<ProjectAction | null>(null);
  const confirmed = useRef<ProjectAction | null>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const confirmedField = useRef<HTMLInputElement>(null);
  if (moves.length === 0) {
    // A member of the company sees the decision that waits, and whose it is.
    const managers = project.standing === 'member' && MANAGERS_DECIDE.includes(project.state);
    return (
      <>
        {form?.error && <FormFeedback state={form} fieldless />}
        {managers && (
          <section aria-labelledby="next-title" className="project-section project-next">
            <h2 id="next-title">{t('projects.page.nextStep')}</h2>
            <p>{t(`projects.page.managerDecides.${project.state}`)}</p>
          </section>
        )}
      </>
    );
  }
  return (
    <section aria-labelledby="next-title" className="project-section project-next" ref={formRef}>
      <h2 id="next-title">{t('projects.page.nextStep')}</h2>
      {project.waiting && <p className="project-card-waiting">{t(`projects.waiting.${project.waiting}`)}</p>}
      <SectionForm intent="action" form={form} success={success} className="project-action-buttons" fieldless>
        {(_state, pending) => [
          // Empty in the page's HTML: only the dialog's confirm says yes.
          <input key="confirmed" ref={confirmedField} type="hidden" name="confirmed" defaultValue="" />,
          // The version read here is the one answered (a newer one sent meanwhile is refused).
          project.proposal && <input key="version" type="hidden" name="version" value={project.proposal.version} />,
          ...moves.map((action) => (
            <button
              key={action}
              type="submit"
              name="action"
              value={action}
              disabled={pending}
              className={`button ${action === 'accept' || action === 'close' || action === 'deliver' ? 'button-primary' : 'button-secondary'}`}
              onClick={(event) => {
                if (!CONFIRM.includes(action) || confirmed.current === action) {
                  confirmed.current = null;
                  return;
                }
                event.preventDefault();
                setAsking(action);
              }}
            >
              {t(`projects.actions.${action}`)}
            </button>
          )),
        ]}
      </SectionForm>
      <AlertDialog
        open={asking !== null}
        title={asking ? t(`projects.actions.${asking}`) : ''}
        confirmLabel={asking && bindsToTerms(asking) ? t(`projects.confirm.${asking}Yes`) : t('projects.confirm.yes')}
        cancelLabel={t('projects.confirm.no')}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          const action = asking;
          setAsking(null);
          if (!action) return;
          confirmed.current = action;
          // Confirmed in the dialog: the server asks no more (accepting, closing, moving with milestones open).
          if (confirmedField.current) confirmedField.current.value = 'yes';
          formRef.current?.querySelector<HTMLButtonElement>(`button[name="action"][value="${action}"]`)?.click();
        }}
      >
        {asking && <ConfirmationText project={project} action={asking} />}
      </AlertDialog>
    </section>
  );
}

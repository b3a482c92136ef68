// The company's proposal (scope, fee, timeline) as the owner reads it, and for admins the form
// that sends it (again, after a decline).
import type { FormState } from '../../shared/page-data.ts';
import { intlLocale, type Locale } from '../../shared/locales.ts';
import { PROJECT_LIMITS as L, type Project, type Proposal } from '../../shared/projects.ts';
import { FieldError, fieldProps } from '../components/form-feedback.tsx';
import { FormattedDate } from '../components/formatted-date.tsx';
import { documentHref } from '../../shared/documents.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { SectionForm } from './section-form.tsx';

export function euros(amount: number, locale: Locale): string {
  return new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }).format(amount);
}

/** What a section of the project page that answers forms is given: the project, the form's outcome, a success message. */
export type ProjectFormSectionProps = {
  project: Project;
  form: FormState | undefined;
  success?: string | undefined;
};

/**
 * A proposal's facts: on the project's page with its status and answer; in a confirmation
 * (`terms`) with its version, the scope scrolling when long — what the user agrees to.
 */
export function ProposalFacts({ proposal, terms = false }: { proposal: Proposal; terms?: boolean }) {
  const { t, locale } = useI18n();
  return (
    <dl className={terms ? 'project-facts agreed-terms' : 'project-facts project-proposal'}>
      {!terms && (
        <div>
          <dt>{t('projects.page.proposalStatusLabel')}</dt>
          <dd>{t(`projects.proposalStatus.${proposal.status}`)}</dd>
        </div>
      )}
      <div>
        <dt>{t('projects.page.fee')}</dt>
        <dd className="project-fee">{euros(proposal.fee, locale)}</dd>
      </div>
      {terms && (
        <div>
          <dt>{t('projects.page.proposalTitle')}</dt>
          <dd>{t('projects.page.proposalVersion', { version: proposal.version })}</dd>
        </div>
      )}
      <div>
        <dt>{t('projects.page.sentAt')}</dt>
        <dd>
          <FormattedDate date={proposal.sentAt.slice(0, 10)} />
        </dd>
      </div>
      {!terms && proposal.answeredAt && (
        <div>
          <dt>{t('projects.page.answeredAt')}</dt>
          <dd>
            <FormattedDate date={proposal.answeredAt.slice(0, 10)} />
          </dd>
        </div>
      )}
      <div className="project-facts-wide">
        <dt>{t('projects.page.scope')}</dt>
        <dd className={terms ? 'project-text agreed-scope' : 'project-text'}>{proposal.scope}</dd>
      </div>
      <div className="project-facts-wide">
        <dt>{t('projects.page.timeline')}</dt>
        <dd className="project-text">{proposal.timeline}</dd>
      </div>
    </dl>
  );
}

export function ProposalSection({ project, form, success }: ProjectFormSectionProps) {
  const { t, locale } = useI18n();
  const { proposal } = project;
  const canSend = project.actions.includes('send_proposal');
  if (!proposal && !canSend && project.state === 'cancelled') return null;
  return (
    <section aria-labelledby="proposal-title" className="project-section">
      <h2 id="proposal-title">
        {t('projects.page.proposalTitle')}
        {proposal && <span className="proposal-version"> {t('projects.page.proposalVersion', { version: proposal.version })}</span>}
      </h2>
      {proposal && proposal.version > 1 && (
        <p className="field-hint">{t('projects.page.replacesEarlier', { version: proposal.version, earlier: proposal.version - 1 })}</p>
      )}
      {proposal ? <ProposalFacts proposal={proposal} /> : <p className="empty-state">{t('projects.page.noProposal')}</p>}
      {project.proposals.length > 1 && (
        <details className="proposal-versions">
          <summary>{t('projects.page.earlierVersions', { count: project.proposals.length - 1 })}</summary>
          <ul>
            {project.proposals.slice(1).map((v) => (
              <li key={v.version}>
                <a href={`${documentHref('proposal', locale, { id: project.id })}?version=${v.version}`} download>
                  {t('projects.page.proposalVersion', { version: v.version })}
                </a>{' '}
                · {euros(v.fee, locale)} · <FormattedDate date={v.sentAt.slice(0, 10)} /> · {t(`projects.proposalStatus.${v.status}`)}
              </li>
            ))}
          </ul>
        </details>
      )}
      {canSend && (
        <>
          <h3>{proposal ? t('projects.page.resendProposalTitle') : t('projects.page.sendProposalTitle')}</h3>
          {proposal?.status === 'open' && (
            <p className="notice" role="note">
              {t('projects.page.supersedesOpen', { version: proposal.version, next: proposal.version + 1 })}
            </p>
          )}
          <SectionForm intent="proposal" form={form} success={success}>
            {(state) => (
              <>
                <div className="field">
                  <label htmlFor="proposal-scope">{t('projects.page.scope')}</label>
                  <textarea
                    id="proposal-scope"
                    name="scope"
                    rows={5}
                    required
                    maxLength={L.scope}
                    defaultValue={state?.values?.scope ?? proposal?.scope ?? ''}
                    {...fieldProps(state, 'scope', 'proposal-scope')}
                  />
                  <FieldError state={state} field="scope" id="proposal-scope" />
                </div>
                <div className="field">
                  <label htmlFor="proposal-fee">{t('projects.page.fee')}</label>
                  <input
                    id="proposal-fee"
                    name="fee"
                    type="number"
                    min={0}
                    max={L.feeMax}
                    step={1}
                    required
                    inputMode="numeric"
                    aria-describedby="proposal-fee-hint"
                    defaultValue={state?.values?.fee ?? (proposal ? String(proposal.fee) : '')}
                    {...fieldProps(state, 'fee', 'proposal-fee')}
                  />
                  <p id="proposal-fee-hint" className="field-hint">
                    {t('projects.page.feeHint')}
                  </p>
                  <FieldError state={state} field="fee" id="proposal-fee" />
                </div>
                <div className="field">
                  <label htmlFor="proposal-timeline">{t('projects.page.timeline')}</label>
                  <textarea
                    id="proposal-timeline"
                    name="timeline"
                    rows={3}
                    required
                    maxLength={L.timeline}
                    defaultValue={state?.values?.timeline ?? proposal?.timeline ?? ''}
                    {...fieldProps(state, 'timeline', 'proposal-timeline')}
                  />
                  <FieldError state={state} field="timeline" id="proposal-timeline" />
                </div>
                <button type="submit" className="button button-primary">
                  {t('projects.actions.send_proposal')}
                </button>
              </>
            )}
          </SectionForm>
        </>
      )}
    </section>
  );
}

// A new brief: a title, a description and a practice; everything else optional.
// Organisations also give their procurement reference. Posted to this page, with or without
// JavaScript; on success the project's page shows it.
import { Link } from 'react-router-dom';
import { BUDGET_RANGES, PRACTICES, PROJECT_LIMITS as L } from '../../shared/projects.ts';
import { localePath } from '../../shared/routes.ts';
import { hasRole } from '../../shared/user.ts';
import { FieldError, FormFeedback, fieldProps, TextField } from '../components/form-feedback.tsx';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { usePageForm } from '../runtime/use-page-form.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

export default function ProjectNewPage({ user, form }: PageProps) {
  const { t, locale } = useI18n();
  const { state, pending, onSubmit, action } = usePageForm('brief', form);
  const v = state?.values ?? {};
  const isOrg = hasRole(user, 'ORG');
  const optional = ` (${t('projects.brief.optional')})`;
  return (
    <div className="container page narrow">
      <p>
        <Link to={localePath(isOrg ? 'organization' : 'client', locale)}>← {t('projects.brief.back')}</Link>
      </p>
      <h1>{t('pages.project-new.title')}</h1>
      <p className="section-lead">{t('projects.brief.lead')}</p>
      <FormFeedback state={state} />
      <OfflineFormNote />
      <form className="form" method="post" action={action} noValidate onSubmit={onSubmit} aria-busy={pending}>
        <TextField
          form="brief"
          state={state}
          name="title"
          label={t('projects.brief.title')}
          required
          maxLength={L.title}
          defaultValue={v.title ?? ''}
        />
        <div className="field">
          <label htmlFor="brief-description">{t('projects.brief.description')}</label>
          <textarea
            id="brief-description"
            name="description"
            rows={6}
            required
            maxLength={L.description}
            defaultValue={v.description ?? ''}
            aria-describedby="brief-description-hint"
            {...fieldProps(state, 'description', 'brief-description')}
          />
          <p id="brief-description-hint" className="field-hint">
            {t('projects.brief.descriptionHint')}
          </p>
          <FieldError state={state} field="description" id="brief-description" />
        </div>
        <div className="field">
          <label htmlFor="brief-practice">{t('projects.brief.practice')}</label>
          <select
            id="brief-practice"
            name="practice"
            required
            defaultValue={v.practice ?? ''}
            {...fieldProps(state, 'practice', 'brief-practice')}
          >
            <option value="" disabled>
              {t('projects.brief.choose')}
            </option>
            {PRACTICES.map((p) => (
              <option key={p} value={p}>
                {t(`projects.practices.${p}`)}
              </option>
            ))}
          </select>
          <FieldError state={state} field="practice" id="brief-practice" />
        </div>
        <div className="field">
          <label htmlFor="brief-budget">{t('projects.brief.budget') + optional}</label>
          <select id="brief-budget" name="budget" defaultValue={v.budget ?? ''} {...fieldProps(state, 'budget', 'brief-budget')}>
            <option value="">{t('projects.brief.noBudget')}</option>
            {BUDGET_RANGES.map((b) => (
              <option key={b} value={b}>
                {t(`projects.budgets.${b}`)}
              </option>
            ))}
          </select>
          <FieldError state={state} field="budget" id="brief-budget" />
        </div>
        <div className="field-row">
          <TextField
            form="brief"
            state={state}
            name="wishedStart"
            type="date"
            label={t('projects.brief.wishedStart') + optional}
            defaultValue={v.wishedStart ?? ''}
          />
          <TextField
            form="brief"
            state={state}
            name="deadline"
            type="date"
            label={t('projects.brief.deadline') + optional}
            defaultValue={v.deadline ?? ''}
          />
        </div>
        <TextField
          form="brief"
          state={state}
          name="organisation"
          label={t('projects.brief.organisation') + optional}
          maxLength={L.organisation}
          autoComplete="organization"
          defaultValue={v.organisation ?? ''}
        />
        {isOrg && (
          <TextField
            form="brief"
            state={state}
            name="procurementRef"
            label={t('projects.brief.procurementRef') + optional}
            maxLength={L.procurementRef}
            defaultValue={v.procurementRef ?? ''}
          />
        )}
        <button type="submit" className="button button-primary" disabled={pending}>
          {t('projects.brief.submit')}
        </button>
      </form>
    </div>
  );
}

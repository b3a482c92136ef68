// An expert's profile of expertise: practices, a short bio, a day rate and
// availability. Posted to the expert's area page, with or without JavaScript.
import { useLocation } from 'react-router-dom';
import type { FormState } from '../../shared/page-data.ts';
import { PRACTICES, PROJECT_LIMITS, type Expertise } from '../../shared/projects.ts';
import { FieldError, FormFeedback, fieldProps } from '../components/form-feedback.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { usePageForm } from '../runtime/use-page-form.ts';

export function ExpertiseForm({ expertise, form }: { expertise: Expertise; form: FormState | undefined }) {
  const { t } = useI18n();
  const { search } = useLocation();
  const { state, pending, onSubmit, action } = usePageForm('expertise', form);
  const saved = new URLSearchParams(search).get('saved') === 'expertise' && !state;
  const v = state?.values;
  const practices = v?.practices !== undefined ? v.practices.split(',') : expertise.practices;
  const availability = v?.availability ?? expertise.availability;
  return (
    <section aria-labelledby="expertise-title" className="area-section expertise">
      <h2 id="expertise-title">{t('projects.expertise.title')}</h2>
      <p className="section-lead">{expertise.updatedAt ? t('projects.expertise.lead') : t('projects.expertise.notYet')}</p>
      <FormFeedback state={state} successText={saved ? t('projects.done.expertise') : undefined} />
      <form className="form" method="post" action={action} noValidate onSubmit={onSubmit} aria-busy={pending}>
        <input type="hidden" name="intent" value="expertise" />
        <fieldset className="field" {...fieldProps(state, 'practices', 'expertise-practices')}>
          <legend>{t('projects.expertise.practices')}</legend>
          {PRACTICES.map((p) => (
            <label key={p} className="field-check">
              <input type="checkbox" name="practices" value={p} defaultChecked={practices.includes(p)} />
              <span>{t(`projects.practices.${p}`)}</span>
            </label>
          ))}
          <FieldError state={state} field="practices" id="expertise-practices" />
        </fieldset>
        <div className="field">
          <label htmlFor="expertise-bio">{t('projects.expertise.bio')}</label>
          <textarea
            id="expertise-bio"
            name="bio"
            rows={4}
            maxLength={PROJECT_LIMITS.bio}
            defaultValue={v?.bio ?? expertise.bio}
            {...fieldProps(state, 'bio', 'expertise-bio')}
          />
          <FieldError state={state} field="bio" id="expertise-bio" />
        </div>
        <div className="field">
          <label htmlFor="expertise-dayRate">{t('projects.expertise.dayRate')}</label>
          <input
            id="expertise-dayRate"
            name="dayRate"
            type="number"
            min={0}
            max={PROJECT_LIMITS.dayRateMax}
            step={1}
            inputMode="numeric"
            defaultValue={v?.dayRate ?? (expertise.dayRate === null ? '' : String(expertise.dayRate))}
            {...fieldProps(state, 'dayRate', 'expertise-dayRate')}
          />
          <FieldError state={state} field="dayRate" id="expertise-dayRate" />
        </div>
        <fieldset className="field">
          <legend>{t('projects.expertise.availability')}</legend>
          <label className="field-check">
            <input type="radio" name="availability" value="available" defaultChecked={availability !== 'busy'} />
            <span>{t('projects.expertise.available')}</span>
          </label>
          <label className="field-check">
            <input type="radio" name="availability" value="busy" defaultChecked={availability === 'busy'} />
            <span>{t('projects.expertise.busy')}</span>
          </label>
        </fieldset>
        <div className="field">
          <label htmlFor="expertise-busyUntil">{t('projects.expertise.busyUntil')}</label>
          <input
            id="expertise-busyUntil"
            name="busyUntil"
            type="date"
            defaultValue={v?.busyUntil ?? expertise.busyUntil ?? ''}
            {...fieldProps(state, 'busyUntil', 'expertise-busyUntil')}
          />
          <FieldError state={state} field="busyUntil" id="expertise-busyUntil" />
        </div>
        <button type="submit" className="button button-primary" disabled={pending}>
          {t('projects.expertise.save')}
        </button>
      </form>
    </section>
  );
}

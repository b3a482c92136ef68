// "E-mail notifications": for each topic (messages, changes of state, milestones, documents,
// reminders) at once, in the daily summary, or never, and how many days before a due milestone
// the reminder comes (docs/decisions/044). One form posted to the profile, with or
// without JavaScript; the notifications page keeps everything whatever the choice.
import {
  MAIL_MODES,
  MAIL_PREFERENCES_INTENT,
  MAIL_TOPICS,
  REMINDER_DAYS_MAX,
  REMINDER_DAYS_MIN,
  type MailPreferences,
} from '../../shared/mail-preferences.ts';
import type { FormState } from '../../shared/page-data.ts';
import { FieldError, FormFeedback, TextField, fieldProps } from '../components/form-feedback.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { useOnline } from '../runtime/online.ts';
import { usePageForm } from '../runtime/use-page-form.ts';

export type MailSettings = { preferences: MailPreferences; digestHour: number; timeZone: string };

export function MailSection({ mail, form, saved }: { mail: MailSettings; form: FormState | undefined; saved: string | null }) {
  const { t } = useI18n();
  const { state, pending, onSubmit, action } = usePageForm('mail', form);
  const online = useOnline();
  const success = !state && saved === MAIL_PREFERENCES_INTENT ? t('account.mail.saved') : undefined;
  // After a refused post, the choices as they were sent.
  const value = (name: string, fallback: string) => state?.values?.[name] ?? fallback;
  return (
    <section aria-labelledby="mail-title" className="account-section">
      <h2 id="mail-title" tabIndex={-1}>
        {t('account.mail.title')}
      </h2>
      <p className="section-lead">{t('account.mail.lead')}</p>
      <FormFeedback state={state} successText={success} />
      <form className="form mail-preferences" method="post" action={action} noValidate onSubmit={onSubmit} aria-busy={pending}>
        <input type="hidden" name="intent" value={MAIL_PREFERENCES_INTENT} />
        {MAIL_TOPICS.map((topic) => (
          <fieldset key={topic} className="mail-topic">
            <legend>{t(`account.mail.topics.${topic}`)}</legend>
            <div className="mail-modes">
              {MAIL_MODES.map((mode) => (
                <label key={mode} className="field-check">
                  <input
                    type="radio"
                    name={topic}
                    value={mode}
                    defaultChecked={value(topic, mail.preferences[topic]) === mode}
                    {...fieldProps(state, topic, `mail-${topic}`)}
                  />
                  <span>{t(`account.mail.modes.${mode}`)}</span>
                </label>
              ))}
            </div>
            <FieldError state={state} field={topic} id={`mail-${topic}`} />
          </fieldset>
        ))}
        <p className="field-hint">{t('account.mail.digestHint', { hour: mail.digestHour, zone: mail.timeZone })}</p>
        <TextField
          form="mail"
          state={state}
          name="reminderDays"
          label={t('account.mail.reminderDays')}
          type="number"
          inputMode="numeric"
          min={REMINDER_DAYS_MIN}
          max={REMINDER_DAYS_MAX}
          required
          defaultValue={value('reminderDays', String(mail.preferences.reminderDays))}
          aria-describedby="mail-reminderDays-hint"
        />
        <p id="mail-reminderDays-hint" className="field-hint">
          {t('account.mail.reminderDaysHint', { min: REMINDER_DAYS_MIN, max: REMINDER_DAYS_MAX })}
        </p>
        <button className="button button-primary" type="submit" disabled={pending || !online}>
          {t('account.mail.save')}
        </button>
      </form>
    </section>
  );
}

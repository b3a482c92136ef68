// The profile's e-mail address: the current one, one waiting for confirmation, and the form
// that asks for a change (the new address gets a link; nothing changes until it is opened).
import type { EmailSettings, FormState } from '../../shared/page-data.ts';
import { PASSWORD_MAX_LENGTH, EMAIL_MAX_LENGTH } from '../../shared/validation.ts';
import { FormFeedback, TextField } from '../components/form-feedback.tsx';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { usePageForm } from '../runtime/use-page-form.ts';
import { useOnline } from '../runtime/online.ts';

export function EmailSection({ email, form, saved }: { email: EmailSettings; form: FormState | undefined; saved: string | null }) {
  const { t } = useI18n();
  const { state, pending, onSubmit, action } = usePageForm('email', form);
  const online = useOnline();
  // Just asked: the waiting address is the news (announced); later it is a standing note.
  const justAsked = saved === 'emailPending' && !state;
  const success = state
    ? undefined
    : saved === 'email'
      ? t('emailChange.saved')
      : justAsked && email.pending
        ? t('emailChange.sent', { email: email.pending })
        : undefined;

  return (
    <section aria-labelledby="email-title">
      <h2 id="email-title">{t('emailChange.title')}</h2>
      <p>
        {t('emailChange.current')} <strong>{email.current ?? t('emailChange.none')}</strong>
      </p>
      <FormFeedback state={state} successText={success} />
      {email.pending && !justAsked && <p className="notice">{t('emailChange.pending', { email: email.pending })}</p>}
      {email.available ? (
        <>
          <OfflineFormNote />
          <form className="form" method="post" action={action} noValidate onSubmit={onSubmit} aria-busy={pending}>
            <input type="hidden" name="form" value="email" />
            <TextField
              form="email"
              state={state}
              name="newEmail"
              label={t('emailChange.newEmail')}
              type="email"
              autoComplete="email"
              required
              maxLength={EMAIL_MAX_LENGTH}
              defaultValue={state?.values?.newEmail ?? ''}
            />
            <TextField
              form="email"
              state={state}
              name="currentPassword"
              label={t('emailChange.currentPassword')}
              type="password"
              autoComplete="current-password"
              required
              maxLength={PASSWORD_MAX_LENGTH}
            />
            <button className="button button-primary" type="submit" disabled={pending || !online}>
              {t('emailChange.submit')}
            </button>
          </form>
        </>
      ) : (
        <p className="notice">{t('emailChange.unavailable')}</p>
      )}
    </section>
  );
}

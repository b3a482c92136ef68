// Deleting the account: the user asks with their password, sees the request while it waits for
// an administrator (and may withdraw it), and sees a refusal. Forms posted to the profile with an
// intent, with or without JavaScript.
import type { DeletionState } from '../../shared/account.ts';
import type { FormState } from '../../shared/page-data.ts';
import { FormFeedback, TextField } from '../components/form-feedback.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { usePageForm } from '../runtime/use-page-form.ts';
import { useOnline } from '../runtime/online.ts';
import { formatMoment } from './when.ts';
import { PASSWORD_MAX_LENGTH } from '../../shared/validation.ts';

export function DeletionSection({ deletion, form, saved }: { deletion: DeletionState; form: FormState | undefined; saved: string | null }) {
  const { t, locale } = useI18n();
  const { state, pending, onSubmit, action } = usePageForm('deletion', form);
  const online = useOnline();
  const success =
    saved === 'deletionRequested'
      ? t('account.deletion.requested')
      : saved === 'deletionWithdrawn'
        ? t('account.deletion.withdrawn')
        : undefined;

  return (
    <section aria-labelledby="deletion-title" className="account-section account-deletion">
      <h2 id="deletion-title" tabIndex={-1}>
        {t('account.deletion.title')}
      </h2>
      <FormFeedback state={state} successText={state ? undefined : success} />
      {deletion.status === 'pending' ? (
        <>
          <p className="notice" role="note">
            {t('account.deletion.pending', { date: formatMoment(deletion.requestedAt, locale) })}
          </p>
          <form className="inline-form" method="post" action={action} noValidate onSubmit={onSubmit} aria-busy={pending}>
            <input type="hidden" name="intent" value="withdrawDeletion" />
            <button className="button button-secondary" type="submit" disabled={pending || !online}>
              {t('account.deletion.withdraw')}
            </button>
          </form>
        </>
      ) : (
        <>
          {deletion.status === 'refused' && (
            <p className="notice" role="note">
              {t('account.deletion.refused', {
                date: formatMoment(deletion.requestedAt, locale),
                decided: formatMoment(deletion.decidedAt, locale),
              })}
            </p>
          )}
          <p className="section-lead">{t('account.deletion.lead')}</p>
          <ul className="account-deletion-facts">
            <li>{t('account.deletion.factAdmin')}</li>
            <li>{t('account.deletion.factKept')}</li>
            <li>{t('account.deletion.factGone')}</li>
          </ul>
          <form className="form" method="post" action={action} noValidate onSubmit={onSubmit} aria-busy={pending}>
            <input type="hidden" name="intent" value="requestDeletion" />
            <TextField
              form="deletion"
              state={state}
              name="currentPassword"
              label={t('account.deletion.password')}
              type="password"
              autoComplete="current-password"
              required
              maxLength={PASSWORD_MAX_LENGTH}
            />
            <button className="button button-danger" type="submit" disabled={pending || !online}>
              {t('account.deletion.request')}
            </button>
          </form>
        </>
      )}
    </section>
  );
}

// The two password fields of a link's page (an invitation, a password reset), posted to the
// page's own URL: works without JavaScript, and with it without a reload.
import type { FormEvent } from 'react';
import type { FormState } from '../../shared/page-data.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../shared/validation.ts';
import { FormFeedback, TextField } from '../components/form-feedback.tsx';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { useOnline } from '../runtime/online.ts';

export function NewPasswordForm({
  form,
  userName,
  state,
  pending,
  action,
  onSubmit,
  submitLabel,
}: {
  /** The form's name: its fields' ids start with it. */
  form: string;
  userName: string;
  state: FormState | undefined;
  pending: boolean;
  action: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
}) {
  const { t } = useI18n();
  const online = useOnline();
  return (
    <>
      <FormFeedback state={state} />
      <OfflineFormNote />
      <form className="form" method="post" action={action} noValidate onSubmit={onSubmit} aria-busy={pending}>
        {/* Password managers file the new password under the user name. */}
        <input type="text" name="username" autoComplete="username" value={userName} readOnly hidden />
        <TextField
          form={form}
          state={state}
          name="newPassword"
          label={t('accountLink.newPassword')}
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
        />
        <TextField
          form={form}
          state={state}
          name="confirmPassword"
          label={t('accountLink.confirmPassword')}
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX_LENGTH}
        />
        <button className="button button-primary" type="submit" disabled={pending || !online}>
          {submitLabel}
        </button>
      </form>
    </>
  );
}

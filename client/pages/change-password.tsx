import { Link, useLocation } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { passwordProblem, PASSWORD_MAX_LENGTH } from '../../shared/validation.ts';
import { FormFeedback, TextField } from '../components/form-feedback.tsx';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { useOnline } from '../runtime/online.ts';
import type { PageProps } from '../runtime/page-chunks.ts';
import { usePageForm } from '../runtime/use-page-form.ts';

const FIELDS = [
  { name: 'currentPassword', label: 'changePassword.current', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'changePassword.new', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'changePassword.confirm', autoComplete: 'new-password' },
] as const;

export default function ChangePasswordPage({ form, user }: PageProps) {
  const { t, locale } = useI18n();
  const { pathname, search } = useLocation();
  const saved = new URLSearchParams(search).get('saved') === 'password';
  const { state, pending, onSubmit } = usePageForm('changePassword', form, {
    // The same rules as the server, checked first for a quick answer.
    check: (data) => {
      const newPassword = String(data.get('newPassword') ?? '');
      const fields: Record<string, string> = {};
      const problem = passwordProblem(newPassword, user?.userName ?? '');
      if (problem) fields.newPassword = problem;
      if (newPassword !== String(data.get('confirmPassword') ?? '')) fields.confirmPassword = 'validation.passwordsDiffer';
      return Object.keys(fields).length > 0 ? { error: { code: 'invalid_password', message: '', fields } } : null;
    },
  });
  const online = useOnline();

  return (
    <div className="container page narrow">
      <h1>{t('pages.change-password.title')}</h1>
      <p className="section-lead">{t('changePassword.lead')}</p>
      <FormFeedback state={state} successText={saved && !state ? t('changePassword.saved') : undefined} />
      <OfflineFormNote />
      <form className="form" method="post" action={pathname} noValidate onSubmit={onSubmit} aria-busy={pending}>
        {/* Password managers use the user name to file the new password. */}
        <input type="text" name="username" autoComplete="username" value={user?.userName ?? ''} readOnly hidden />
        {FIELDS.map((field) => (
          <TextField
            key={field.name}
            form="password"
            state={state}
            name={field.name}
            label={t(field.label)}
            type="password"
            autoComplete={field.autoComplete}
            required
            maxLength={PASSWORD_MAX_LENGTH}
            {...(field.name === 'currentPassword' ? {} : { minLength: 10 })}
          />
        ))}
        <button className="button button-primary" type="submit" disabled={pending || !online}>
          {t('changePassword.submit')}
        </button>
      </form>
      <p>
        <Link to={localePath('profile', locale)}>{t('changePassword.backToProfile')}</Link>
      </p>
    </div>
  );
}

import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { FormState } from '../../shared/page-data.ts';
import { localePath } from '../../shared/routes.ts';
import { passwordProblem, PASSWORD_MAX_LENGTH } from '../../shared/validation.ts';
import { FormFeedback, TextField } from '../components/form-feedback.tsx';
import { postForm } from '../forms.ts';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../i18n.tsx';
import { useOnline } from '../runtime/online.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

const FIELDS = [
  { name: 'currentPassword', label: 'changePassword.current', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'changePassword.new', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'changePassword.confirm', autoComplete: 'new-password' },
] as const;

export default function ChangePasswordPage({ form, user }: PageProps) {
  const { t, locale } = useI18n();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const saved = new URLSearchParams(search).get('saved') === 'password';
  const [state, setState] = useState<FormState | undefined>(form?.form === 'changePassword' ? form : undefined);
  const [pending, setPending] = useState(false);
  const online = useOnline();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const data = new FormData(formElement);
    // The same rules as the server, checked first for a quick answer.
    const newPassword = String(data.get('newPassword') ?? '');
    const fields: Record<string, string> = {};
    const problem = passwordProblem(newPassword, user?.userName ?? '');
    if (problem) fields.newPassword = problem;
    if (newPassword !== String(data.get('confirmPassword') ?? '')) fields.confirmPassword = 'validation.passwordsDiffer';
    if (Object.keys(fields).length > 0) {
      setState({ form: 'changePassword', error: { code: 'invalid_password', message: '', fields } });
      return;
    }
    setPending(true);
    setState(undefined);
    try {
      const answer = await postForm(pathname, data);
      if (answer.ok) {
        formElement.reset();
        navigate(answer.redirect ?? pathname, { replace: true, state: { revalidate: Date.now() } });
      } else setState(answer.form);
    } catch {
      setState({ form: 'changePassword', error: { code: 'network', message: t('formErrors.network') } });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="container page narrow">
      <h1>{t('pages.change-password.title')}</h1>
      <p className="section-lead">{t('changePassword.lead')}</p>
      <FormFeedback state={state} successText={saved && !state ? t('changePassword.saved') : undefined} />
      <OfflineFormNote />
      <form className="form" method="post" action={pathname} onSubmit={onSubmit} aria-busy={pending}>
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

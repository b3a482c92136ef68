import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import type { FormState } from '../../shared/page-data.ts';
import { FormFeedback, TextField } from '../components/form-feedback.tsx';
import { postForm } from '../forms.ts';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../i18n.tsx';
import { useOnline } from '../runtime/online.ts';
import type { PageProps } from '../runtime/page-chunks.ts';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '../../shared/validation.ts';

/**
 * A real form posted to this page's own URL: works without JavaScript (POST, then 303) and,
 * with it, without a reload. Errors stay until the next submit.
 */
export default function LoginPage({ form }: PageProps) {
  const { t, locale } = useI18n();
  const { pathname, search } = useLocation();
  // Back from a reset password or a confirmed e-mail address (server/accounts/forms.ts).
  const notice = new URLSearchParams(search).get('notice');
  const navigate = useNavigate();
  const [state, setState] = useState<FormState | undefined>(form?.form === 'login' ? form : undefined);
  const [pending, setPending] = useState(false);
  const online = useOnline();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setState(undefined);
    try {
      const answer = await postForm(pathname, new FormData(event.currentTarget));
      if (answer.ok) {
        navigate(answer.redirect ?? '/', { state: { revalidate: Date.now() } });
        return;
      }
      setState(answer.form);
    } catch {
      setState({ form: 'login', error: { code: 'network', message: t('formErrors.network') } });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="container page narrow">
      <h1>{t('pages.login.title')}</h1>
      <p className="section-lead">{t('login.lead')}</p>
      <FormFeedback
        state={state}
        successText={notice === 'passwordReset' || notice === 'emailChanged' ? t(`login.notices.${notice}`) : undefined}
      />
      <OfflineFormNote />
      <form className="form" method="post" action={pathname} onSubmit={onSubmit} aria-busy={pending}>
        <TextField
          form="login"
          state={state}
          name="identifier"
          label={t('login.identifier')}
          type="text"
          autoComplete="username"
          required
          maxLength={EMAIL_MAX_LENGTH}
          defaultValue={state?.values?.identifier ?? ''}
        />
        <TextField
          form="login"
          state={state}
          name="password"
          label={t('login.password')}
          type="password"
          autoComplete="current-password"
          required
          maxLength={PASSWORD_MAX_LENGTH}
        />
        <button className="button button-primary" type="submit" disabled={pending || !online}>
          {t('login.submit')}
        </button>
      </form>
      <p>
        <Link to={localePath('forgotPassword', locale)}>{t('login.forgot')}</Link>
      </p>
    </div>
  );
}

import { Link, useLocation } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { FormFeedback, TextField } from '../components/form-feedback.tsx';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { useOnline } from '../runtime/online.ts';
import type { PageProps } from '../runtime/page-chunks.ts';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/login.ts';
import { usePageForm } from '../runtime/use-page-form.ts';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '../../shared/validation.ts';

/**
 * A real form posted to this page's own URL: works without JavaScript (POST, then 303) and,
 * with it, without a reload. Errors stay until the next submit.
 */
export default function LoginPage({ data, form }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { pathname, search } = useLocation();
  // Back from a reset password or a confirmed e-mail address (server/account-links/forms.ts).
  const notice = new URLSearchParams(search).get('notice');
  // A sign-in opens the page it answers with (a new history entry).
  const { state, pending, onSubmit } = usePageForm('login', form, { fallback: '/', replace: false });
  const online = useOnline();

  return (
    <div className="container page narrow">
      <h1>{t('pages.login.title')}</h1>
      <p className="section-lead">{t('login.lead')}</p>
      {data?.continuing && !state?.error ? (
        <p className="notice" role="status">
          {t('login.continue')}
        </p>
      ) : null}
      <FormFeedback
        state={state}
        successText={notice === 'passwordReset' || notice === 'emailChanged' ? t(`login.notices.${notice}`) : undefined}
      />
      <OfflineFormNote />
      <form className="form" method="post" action={pathname} noValidate onSubmit={onSubmit} aria-busy={pending}>
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

import { Link, useLocation } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { FormFeedback, TextField } from '../components/form-feedback.tsx';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { usePageForm } from '../runtime/use-page-form.ts';
import { useOnline } from '../runtime/online.ts';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/forgot-password.ts';
import type { PageProps } from '../runtime/page-chunks.ts';
import { EMAIL_MAX_LENGTH } from '../../shared/validation.ts';

/**
 * "Forgot your password?": a user name or e-mail address, and always the same answer, whether an
 * account matched or not (the e-mail is the only one who learns).
 */
export default function ForgotPasswordPage({ data, form }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { search } = useLocation();
  const sent = new URLSearchParams(search).get('sent') === '1';
  const { state, pending, onSubmit, action } = usePageForm('forgotPassword', form);
  const online = useOnline();

  return (
    <div className="container page narrow">
      <h1>{t('pages.forgot-password.title')}</h1>
      {data.available ? (
        <>
          <p className="section-lead">{t('forgotPassword.lead')}</p>
          <FormFeedback state={state} successText={sent && !state ? t('forgotPassword.sent') : undefined} />
          <OfflineFormNote />
          <form className="form" method="post" action={action} noValidate onSubmit={onSubmit} aria-busy={pending}>
            <TextField
              form="forgotPassword"
              state={state}
              name="identifier"
              label={t('forgotPassword.identifier')}
              type="text"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              maxLength={EMAIL_MAX_LENGTH}
              defaultValue={state?.values?.identifier ?? ''}
            />
            <button className="button button-primary" type="submit" disabled={pending || !online}>
              {t('forgotPassword.submit')}
            </button>
          </form>
        </>
      ) : (
        <p className="notice">{t('forgotPassword.unavailable')}</p>
      )}
      <p>
        <Link to={localePath('login', locale)}>{t('forgotPassword.backToLogin')}</Link>
      </p>
    </div>
  );
}

import { Link, useLocation } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { FormFeedback } from '../components/form-feedback.tsx';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { useOnline } from '../runtime/online.ts';
import { CodeField } from '../two-factor/code-field.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/two-factor.ts';
import type { PageProps } from '../runtime/page-chunks.ts';
import { usePageForm } from '../runtime/use-page-form.ts';

/**
 * The second factor after a right password: the authenticator's code or a recovery code. No
 * session exists until it is right; a sign-in left waiting expires (five minutes) and the
 * page then says so and leads back to the login.
 */
export default function TwoFactorPage({ data, form }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { pathname } = useLocation();
  const { state, pending, onSubmit } = usePageForm('twoFactor', form, { fallback: '/', replace: false });
  const online = useOnline();
  const expired = !data.pending || state?.error?.code === 'two_factor_expired';

  return (
    <div className="container page narrow">
      <h1>{t('pages.two-factor.title')}</h1>
      {expired ? (
        <p className="form-error" role="alert">
          {t('twoFactor.expired')}
        </p>
      ) : (
        <>
          <p className="section-lead">{t('twoFactor.lead')}</p>
          <FormFeedback state={state} />
          <OfflineFormNote />
          <form className="form" method="post" action={pathname} noValidate onSubmit={onSubmit} aria-busy={pending}>
            <CodeField form="twoFactor" state={state} />
            <p className="field-hint">{t('twoFactor.recoveryHint')}</p>
            <button className="button button-primary" type="submit" disabled={pending || !online}>
              {t('twoFactor.verify')}
            </button>
          </form>
        </>
      )}
      <p>
        <Link to={localePath('login', locale)}>{t('twoFactor.backToLogin')}</Link>
      </p>
    </div>
  );
}

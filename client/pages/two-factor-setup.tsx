import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { FormattedDate } from '../components/formatted-date.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { ManageTwoFactor } from '../two-factor/manage.tsx';
import { RecoveryCodes } from '../two-factor/recovery-codes.tsx';
import { SetupKey } from '../two-factor/setup-key.tsx';
import type { Revealed } from '../two-factor/use-two-factor-form.ts';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/two-factor-setup.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/**
 * Two-factor authentication of the signed-in user: off, the key to add and a code to turn it on;
 * on, new recovery codes and turning it off. Recovery codes just made are shown once: they came
 * with the form's answer (with JavaScript) or with this page answering the post (without).
 */
export default function TwoFactorSetupPage({ data, form }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { search } = useLocation();
  const disabled = new URLSearchParams(search).get('saved') === 'disabled';
  const [revealed, setRevealed] = useState<Revealed | null>(form?.reveal ? { success: form.success ?? '', codes: form.reveal } : null);

  return (
    <div className="container page narrow two-factor">
      <h1>{t('pages.two-factor-setup.title')}</h1>
      <p className="section-lead">{t('twoFactor.setupLead')}</p>
      {data.required && !data.enabled ? (
        <p className="notice" role="status">
          {t('twoFactor.requiredNotice')}
        </p>
      ) : null}
      {revealed ? (
        <RecoveryCodes revealed={revealed} onDone={() => setRevealed(null)} />
      ) : data.enabled ? (
        <>
          <p className="form-success" role="status">
            {t('twoFactor.isOn')} <FormattedDate date={data.enabledAt.slice(0, 10)} />.
          </p>
          <ManageTwoFactor view={data} form={form} onReveal={setRevealed} />
        </>
      ) : (
        <>
          {disabled ? (
            <p className="form-success" role="status">
              {t('twoFactor.disabled')}
            </p>
          ) : null}
          <SetupKey setupKey={data.key} form={form} onReveal={setRevealed} />
        </>
      )}
      {revealed || (data.required && !data.enabled) ? null : (
        <p>
          <Link to={localePath('profile', locale)}>{t('changePassword.backToProfile')}</Link>
        </p>
      )}
    </div>
  );
}

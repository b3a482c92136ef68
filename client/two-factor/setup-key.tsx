import type { FormState } from '../../shared/page-data.ts';
import { groupSecret, type TwoFactorSetupView } from '../../shared/two-factor.ts';
import { FormFeedback } from '../components/form-feedback.tsx';
import { OfflineFormNote } from '../components/offline-banner.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { useOnline } from '../runtime/online.ts';
import { CodeField } from './code-field.tsx';
import { useTwoFactorForm, type Revealed } from './use-two-factor-form.ts';

type Key = Extract<TwoFactorSetupView, { enabled: false }>['key'];

/** 2FA is off: the key to add (a QR code, or typed by hand), then a code of it turns 2FA on. */
export function SetupKey({ setupKey, form, onReveal }: { setupKey: Key; form: FormState | undefined; onReveal: (r: Revealed) => void }) {
  const { t } = useI18n();
  const online = useOnline();
  const { state, pending, onSubmit, action } = useTwoFactorForm('twoFactorEnable', form, onReveal);
  return (
    <>
      <section aria-labelledby="two-factor-scan">
        <h2 id="two-factor-scan">{t('twoFactor.scanTitle')}</h2>
        <p>{t('twoFactor.scanText')}</p>
        <div className="two-factor-key">
          {/* SVG made on the server from the key (server/two-factor/secrets.ts): no third party sees it. */}
          <div
            className="two-factor-qr"
            role="img"
            aria-label={t('twoFactor.qrLabel')}
            dangerouslySetInnerHTML={{ __html: setupKey.qrSvg }}
          />
          <div>
            <p>{t('twoFactor.manualText')}</p>
            <p>
              <code className="two-factor-secret">{groupSecret(setupKey.secret)}</code>
            </p>
            <p className="field-hint">{t('twoFactor.manualDetails')}</p>
          </div>
        </div>
      </section>
      <section aria-labelledby="two-factor-confirm">
        <h2 id="two-factor-confirm">{t('twoFactor.confirmTitle')}</h2>
        <p>{t('twoFactor.confirmText')}</p>
        <FormFeedback state={state} />
        <OfflineFormNote />
        <form className="form" method="post" action={action} noValidate onSubmit={onSubmit} aria-busy={pending}>
          <input type="hidden" name="action" value="enable" />
          <CodeField form="twoFactorEnable" state={state} />
          <button className="button button-primary" type="submit" disabled={pending || !online}>
            {t('twoFactor.enable')}
          </button>
        </form>
      </section>
    </>
  );
}

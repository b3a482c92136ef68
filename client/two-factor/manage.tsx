import type { FormState } from '../../shared/page-data.ts';
import type { TwoFactorSetupView } from '../../shared/two-factor.ts';
import { FormFeedback, TextField } from '../components/form-feedback.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import { useOnline } from '../runtime/online.ts';
import { CodeField } from './code-field.tsx';
import { useTwoFactorForm, type Revealed } from './use-two-factor-form.ts';
import { PASSWORD_MAX_LENGTH } from '../../shared/validation.ts';

type On = Extract<TwoFactorSetupView, { enabled: true }>;

/** 2FA is on: new recovery codes (with a code), and turning it off (password and a code) unless required. */
export function ManageTwoFactor({ view, form, onReveal }: { view: On; form: FormState | undefined; onReveal: (r: Revealed) => void }) {
  const { t } = useI18n();
  const online = useOnline();
  const renew = useTwoFactorForm('twoFactorRecovery', form, onReveal);
  const disable = useTwoFactorForm('twoFactorDisable', form);
  return (
    <>
      <section aria-labelledby="two-factor-renew">
        <h2 id="two-factor-renew">{t('twoFactor.renewTitle')}</h2>
        <p>{t('twoFactor.codesLeft', { count: view.recoveryCodesLeft })}</p>
        <p>{t('twoFactor.renewText')}</p>
        <FormFeedback state={renew.state} />
        <form className="form" method="post" action={renew.action} noValidate onSubmit={renew.onSubmit} aria-busy={renew.pending}>
          <input type="hidden" name="action" value="recoveryCodes" />
          <CodeField form="twoFactorRecovery" state={renew.state} />
          <button className="button button-primary" type="submit" disabled={renew.pending || !online}>
            {t('twoFactor.renew')}
          </button>
        </form>
      </section>
      <section aria-labelledby="two-factor-disable">
        <h2 id="two-factor-disable">{t('twoFactor.disableTitle')}</h2>
        {view.required ? (
          <p className="notice">{t('twoFactor.requiredKeep')}</p>
        ) : (
          <>
            <p>{t('twoFactor.disableText')}</p>
            <FormFeedback state={disable.state} />
            <form className="form" method="post" action={disable.action} noValidate onSubmit={disable.onSubmit} aria-busy={disable.pending}>
              <input type="hidden" name="action" value="disable" />
              <TextField
                form="twoFactorDisable"
                state={disable.state}
                name="password"
                label={t('twoFactor.password')}
                type="password"
                autoComplete="current-password"
                required
                maxLength={PASSWORD_MAX_LENGTH}
              />
              <CodeField form="twoFactorDisable" state={disable.state} label={t('twoFactor.codeOrRecovery')} />
              <button className="button button-secondary" type="submit" disabled={disable.pending || !online}>
                {t('twoFactor.disable')}
              </button>
            </form>
          </>
        )}
      </section>
    </>
  );
}

import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { Revealed } from './use-two-factor-form.ts';

/** The recovery codes just made, shown this once (the site keeps only their digests). */
export function RecoveryCodes({ revealed, onDone }: { revealed: Revealed; onDone: () => void }) {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const setupPath = localePath('twoFactorSetup', locale);
  // The page's data is read again: it now shows 2FA on (without JavaScript the link loads it).
  function done(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    onDone();
    navigate(setupPath, { replace: true, state: { revalidate: Date.now() } });
  }
  return (
    <section aria-labelledby="two-factor-codes">
      <p className="form-success" role="status">
        {t(revealed.success === 'enabled' ? 'twoFactor.enabled' : 'twoFactor.codesRenewed')}
      </p>
      <h2 id="two-factor-codes">{t('twoFactor.codesTitle')}</h2>
      <p>{t('twoFactor.codesText')}</p>
      <ol className="two-factor-codes">
        {revealed.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p>
        <CopyButton text={revealed.codes.join('\n')} label={t('twoFactor.codesCopy')} copied={t('twoFactor.codesCopied')} />
      </p>
      <p className="notice">{t('twoFactor.codesOnce')}</p>
      <p>
        <Link className="button button-primary" to={setupPath} onClick={done}>
          {t('twoFactor.codesSaved')}
        </Link>
      </p>
    </section>
  );
}

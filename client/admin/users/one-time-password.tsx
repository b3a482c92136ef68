import { useI18n } from '../../runtime/i18n.tsx';
import type { Notice } from './user-actions.ts';

/** A password the server generated, shown once with a button that hides it for good. */
export function OneTimePassword({ password, userName, onDismiss }: { password: string; userName: string; onDismiss: () => void }) {
  const { t } = useI18n();
  return (
    <>
      <p>
        {t('adminConsole.password.label', { userName })} <code className="admin-secret">{password}</code>
      </p>
      <p>{t('adminConsole.password.once')}</p>
      <button className="button button-secondary button-small" type="button" onClick={onDismiss}>
        {t('adminConsole.password.hide')}
        <span className="visually-hidden"> {t('adminConsole.password.hideFor', { userName })}</span>
      </button>
    </>
  );
}

/**
 * An invitation link the server could not e-mail (no mail server): shown once, for the admin to
 * pass on; the site keeps only its digest.
 */
export function OneTimeLink({ link, userName, onDismiss }: { link: string; userName: string; onDismiss: () => void }) {
  const { t } = useI18n();
  return (
    <>
      <p>
        {t('adminConsole.invite.linkLabel', { userName })} <code className="admin-secret">{link}</code>
      </p>
      <p>{t('adminConsole.invite.linkOnce')}</p>
      <button className="button button-secondary button-small" type="button" onClick={onDismiss}>
        {t('adminConsole.invite.hide')}
        <span className="visually-hidden"> {t('adminConsole.password.hideFor', { userName })}</span>
      </button>
    </>
  );
}

/** The outcome of the last action (role=status); a generated password or an invitation link is shown once. */
export function ActionNotice({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  return (
    <div className="form-success admin-notice" role="status">
      <p>{notice.text}</p>
      {notice.password && <OneTimePassword password={notice.password} userName={notice.passwordFor ?? ''} onDismiss={onDismiss} />}
      {notice.link && <OneTimeLink link={notice.link} userName={notice.passwordFor ?? ''} onDismiss={onDismiss} />}
    </div>
  );
}

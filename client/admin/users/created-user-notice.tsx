import { useI18n } from '../../runtime/i18n.tsx';
import type { UserWithPassword } from '../api.ts';
import { roleLabel } from '../text.ts';
import { OneTimeLink, OneTimePassword } from './one-time-password.tsx';
import { invitationText } from './user-actions.ts';

/** The account just created: its invitation, or the password or link shown once. */
export function CreatedUserNotice({ created, onDismiss }: { created: UserWithPassword; onDismiss: () => void }) {
  const { t } = useI18n();
  return (
    <div className="form-success admin-notice" role="status">
      <p>{t('adminConsole.create.done', { userName: created.user.userName, role: roleLabel(t, created.user.role) })}</p>
      {created.invitation && <p>{invitationText(t, created.user, created.invitation)}</p>}
      {created.password && <OneTimePassword password={created.password} userName={created.user.userName} onDismiss={onDismiss} />}
      {created.invitation?.link && <OneTimeLink link={created.invitation.link} userName={created.user.userName} onDismiss={onDismiss} />}
    </div>
  );
}

// The life of a row action: asked (a confirmation opens), confirmed (the request is sent), done
// (a notice, maybe a one-time password) or failed (an error; a vanished user reloads the list).
import { useState } from 'react';
import type { AdminUser } from '../../../shared/page-data.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import type { ApiFailure } from '../api.ts';
import { roleLabel } from '../text.ts';
import { doneText, sendAction, type Notice, type UserAction } from './user-actions.ts';

export function useUserActions({ onUpdated, reload }: { onUpdated: (user: AdminUser) => void; reload: () => Promise<void> }) {
  const { t } = useI18n();
  // The action being confirmed; kept after the dialog closes so that it never renders empty.
  const [action, setAction] = useState<UserAction | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [working, setWorking] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);

  function clear() {
    setFailure(null);
    setNotice(null);
  }

  function ask(next: UserAction) {
    if (working) return;
    setFailure(null);
    if (next.kind === 'role' && next.role === next.user.role) {
      setNotice({ text: t('adminConsole.role.unchanged', { userName: next.user.userName, role: roleLabel(t, next.role) }) });
      return;
    }
    setNotice(null);
    setAction(next);
    setConfirming(true);
  }

  async function confirm() {
    const chosen = action;
    setConfirming(false);
    if (!chosen || working) return;
    setWorking(true);
    clear();
    const answer = await sendAction(chosen);
    setWorking(false);
    if (!answer.ok) {
      setFailure(answer.error);
      if (answer.error.code === 'user_not_found') await reload();
      return;
    }
    const updated = answer.value.user;
    // The row shows the change at once; the reload then brings the whole page up to date.
    onUpdated(updated);
    const { password, invitation, ended } = answer.value;
    setNotice({
      text: doneText(t, chosen.kind, updated, { ended, invitation }),
      password,
      passwordFor: updated.userName,
      link: invitation?.link,
    });
    await reload();
  }

  return {
    action,
    confirming,
    working,
    notice,
    failure,
    ask,
    confirm,
    cancel: () => setConfirming(false),
    clear,
    clearFailure: () => setFailure(null),
    dismissNotice: () => setNotice(null),
  };
}

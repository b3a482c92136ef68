// What an admin can do to a listed user, each confirmed first: the request it sends and the
// words of its confirmation and outcome.
import type { AdminUser } from '../../../shared/page-data.ts';
import type { Translate } from '../../../shared/translate.ts';
import type { Role } from '../../../shared/user.ts';
import { resendInvitation, resetPassword, updateUser, type ApiAnswer, type Invitation, type UserWithPassword } from '../api.ts';
import { fullName, roleLabel } from '../text.ts';

export type UserAction =
  { kind: 'role'; user: AdminUser; role: Role } | { kind: 'disable' | 'enable' | 'reset' | 'invite'; user: AdminUser };

/** What the console reports after an action: a message, and a password or an invitation link to show once. */
export type Notice = { text: string; password?: string | undefined; passwordFor?: string; link?: string | undefined };

export function sendAction(action: UserAction): Promise<ApiAnswer<UserWithPassword>> {
  const { userName } = action.user;
  if (action.kind === 'role') return updateUser(userName, { role: action.role });
  if (action.kind === 'reset') return resetPassword(userName);
  if (action.kind === 'invite') return resendInvitation(userName);
  return updateUser(userName, { disabled: action.kind === 'disable' });
}

export function confirmTitle(t: Translate, action: UserAction): string {
  return t(`adminConsole.${action.kind}.confirmTitle`, { userName: action.user.userName });
}

export function confirmLabel(t: Translate, action: UserAction): string {
  return t(`adminConsole.${action.kind}.confirm`);
}

export function confirmText(t: Translate, action: UserAction): string {
  const params = {
    userName: action.user.userName,
    name: fullName(action.user) || action.user.userName,
    from: roleLabel(t, action.user.role),
    email: action.user.email ?? '',
  };
  return action.kind === 'role'
    ? t('adminConsole.role.confirmText', { ...params, to: roleLabel(t, action.role) })
    : t(`adminConsole.${action.kind}.confirmText`, params);
}

/** The outcome of a done action, about the user as the server now has them (and the invitation it sent). */
export function doneText(t: Translate, kind: UserAction['kind'], updated: AdminUser, invitation?: Invitation): string {
  if (kind === 'invite') return invitationText(t, updated, invitation);
  return t(`adminConsole.${kind}.done`, { userName: updated.userName, role: roleLabel(t, updated.role) });
}

/** Where an invitation went: an address, or (no mail server) the admin's hands. */
export function invitationText(t: Translate, user: AdminUser, invitation: Invitation | undefined): string {
  return invitation?.sentTo
    ? t('adminConsole.invite.done', { userName: user.userName, email: invitation.sentTo })
    : t('adminConsole.invite.doneLink', { userName: user.userName });
}

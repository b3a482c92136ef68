// What an admin can do to a listed user, each confirmed first: the request it sends and the
// words of its confirmation and outcome.
import type { AdminUser } from '../../../shared/page-data.ts';
import type { Translate } from '../../../shared/translate.ts';
import type { Role } from '../../../shared/user.ts';
import type { CompanyRole } from '../../../shared/company.ts';
import {
  endSessions,
  moveToCompany,
  type CompanyTarget,
  resendInvitation,
  resetPassword,
  updateUser,
  type ApiAnswer,
  type Invitation,
  type UserWithPassword,
} from '../api.ts';
import { fullName, roleLabel } from '../text.ts';

export type UserAction =
  | { kind: 'role'; user: AdminUser; role: Role }
  /** Puts a client or organisation user in a company (or a new one) as its manager or a member. */
  | { kind: 'company'; user: AdminUser; target: CompanyTarget; role: CompanyRole }
  | { kind: 'disable' | 'enable' | 'reset' | 'invite'; user: AdminUser }
  /** Ends the user's sessions everywhere (`self`: the admin's own, all but the one in use). */
  | { kind: 'sessions'; user: AdminUser; self: boolean };

/** What the server answers an action: the user as it now is, a generated password or an invitation, how many sessions ended. */
export type ActionAnswer = UserWithPassword & { ended?: number };

/** What the console reports after an action: a message, and a password or an invitation link to show once. */
export type Notice = { text: string; password?: string | undefined; passwordFor?: string; link?: string | undefined };

export function sendAction(action: UserAction): Promise<ApiAnswer<ActionAnswer>> {
  const { userName } = action.user;
  if (action.kind === 'role') return updateUser(userName, { role: action.role });
  if (action.kind === 'company') return moveToCompany(userName, action.target, action.role);
  if (action.kind === 'reset') return resetPassword(userName);
  if (action.kind === 'sessions') return endSessions(userName);
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
  if (action.kind === 'role') return t('adminConsole.role.confirmText', { ...params, to: roleLabel(t, action.role) });
  if (action.kind === 'company') {
    const role = t(`company.role.${action.role}`);
    return 'companyId' in action.target
      ? t('adminConsole.company.confirmText', { ...params, company: action.target.name, role })
      : t('adminConsole.company.confirmTextNew', { ...params, company: action.target.newCompany, role });
  }
  if (action.kind === 'sessions' && action.self) return t('adminConsole.sessions.confirmTextSelf', params);
  return t(`adminConsole.${action.kind}.confirmText`, params);
}

/** The outcome of a done action, about the user as the server now has them (how many sessions ended, the invitation sent). */
export function doneText(
  t: Translate,
  kind: UserAction['kind'],
  updated: AdminUser,
  extra: { ended?: number | undefined; invitation?: Invitation | undefined } = {},
): string {
  if (kind === 'sessions') return t('adminConsole.sessions.done', { userName: updated.userName, count: extra.ended ?? 0 });
  if (kind === 'invite') return invitationText(t, updated, extra.invitation);
  if (kind === 'company' && updated.company) {
    return t('adminConsole.company.done', {
      userName: updated.userName,
      company: updated.company.name,
      role: t(`company.role.${updated.company.role}`),
    });
  }
  return t(`adminConsole.${kind}.done`, { userName: updated.userName, role: roleLabel(t, updated.role) });
}

/** Where an invitation went: an address, or (no mail server) the admin's hands. */
export function invitationText(t: Translate, user: AdminUser, invitation: Invitation | undefined): string {
  return invitation?.sentTo
    ? t('adminConsole.invite.done', { userName: user.userName, email: invitation.sentTo })
    : t('adminConsole.invite.doneLink', { userName: user.userName });
}

import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { localePath } from '../../../shared/routes.ts';
import type { AdminUser } from '../../../shared/page-data.ts';
import { isBrandable, isRole, ROLES, type Role } from '../../../shared/user.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { RowMenu } from '../row-menu.tsx';
import { fullName, roleLabel } from '../text.ts';
import { companyName } from '../../../shared/account.ts';
import type { UserAction } from './user-actions.ts';
import { CompanyForm } from './company-form.tsx';

/** An item of a row's menu: a button that needs JavaScript (the console's actions go through the API). */
function MenuButton({ enabled, onClick, children }: { enabled: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button className="row-menu-item" type="button" disabled={!enabled} onClick={onClick}>
      {children}
    </button>
  );
}

/**
 * One user's row, its actions in a menu; every item names the user for screen readers. The
 * signed-in admin's own row offers none (a link to their profile instead).
 */
export function UserRow({
  user,
  self,
  enabled,
  onAction,
}: {
  user: AdminUser;
  self: boolean;
  enabled: boolean;
  onAction: (action: UserAction) => void;
}) {
  const { t, locale } = useI18n();
  const selectId = useId();
  // The role picked in the select, remembered against the role it was picked from: once the
  // user's role changes (after the action or a reload) a stale choice simply stops applying.
  const [choice, setChoice] = useState<{ from: string; role: Role } | null>(null);
  const selected: string = choice && choice.from === user.role ? choice.role : user.role;
  const forUser = (key: string) => <span className="visually-hidden"> {t(key, { userName: user.userName })}</span>;
  // On a phone each row is a card with no header row above it: its cells show their column's
  // name themselves (CSS, from data-label; screen readers keep the table's own headers).
  const column = (key: string) => t(`adminConsole.list.${key}`);

  function onRoleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isRole(selected)) onAction({ kind: 'role', user, role: selected });
  }

  return (
    <tr>
      <th scope="row">
        {user.userName}
        {self && <span className="admin-you"> {t('adminConsole.list.you')}</span>}
      </th>
      <td data-label={column('name')}>
        {fullName(user)}
        {user.company && (
          <span className="admin-company">
            {companyName(t, user.company)} · {t(`company.role.${user.company.role}`)}
          </span>
        )}
      </td>
      <td data-label={column('email')}>
        {user.email ?? (
          <>
            <span aria-hidden="true">—</span>
            <span className="visually-hidden">{t('adminConsole.list.noEmail')}</span>
          </>
        )}
      </td>
      <td data-label={column('role')}>{roleLabel(t, user.role)}</td>
      <td data-label={column('status')}>
        <span className={user.disabled ? 'badge badge-off' : 'badge badge-on'}>
          {t(user.disabled ? 'adminConsole.status.disabled' : 'adminConsole.status.active')}
        </span>
        {/* Invited, no password chosen yet. */}
        {user.invited && <span className="badge badge-invited">{t('adminConsole.status.invited')}</span>}
      </td>
      <td>
        {self ? (
          // Nothing that could lock the admin out is offered on their own row (the server refuses it
          // too): their password, sessions and data are on their profile.
          <Link className="admin-self-link" to={localePath('profile', locale)}>
            {t('adminConsole.self.profile')}
          </Link>
        ) : (
          <RowMenu label={t('adminConsole.rowMenu.button')} labelFor={t('adminConsole.rowMenu.buttonFor', { userName: user.userName })}>
            <form className="admin-role-form" method="post" noValidate onSubmit={onRoleSubmit}>
              <label htmlFor={selectId}>{t('adminConsole.role.selectLabel', { userName: user.userName })}</label>
              <select
                id={selectId}
                value={selected}
                onChange={(event) => {
                  const role = event.target.value;
                  if (isRole(role)) setChoice({ from: user.role, role });
                }}
              >
                {!isRole(user.role) && (
                  <option value={user.role} disabled>
                    {user.role}
                  </option>
                )}
                {ROLES.map((role) => (
                  <option key={role} value={role}>
                    {roleLabel(t, role)}
                  </option>
                ))}
              </select>
              <button className="button button-secondary button-small" type="submit" disabled={!enabled}>
                {t('adminConsole.role.submit')}
                {forUser('adminConsole.role.submitFor')}
              </button>
            </form>
            {(user.role === 'CLI' || user.role === 'ORG') && <CompanyForm user={user} enabled={enabled} onAction={onAction} />}
            <ul className="row-menu-list">
              <li>
                <MenuButton enabled={enabled} onClick={() => onAction({ kind: user.disabled ? 'enable' : 'disable', user })}>
                  {t(user.disabled ? 'adminConsole.enable.button' : 'adminConsole.disable.button')}
                  {forUser(user.disabled ? 'adminConsole.enable.buttonFor' : 'adminConsole.disable.buttonFor')}
                </MenuButton>
              </li>
              {user.invited && !user.disabled && (
                <li>
                  <MenuButton enabled={enabled} onClick={() => onAction({ kind: 'invite', user })}>
                    {t('adminConsole.invite.button')}
                    {forUser('adminConsole.invite.buttonFor')}
                  </MenuButton>
                </li>
              )}
              <li>
                <MenuButton enabled={enabled} onClick={() => onAction({ kind: 'reset', user })}>
                  {t('adminConsole.reset.button')}
                  {forUser('adminConsole.reset.buttonFor')}
                </MenuButton>
              </li>
              <li>
                <MenuButton enabled={enabled} onClick={() => onAction({ kind: 'sessions', user, self: false })}>
                  {t('adminConsole.sessions.button')}
                  {forUser('adminConsole.sessions.buttonFor')}
                </MenuButton>
              </li>
              {isBrandable(user.role) && (
                <li>
                  <Link
                    className="row-menu-item"
                    to={`${localePath('admin-branding', locale)}?${new URLSearchParams({ user: user.userName })}`}
                  >
                    {t('adminConsole.branding.button')}
                    {forUser('adminConsole.branding.buttonFor')}
                  </Link>
                </li>
              )}
            </ul>
          </RowMenu>
        )}
      </td>
    </tr>
  );
}

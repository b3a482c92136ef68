// The admin console's branding page (/admin/branding): the users, searchable and paged like
// the users page, each CLI or ORG user with a "Branding" button that opens their editor below
// the list (`?user=` opens it at once: the users page's row menus link here). The server renders
// the page and search the URL asks for; the editor works through the API.
import { useRef, useState } from 'react';
import type { AdminUser, UserList } from '../../../shared/page-data.ts';
import { isBrandable } from '../../../shared/user.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { Pager } from '../../components/pager.tsx';
import { PersonHeadCells } from '../person-columns.tsx';
import type { AdminScreenProps } from '../screen.ts';
import { failureText, fullName, roleLabel } from '../text.ts';
import { useHydrated } from '../../runtime/use-hydrated.ts';
import { UsersSearch } from '../users/users-search.tsx';
import { useUserList } from '../users/use-user-list.ts';
import { BrandingEditor } from './branding-editor.tsx';

export function BrandingScreen({
  users: initial,
  query: initialQuery,
  chosen,
  headingId,
}: AdminScreenProps & { users: UserList; query: string; chosen: string | null }) {
  const { t } = useI18n();
  const hydrated = useHydrated();
  const { users, list, query, pageHref } = useUserList(initial, initialQuery);
  const first = chosen ? initial.items.find((item) => item.userName === chosen && isBrandable(item.role)) : undefined;
  const [open, setOpen] = useState<AdminUser | null>(first ?? null);
  const [focus, setFocus] = useState(0);
  const opener = useRef<HTMLElement | null>(null);

  function openFor(user: AdminUser, button: HTMLElement) {
    opener.current = button;
    setOpen(user);
    setFocus((value) => value + 1);
  }

  function close() {
    const button = opener.current;
    opener.current = null;
    setOpen(null);
    if (button?.isConnected) button.focus();
  }

  return (
    <div className="admin-console">
      <section className="admin-section" aria-labelledby={headingId}>
        <h2 id={headingId}>{t('adminNav.branding')}</h2>
        <p className="section-lead">{t('adminNav.brandingLead')}</p>
        <UsersSearch
          initial={initialQuery}
          enabled={hydrated}
          searching={query !== ''}
          onSearch={(q) => void users.load(q, 1)}
          onShowAll={() => void users.load('', 1)}
        />
        {users.failure && (
          <p className="form-error" role="alert">
            {failureText(t, users.failure)}
          </p>
        )}
        {list.items.length === 0 ? (
          <p className="admin-summary">{query ? t('adminConsole.list.noMatches', { q: query }) : t('adminConsole.list.empty')}</p>
        ) : (
          <div className="table-wrap" aria-busy={users.loading}>
            <table className="data-table admin-users-table cards-on-phone">
              <caption className="visually-hidden">{t('adminConsole.list.caption', { page: list.page, pages: users.pages })}</caption>
              <thead>
                <tr>
                  <PersonHeadCells />
                  <th scope="col">{t('adminConsole.list.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((item) => (
                  <tr key={item.userName}>
                    <th scope="row">{item.userName}</th>
                    <td data-label={t('adminConsole.list.name')}>{fullName(item)}</td>
                    <td data-label={t('adminConsole.list.email')}>{item.email ?? '—'}</td>
                    <td data-label={t('adminConsole.list.role')}>{roleLabel(t, item.role)}</td>
                    <td>
                      {isBrandable(item.role) ? (
                        <button
                          className="button button-secondary button-small"
                          type="button"
                          disabled={!hydrated}
                          onClick={(event) => openFor(item, event.currentTarget)}
                        >
                          {t('adminConsole.branding.button')}
                          <span className="visually-hidden"> {t('adminConsole.branding.buttonFor', { userName: item.userName })}</span>
                        </button>
                      ) : (
                        <span className="field-hint">{t('adminNav.notBrandable')}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list.total > list.pageSize && (
          <Pager
            messages="adminConsole.pager"
            page={list.page}
            pages={users.pages}
            disabled={!hydrated || users.loading}
            href={pageHref}
            onGo={(page) => void users.goTo(page)}
          />
        )}
      </section>
      {open && (
        <BrandingEditor
          key={open.userName}
          user={list.items.find((item) => item.userName === open.userName) ?? open}
          enabled={hydrated}
          focusRequest={focus}
          onClose={close}
          onStale={() => void users.reload()}
        />
      )}
    </div>
  );
}

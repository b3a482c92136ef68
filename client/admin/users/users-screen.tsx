// The admin console's users (/admin/users): search and paging, one row per user with its
// actions in a menu (role, disable/enable, password reset, sessions, each confirmed in an
// AlertDialog; a CLI or ORG user's branding is a link to its page), and "New user", a
// disclosure that holds the form that creates users. The server renders the page and search
// the URL asks for (`?q=&page=`); from then on it works through the API.
import type { NewUserPrefill, UserList } from '../../../shared/page-data.ts';
import type { Translate } from '../../../shared/translate.ts';
import { AlertDialog } from '../../components/alert-dialog.tsx';
import { useI18n } from '../../runtime/i18n.tsx';
import { Pager } from '../../components/pager.tsx';
import type { AdminScreenProps } from '../screen.ts';
import { failureText } from '../text.ts';
import { useHydrated } from '../../runtime/use-hydrated.ts';
import { useUserList } from './use-user-list.ts';
import { ActionNotice } from './one-time-password.tsx';
import { confirmLabel, confirmText, confirmTitle } from './user-actions.ts';
import { UserCreateForm } from './user-create-form.tsx';
import { UserRow } from './user-row.tsx';
import { UsersSearch } from './users-search.tsx';
import { useUserActions } from './use-user-actions.ts';
import { PersonHeadCells } from '../person-columns.tsx';

export function UsersScreen({
  users: initial,
  query: initialQuery,
  invite,
  user,
  headingId,
}: AdminScreenProps & { users: UserList; query: string; invite: NewUserPrefill | null }) {
  const { t } = useI18n();
  const hydrated = useHydrated();
  const { users, list, query, pageHref } = useUserList(initial, initialQuery);
  const actions = useUserActions({
    reload: users.reload,
    onUpdated: (updated) =>
      users.update((list) => ({ ...list, items: list.items.map((item) => (item.userName === updated.userName ? updated : item)) })),
  });

  function search(q: string) {
    actions.clear();
    void users.load(q, 1);
  }

  const failure = actions.failure ?? users.failure;

  return (
    <div className="admin-console">
      <section className="admin-section" aria-labelledby={headingId}>
        <h2 id={headingId}>{t('adminConsole.list.title')}</h2>

        <UsersSearch initial={initialQuery} enabled={hydrated} searching={query !== ''} onSearch={search} onShowAll={() => search('')} />

        <p className="admin-summary" aria-live="polite">
          {summary(t, users.loading, list, query)}
        </p>

        {actions.notice && <ActionNotice notice={actions.notice} onDismiss={actions.dismissNotice} />}
        {failure && (
          <p className="form-error" role="alert">
            {failureText(t, failure)}
          </p>
        )}

        {list.items.length > 0 && (
          <div className="table-wrap" aria-busy={users.loading || actions.working}>
            <table className="data-table admin-users-table cards-on-phone">
              <caption className="visually-hidden">{t('adminConsole.list.caption', { page: list.page, pages: users.pages })}</caption>
              <thead>
                <tr>
                  <PersonHeadCells />
                  <th scope="col">{t('adminConsole.list.status')}</th>
                  <th scope="col">{t('adminConsole.list.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((item) => (
                  <UserRow
                    key={item.userName}
                    user={item}
                    self={item.userName === user?.userName}
                    enabled={hydrated}
                    onAction={actions.ask}
                  />
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
            onGo={(page) => {
              actions.clearFailure();
              void users.goTo(page);
            }}
          />
        )}
      </section>

      {/* Open at once when a contact message's "invite as client" brought the admin here. */}
      <details className="admin-new-user" open={invite !== null}>
        <summary className="button button-primary">{t('adminConsole.create.open')}</summary>
        <UserCreateForm enabled={hydrated} onCreated={users.reload} prefill={invite} />
      </details>

      {actions.action && (
        <AlertDialog
          open={actions.confirming}
          title={confirmTitle(t, actions.action)}
          confirmLabel={confirmLabel(t, actions.action)}
          cancelLabel={t('adminConsole.confirm.cancel')}
          onConfirm={() => void actions.confirm()}
          onCancel={actions.cancel}
        >
          <p>{confirmText(t, actions.action)}</p>
        </AlertDialog>
      )}
    </div>
  );
}

/** "12 users.", "3 users match “ana”.", "More than 100 users match “mar”…", or "Loading users…" while a page is on its way. */
function summary(t: Translate, loading: boolean, list: UserList, query: string): string {
  if (loading) return t('adminConsole.list.loading');
  if (list.total === 0) return query ? t('adminConsole.list.noMatches', { q: query }) : t('adminConsole.list.empty');
  if (query && list.totalCapped) return t('adminConsole.list.matchesMore', { count: list.total, q: query });
  if (query)
    return t(list.total === 1 ? 'adminConsole.list.matchesOne' : 'adminConsole.list.matchesOther', { count: list.total, q: query });
  return t(list.total === 1 ? 'adminConsole.list.countOne' : 'adminConsole.list.countOther', { count: list.total });
}

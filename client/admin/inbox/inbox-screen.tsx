// The admin console's contact inbox: the messages sent through the contact form, newest first,
// with an "only unread" filter, paging and a detail view (opening a message marks it read; it
// can be marked unread again or deleted after an AlertDialog). The page is rendered on the
// server without messages: the list is fetched in the browser when the section comes into
// view (or from its "Load messages" button).
import { useId, useRef, useState } from 'react';
import type { Translate } from '../../../shared/translate.ts';
import { AlertDialog } from '../../components/alert-dialog.tsx';
import { useI18n } from '../../runtime/i18n.tsx';
import { fetchMessages, type ApiFailure, type MessageList } from '../api.ts';
import { Pager } from '../../components/pager.tsx';
import type { AdminScreenProps } from '../screen.ts';
import { failureText } from '../text.ts';
import { useHydrated } from '../use-hydrated.ts';
import { usePagedList, type ShownPage } from '../use-paged-list.ts';
import { InboxTable } from './inbox-table.tsx';
import { InboxToolbar } from './inbox-toolbar.tsx';
import { INBOX_ERRORS, subjectOf } from './inbox-text.ts';
import { MessageDetail } from './message-detail.tsx';
import { useOpenMessage } from './use-open-message.ts';
import { useWhenShown } from './use-when-shown.ts';

const PAGE_SIZE = 10;

export function InboxScreen({ headingId }: Pick<AdminScreenProps, 'headingId'>) {
  const { t } = useI18n();
  const hydrated = useHydrated();
  const [onlyUnread, setOnlyUnread] = useState(false);
  // The query of a page is the "only unread" filter it was asked with.
  const inbox = usePagedList<MessageList, boolean>({
    query: onlyUnread,
    fetchPage: (unread, page) => fetchMessages(page, PAGE_SIZE, unread),
  });
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const filterId = useId();
  const list = inbox.shown?.list ?? null;

  function clear() {
    setFailure(null);
    setNotice(null);
  }

  const { selected, working, ...message } = useOpenMessage({ inbox, headingRef, clear, setFailure, setNotice });
  // The first page is fetched when the section comes into view.
  useWhenShown(sectionRef, () => inbox.ensureLoaded());

  function onFilterChange(unread: boolean) {
    setOnlyUnread(unread);
    clear();
    void inbox.load(unread, 1);
  }

  const shownFailure = failure ?? inbox.failure;

  return (
    <section ref={sectionRef} className="admin-section admin-inbox" aria-labelledby={headingId}>
      <h2 id={headingId} ref={headingRef} tabIndex={-1}>
        {t('adminInbox.title')}
        {list && (
          <>
            {' '}
            <span className="badge admin-inbox-count">
              {t(list.unread === 1 ? 'adminInbox.unreadOne' : 'adminInbox.unreadOther', { count: list.unread })}
            </span>
          </>
        )}
      </h2>
      <p className="section-lead">{t('adminInbox.lead')}</p>

      <InboxToolbar
        filterId={filterId}
        onlyUnread={onlyUnread}
        loaded={list !== null}
        hydrated={hydrated}
        loading={inbox.loading}
        onFilterChange={onFilterChange}
        onReload={() => {
          clear();
          void inbox.reload();
        }}
      />

      <p className="admin-summary" role="status">
        {summary(t, inbox.shown, inbox.loading, inbox.failure !== null)}
      </p>
      {notice && (
        <p className="form-success admin-notice" role="status">
          {notice}
        </p>
      )}
      {shownFailure && (
        <p className="form-error" role="alert">
          {failureText(t, shownFailure, INBOX_ERRORS)}
        </p>
      )}

      {list && list.items.length > 0 && (
        <div className="table-wrap" aria-busy={inbox.loading || working !== null}>
          <InboxTable
            messages={list.items}
            page={list.page}
            pages={inbox.pages}
            selectedId={selected?.id ?? null}
            enabled={hydrated}
            onOpen={(item, from) => void message.open(item, from)}
          />
        </div>
      )}

      {list && list.total > list.pageSize && (
        <Pager
          messages="adminInbox.pager"
          page={list.page}
          pages={inbox.pages}
          disabled={!hydrated || inbox.loading}
          onGo={(page) => {
            setFailure(null);
            void inbox.goTo(page);
          }}
        />
      )}

      {selected && (
        <MessageDetail
          key={selected.id}
          message={selected}
          enabled={hydrated && working === null}
          working={working}
          focusRequest={message.detailFocus}
          onClose={message.close}
          onMarkUnread={() => void message.markUnread()}
          onDelete={message.askDelete}
        />
      )}

      {selected && (
        <AlertDialog
          open={message.confirmingDelete}
          title={t('adminInbox.deleteConfirmTitle', { subject: subjectOf(t, selected) })}
          confirmLabel={t('adminInbox.deleteConfirm')}
          cancelLabel={t('adminConsole.confirm.cancel')}
          onConfirm={() => void message.confirmDelete()}
          onCancel={message.cancelDelete}
        >
          <p>{t('adminInbox.deleteConfirmText', { name: selected.name, email: selected.email })}</p>
        </AlertDialog>
      )}
    </section>
  );
}

/** "3 messages.", "1 unread message.", "Loading…", or what to do before the first load. */
function summary(t: Translate, shown: ShownPage<MessageList, boolean> | null, loading: boolean, failed: boolean): string | null {
  if (loading) return t('adminInbox.loading');
  if (!shown) return failed ? null : t('adminInbox.notLoaded');
  const { list, query: onlyUnread } = shown;
  if (list.total === 0) return t(onlyUnread ? 'adminInbox.emptyUnread' : 'adminInbox.empty');
  if (onlyUnread) return t(list.total === 1 ? 'adminInbox.countUnreadOne' : 'adminInbox.countUnreadOther', { count: list.total });
  return t(list.total === 1 ? 'adminInbox.countOne' : 'adminInbox.countOther', { count: list.total });
}

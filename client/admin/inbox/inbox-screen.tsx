// The admin console's contact inbox: the messages sent through the contact form, newest first,
// with an "only unread" filter, paging and a detail view (opening a message marks it read; it
// can be marked unread again or deleted after an AlertDialog). The page is rendered on the
// server without messages: the list is fetched in the browser when the section comes into
// view (or from its "Load messages" button).
import { useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import type { Translate } from '../../../shared/translate.ts';
import { AlertDialog } from '../../components/alert-dialog.tsx';
import { useI18n } from '../../runtime/i18n.tsx';
import { deleteMessage, fetchMessages, setMessageRead, type ApiFailure, type ContactMessage, type MessageList } from '../api.ts';
import { Pager } from '../../components/pager.tsx';
import type { AdminScreenProps } from '../screen.ts';
import { failureText } from '../text.ts';
import { useHydrated } from '../use-hydrated.ts';
import { usePagedList, type ShownPage } from '../use-paged-list.ts';
import { InboxTable } from './inbox-table.tsx';
import { INBOX_ERRORS, subjectOf } from './inbox-text.ts';
import { MessageDetail, type MessageWork } from './message-detail.tsx';

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
  // The open message, and a counter that asks its heading for the focus.
  const [selected, setSelected] = useState<ContactMessage | null>(null);
  const [detailFocus, setDetailFocus] = useState(0);
  const [working, setWorking] = useState<MessageWork | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const filterId = useId();
  const list = inbox.shown?.list ?? null;

  // The first page is fetched when the section comes into view (the callback runs later, in
  // the observer's own task: nothing is set synchronously in the effect).
  const onShown = useEffectEvent(() => inbox.ensureLoaded());
  useEffect(() => {
    const section = sectionRef.current;
    if (!section || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        onShown();
      },
      { rootMargin: '200px 0px' },
    );
    observer.observe(section);
    return () => observer.disconnect();
  }, []);

  function clear() {
    setFailure(null);
    setNotice(null);
  }

  function onFilterChange(unread: boolean) {
    setOnlyUnread(unread);
    clear();
    void inbox.load(unread, 1);
  }

  /** The row and the counts show a change at once; the reload then brings the page up to date. */
  function change(unreadDelta: number, rows: (items: ContactMessage[]) => ContactMessage[], removed = 0) {
    inbox.update((previous) => ({
      ...previous,
      total: Math.max(0, previous.total - removed),
      unread: Math.max(0, previous.unread + unreadDelta),
      items: rows(previous.items),
    }));
  }
  const replace = (updated: ContactMessage) => (items: ContactMessage[]) => items.map((item) => (item.id === updated.id ? updated : item));

  /** A failed action: the message, and for a message that is gone, the detail closes. */
  async function actionFailed(error: ApiFailure): Promise<void> {
    setFailure(error);
    if (error.code === 'message_not_found') {
      setSelected(null);
      opener.current = null;
      headingRef.current?.focus();
      await inbox.reload();
    }
  }

  async function open(message: ContactMessage, from: HTMLElement) {
    if (working) return;
    opener.current = from;
    setSelected(message);
    setDetailFocus((value) => value + 1);
    clear();
    if (message.read) return;
    setWorking('read');
    const answer = await setMessageRead(message.id, true);
    setWorking(null);
    if (!answer.ok) return actionFailed(answer.error);
    const updated = answer.value;
    setSelected((shown) => (shown?.id === updated.id ? updated : shown));
    change(-1, replace(updated));
    await inbox.reload();
  }

  function close() {
    const from = opener.current;
    opener.current = null;
    setSelected(null);
    // Back to the message's button in the list, when it is still there.
    if (from?.isConnected) from.focus();
    else headingRef.current?.focus();
  }

  async function markUnread() {
    const message = selected;
    if (!message || working) return;
    setWorking('unread');
    clear();
    const answer = await setMessageRead(message.id, false);
    setWorking(null);
    if (!answer.ok) return actionFailed(answer.error);
    const updated = answer.value;
    change(message.read ? 1 : 0, replace(updated));
    setNotice(t('adminInbox.markedUnread', { subject: subjectOf(t, updated), name: updated.name }));
    close();
    await inbox.reload();
  }

  async function confirmDelete() {
    const message = selected;
    setConfirmingDelete(false);
    if (!message || working) return;
    setWorking('delete');
    clear();
    const answer = await deleteMessage(message.id);
    setWorking(null);
    if (!answer.ok) return actionFailed(answer.error);
    setSelected(null);
    opener.current = null;
    change(message.read ? 0 : -1, (items) => items.filter((item) => item.id !== message.id), 1);
    setNotice(t('adminInbox.deleted', { subject: subjectOf(t, message), name: message.name }));
    // The row and its button are gone: the focus goes to the inbox's heading.
    headingRef.current?.focus();
    await inbox.reload();
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

      <div className="admin-inbox-toolbar">
        <div className="field-check admin-inbox-filter">
          <input
            id={`${filterId}-unread`}
            type="checkbox"
            checked={onlyUnread}
            disabled={!hydrated}
            onChange={(event) => onFilterChange(event.target.checked)}
          />
          <label htmlFor={`${filterId}-unread`}>{t('adminInbox.onlyUnread')}</label>
        </div>
        <button
          className="button button-secondary button-small"
          type="button"
          disabled={!hydrated || inbox.loading}
          onClick={() => {
            clear();
            void inbox.reload();
          }}
        >
          {t(list ? 'adminInbox.refresh' : 'adminInbox.load')}
        </button>
      </div>

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
            onOpen={(message, from) => void open(message, from)}
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
          focusRequest={detailFocus}
          onClose={close}
          onMarkUnread={() => void markUnread()}
          onDelete={() => {
            if (working) return;
            clear();
            setConfirmingDelete(true);
          }}
        />
      )}

      {selected && (
        <AlertDialog
          open={confirmingDelete}
          title={t('adminInbox.deleteConfirmTitle', { subject: subjectOf(t, selected) })}
          confirmLabel={t('adminInbox.deleteConfirm')}
          cancelLabel={t('adminConsole.confirm.cancel')}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setConfirmingDelete(false)}
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

// The admin console's contact inbox: the messages sent through the contact form, newest first,
// with an "only unread" filter, paging and a detail view (opening a message marks it read; it
// can be marked unread again or deleted after an AlertDialog). The admin page is rendered on
// the server without messages: the list is fetched from /api/admin/messages in the browser,
// when the section comes into view (or from its "Load messages" button).
import { useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import type { Translate } from '../../shared/translate.ts';
import { useI18n } from '../i18n.tsx';
import { callApi, failureText, useHydrated, type ApiAnswer, type ApiFailure } from './admin-users.tsx';
import { AlertDialog } from './alert-dialog.tsx';
import { NOTIFY_STATUSES, type ContactMessage, type MessageList, type NotifyStatus } from '../../shared/contact.ts';
import { intlLocale, isLocale } from '../../shared/locales.ts';
import { mailtoHref } from '../../shared/validation.ts';

/* ------------------------------------------------------------------------------------------ */
/* API calls                                                                                   */
/* ------------------------------------------------------------------------------------------ */

export type { ContactMessage, MessageList, NotifyStatus } from '../../shared/contact.ts';

const PAGE_SIZE = 10;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A ContactMessage read from untrusted JSON, or null when the shape is wrong. */
export function readContactMessage(value: unknown): ContactMessage | null {
  if (!isRecord(value)) return null;
  const { id, name, email, subject, message, locale, read, notifyStatus, createdAt } = value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || typeof read !== 'boolean') return null;
  if (typeof name !== 'string' || typeof email !== 'string' || typeof subject !== 'string' || typeof message !== 'string') return null;
  return {
    id,
    name,
    email,
    subject,
    message,
    read,
    // The store only keeps es and en; anything else read here is shown as the default.
    locale: locale === 'en' ? 'en' : 'es',
    notifyStatus: (NOTIFY_STATUSES as readonly unknown[]).includes(notifyStatus) ? (notifyStatus as NotifyStatus) : 'none',
    createdAt: typeof createdAt === 'string' ? createdAt : '',
  };
}

export function readMessageList(value: unknown): MessageList | null {
  if (!isRecord(value) || !Array.isArray(value.items)) return null;
  const { total, unread, page, pageSize } = value;
  if (typeof total !== 'number' || typeof unread !== 'number' || typeof page !== 'number' || typeof pageSize !== 'number') return null;
  const items: ContactMessage[] = [];
  for (const item of value.items) {
    const message = readContactMessage(item);
    if (!message) return null;
    items.push(message);
  }
  return { items, total, unread, page, pageSize };
}

function readMessageAnswer(value: unknown): ContactMessage | null {
  return isRecord(value) ? readContactMessage(value.message) : null;
}

const messagePath = (id: number) => `/api/admin/messages/${encodeURIComponent(String(id))}`;

export function fetchMessages(page: number, pageSize: number, unread: boolean): Promise<ApiAnswer<MessageList>> {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (unread) params.set('unread', 'true');
  return callApi(`/api/admin/messages?${params.toString()}`, readMessageList);
}

export function setMessageRead(id: number, read: boolean): Promise<ApiAnswer<ContactMessage>> {
  return callApi(messagePath(id), readMessageAnswer, 'PATCH', { read });
}

/** 204 No Content: there is no body to read, so any successful answer will do. */
export function deleteMessage(id: number): Promise<ApiAnswer<true>> {
  return callApi(messagePath(id), () => true, 'DELETE');
}

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** The inbox's own text for a failure, else the console's and the shared ones. */
export function inboxFailureText(t: Translate, error: ApiFailure): string {
  const key = `adminInbox.errors.${error.code}`;
  const text = t(key);
  return text !== key ? text : failureText(t, error);
}

/**
 * A timestamp as date and time in the browser's time zone, in the locale's own style (es-ES
 * 24 h, en-US 12 h). Only ever rendered in the browser (the list is not server-rendered), so
 * the server's time zone never meets the browser's.
 */
export function formatTimestamp(t: Translate, iso: string, locale: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime()) || !isLocale(locale)) return iso;
  const tag = intlLocale(locale);
  return t('adminInbox.dateTime', {
    date: new Intl.DateTimeFormat(tag, { dateStyle: 'long' }).format(date),
    time: new Intl.DateTimeFormat(tag, { timeStyle: 'short' }).format(date),
  });
}

function languageName(t: Translate, locale: string): string {
  const key = `adminInbox.languages.${locale}`;
  const name = t(key);
  return name === key ? locale : name;
}

function subjectOf(t: Translate, message: ContactMessage): string {
  return message.subject.trim() || t('adminInbox.noSubject');
}

/* ------------------------------------------------------------------------------------------ */
/* The inbox                                                                                   */
/* ------------------------------------------------------------------------------------------ */

type Work = 'read' | 'unread' | 'delete';
/** The page shown, and whether it was asked for with the "only unread" filter. */
type Shown = MessageList & { onlyUnread: boolean };

export function AdminInbox() {
  const { t, locale } = useI18n();
  const hydrated = useHydrated();
  // Null until the first answer: the server renders the section without messages.
  const [list, setList] = useState<Shown | null>(null);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [onlyUnread, setOnlyUnread] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // The open message, and a counter that asks its heading for the focus.
  const [selected, setSelected] = useState<ContactMessage | null>(null);
  const [detailFocus, setDetailFocus] = useState(0);
  const [working, setWorking] = useState<Work | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const started = useRef(false);
  const requestSeq = useRef(0);
  const current = useRef({ page: 1, unread: false });
  const filterId = useId();

  async function load(page: number, unread: boolean): Promise<void> {
    started.current = true;
    const seq = ++requestSeq.current;
    current.current = { page, unread };
    setLoading(true);
    const answer = await fetchMessages(page, PAGE_SIZE, unread);
    if (seq !== requestSeq.current) return; // a newer request has been sent since
    if (!answer.ok) {
      setLoading(false);
      setLoadError(inboxFailureText(t, answer.error));
      return;
    }
    const last = Math.max(1, Math.ceil(answer.value.total / Math.max(1, answer.value.pageSize)));
    if (answer.value.items.length === 0 && page > last) {
      await load(last, unread);
      return;
    }
    setLoading(false);
    setLoadError(null);
    setList({ ...answer.value, onlyUnread: unread });
  }

  function reload(): Promise<void> {
    return load(current.current.page, current.current.unread);
  }

  // The first page is fetched when the section comes into view (the callback runs later, in
  // the observer's own task: nothing is set synchronously in the effect).
  const onShown = useEffectEvent(() => {
    if (!started.current) void load(1, onlyUnread);
  });
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

  function onLoadClick() {
    setError(null);
    setNotice(null);
    void load(list ? current.current.page : 1, onlyUnread);
  }

  function onFilterChange(unread: boolean) {
    setOnlyUnread(unread);
    setError(null);
    setNotice(null);
    void load(1, unread);
  }

  function goTo(page: number) {
    setError(null);
    void load(page, current.current.unread);
  }

  /** A failed action: the message, and for a message that is gone, the detail closes. */
  async function actionFailed(failure: ApiFailure): Promise<void> {
    setError(inboxFailureText(t, failure));
    if (failure.code === 'message_not_found') {
      setSelected(null);
      opener.current = null;
      headingRef.current?.focus();
      await reload();
    }
  }

  async function open(message: ContactMessage, from: HTMLElement) {
    if (working) return;
    opener.current = from;
    setSelected(message);
    setDetailFocus((value) => value + 1);
    setNotice(null);
    setError(null);
    if (message.read) return;
    setWorking('read');
    const answer = await setMessageRead(message.id, true);
    setWorking(null);
    if (!answer.ok) {
      await actionFailed(answer.error);
      return;
    }
    const updated = answer.value;
    // The row and the count show the change at once; the reload then brings the page up to date.
    setSelected((shown) => (shown?.id === updated.id ? updated : shown));
    setList(
      (previous) =>
        previous && {
          ...previous,
          unread: Math.max(0, previous.unread - 1),
          items: previous.items.map((item) => (item.id === updated.id ? updated : item)),
        },
    );
    await reload();
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
    setError(null);
    setNotice(null);
    const answer = await setMessageRead(message.id, false);
    setWorking(null);
    if (!answer.ok) {
      await actionFailed(answer.error);
      return;
    }
    const updated = answer.value;
    setList(
      (previous) =>
        previous && {
          ...previous,
          unread: previous.unread + (message.read ? 1 : 0),
          items: previous.items.map((item) => (item.id === updated.id ? updated : item)),
        },
    );
    setNotice(t('adminInbox.markedUnread', { subject: subjectOf(t, updated), name: updated.name }));
    close();
    await reload();
  }

  async function confirmDelete() {
    const message = selected;
    setConfirmingDelete(false);
    if (!message || working) return;
    setWorking('delete');
    setError(null);
    setNotice(null);
    const answer = await deleteMessage(message.id);
    setWorking(null);
    if (!answer.ok) {
      await actionFailed(answer.error);
      return;
    }
    setSelected(null);
    opener.current = null;
    setList(
      (previous) =>
        previous && {
          ...previous,
          total: Math.max(0, previous.total - 1),
          unread: Math.max(0, previous.unread - (message.read ? 0 : 1)),
          items: previous.items.filter((item) => item.id !== message.id),
        },
    );
    setNotice(t('adminInbox.deleted', { subject: subjectOf(t, message), name: message.name }));
    // The row and its button are gone: the focus goes to the inbox's heading.
    headingRef.current?.focus();
    await reload();
  }

  const pages = list ? Math.max(1, Math.ceil(list.total / Math.max(1, list.pageSize))) : 1;
  const enabled = hydrated && working === null;
  const summary = !list
    ? loading
      ? t('adminInbox.loading')
      : loadError
        ? null
        : t('adminInbox.notLoaded')
    : loading
      ? t('adminInbox.loading')
      : list.total === 0
        ? t(list.onlyUnread ? 'adminInbox.emptyUnread' : 'adminInbox.empty')
        : list.onlyUnread
          ? t(list.total === 1 ? 'adminInbox.countUnreadOne' : 'adminInbox.countUnreadOther', { count: list.total })
          : t(list.total === 1 ? 'adminInbox.countOne' : 'adminInbox.countOther', { count: list.total });

  return (
    <section ref={sectionRef} className="admin-section admin-inbox" aria-labelledby="admin-inbox-title">
      <h2 id="admin-inbox-title" ref={headingRef} tabIndex={-1}>
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
        <button className="button button-secondary button-small" type="button" disabled={!hydrated || loading} onClick={onLoadClick}>
          {t(list ? 'adminInbox.refresh' : 'adminInbox.load')}
        </button>
      </div>

      <p className="admin-summary" role="status">
        {summary}
      </p>
      {notice && (
        <p className="form-success admin-notice" role="status">
          {notice}
        </p>
      )}
      {(error ?? loadError) && (
        <p className="form-error" role="alert">
          {error ?? loadError}
        </p>
      )}

      {list && list.items.length > 0 && (
        <div className="table-wrap" aria-busy={loading || working !== null}>
          <table className="data-table admin-inbox-table cards-on-phone">
            <caption className="visually-hidden">{t('adminInbox.caption', { page: list.page, pages })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('adminInbox.from')}</th>
                <th scope="col">{t('adminInbox.subject')}</th>
                <th scope="col">{t('adminInbox.received')}</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((message) => {
                const date = formatTimestamp(t, message.createdAt, locale);
                const classes = [message.read ? 'admin-inbox-read' : 'admin-inbox-unread'];
                if (selected?.id === message.id) classes.push('admin-inbox-selected');
                return (
                  <tr key={message.id} className={classes.join(' ')} aria-current={selected?.id === message.id ? 'true' : undefined}>
                    <th scope="row">
                      {message.name}
                      {message.read ? (
                        <span className="visually-hidden"> ({t('adminInbox.read')})</span>
                      ) : (
                        <>
                          {' '}
                          <span className="badge badge-new">{t('adminInbox.new')}</span>
                        </>
                      )}
                    </th>
                    <td data-label={t('adminInbox.subject')}>
                      <button
                        className="admin-inbox-open"
                        type="button"
                        disabled={!hydrated}
                        onClick={(event) => void open(message, event.currentTarget)}
                      >
                        {subjectOf(t, message)}
                        <span className="visually-hidden"> ({t('adminInbox.openFor', { name: message.name, date })})</span>
                      </button>
                    </td>
                    <td data-label={t('adminInbox.received')}>
                      <time dateTime={message.createdAt}>{date}</time>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {list && list.total > list.pageSize && (
        <nav className="pager" aria-label={t('adminInbox.pager.label')}>
          <button
            className="button button-secondary button-small"
            type="button"
            onClick={() => goTo(list.page - 1)}
            disabled={!hydrated || loading || list.page <= 1}
          >
            {t('adminInbox.pager.previous')}
          </button>
          <span aria-live="polite">{t('adminInbox.pager.status', { page: list.page, pages })}</span>
          <button
            className="button button-secondary button-small"
            type="button"
            onClick={() => goTo(list.page + 1)}
            disabled={!hydrated || loading || list.page >= pages}
          >
            {t('adminInbox.pager.next')}
          </button>
        </nav>
      )}

      {selected && (
        <MessageDetail
          key={selected.id}
          message={selected}
          enabled={enabled}
          working={working}
          focusRequest={detailFocus}
          onClose={close}
          onMarkUnread={() => void markUnread()}
          onDelete={() => {
            if (working) return;
            setNotice(null);
            setError(null);
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

/**
 * One message. Mounted with `key={id}`, so another message starts afresh; the heading takes
 * the focus when it opens and whenever `focusRequest` changes.
 */
function MessageDetail({
  message,
  enabled,
  working,
  focusRequest,
  onClose,
  onMarkUnread,
  onDelete,
}: {
  message: ContactMessage;
  enabled: boolean;
  working: Work | null;
  focusRequest: number;
  onClose: () => void;
  onMarkUnread: () => void;
  onDelete: () => void;
}) {
  const { t, locale } = useI18n();
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const subject = subjectOf(t, message);
  const forMessage = (key: string) => <span className="visually-hidden"> {t(key, { subject, name: message.name })}</span>;
  // Stored addresses were checked when they arrived; the link is encoded all the same.
  const mailto = mailtoHref(message.email, `Re: ${message.subject}`);

  useEffect(() => {
    headingRef.current?.focus();
  }, [focusRequest]);

  return (
    <section className="admin-inbox-detail" aria-labelledby={`${id}-title`} aria-busy={working !== null}>
      <div className="admin-inbox-detail-head">
        <h3 id={`${id}-title`} ref={headingRef} tabIndex={-1}>
          {subject}
        </h3>
        <button className="button button-secondary button-small" type="button" onClick={onClose}>
          {t('adminInbox.detail.close')}
          {forMessage('adminInbox.detail.closeFor')}
        </button>
      </div>
      <dl className="admin-inbox-meta">
        <dt>{t('adminInbox.detail.name')}</dt>
        <dd>{message.name}</dd>
        <dt>{t('adminInbox.detail.email')}</dt>
        <dd>
          <a href={mailto}>{message.email}</a>
        </dd>
        <dt>{t('adminInbox.detail.received')}</dt>
        <dd>
          <time dateTime={message.createdAt}>{formatTimestamp(t, message.createdAt, locale)}</time>
        </dd>
        <dt>{t('adminInbox.detail.language')}</dt>
        <dd>{languageName(t, message.locale)}</dd>
      </dl>
      {(message.notifyStatus === 'failed' || message.notifyStatus === 'pending') && (
        <p className="notice admin-inbox-notify">{t(`adminInbox.notify.${message.notifyStatus}`)}</p>
      )}
      <h4 className="visually-hidden">{t('adminInbox.detail.message')}</h4>
      <p className="admin-inbox-text">{message.message}</p>
      <div className="actions">
        <button className="button button-secondary button-small" type="button" disabled={!enabled} onClick={onMarkUnread}>
          {working === 'unread' ? t('adminInbox.detail.marking') : t('adminInbox.detail.markUnread')}
          {forMessage('adminInbox.detail.markUnreadFor')}
        </button>
        <button className="button button-small admin-inbox-delete" type="button" disabled={!enabled} onClick={onDelete}>
          {working === 'delete' ? t('adminInbox.detail.deleting') : t('adminInbox.detail.delete')}
          {forMessage('adminInbox.detail.deleteFor')}
        </button>
      </div>
    </section>
  );
}

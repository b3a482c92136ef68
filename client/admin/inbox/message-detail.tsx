import { useEffect, useId, useRef } from 'react';
import type { ContactMessage } from '../../../shared/contact.ts';
import { mailtoHref } from '../../../shared/validation.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { formatTimestamp, messageLanguage, subjectOf } from './inbox-text.ts';

/** What the open message is busy with. */
export type MessageWork = 'read' | 'unread' | 'delete';

/**
 * One message. Mounted with `key={id}`, so another message starts afresh; the heading takes
 * the focus when it opens and whenever `focusRequest` changes.
 */
export function MessageDetail({
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
  working: MessageWork | null;
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
        <dd>{messageLanguage(message.locale, locale)}</dd>
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

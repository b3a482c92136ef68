import { Link } from 'react-router-dom';
import type { ContactMessage } from '../../../shared/contact.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { formatTimestamp, subjectOf } from './inbox-text.ts';

/** A page of messages: sender (with the message's status; bold while unread), subject (opens it), when it arrived. */
export function InboxTable({
  messages,
  page,
  pages,
  selectedId,
  messageHref,
}: {
  messages: ContactMessage[];
  page: number;
  pages: number;
  /** The open message's id, marked in its row. */
  selectedId: number | null;
  /** The page's address with a message open. */
  messageHref: (id: number) => string;
}) {
  const { t, locale } = useI18n();
  return (
    <table className="data-table admin-inbox-table cards-on-phone">
      <caption className="visually-hidden">{t('adminInbox.caption', { page, pages })}</caption>
      <thead>
        <tr>
          <th scope="col">{t('adminInbox.from')}</th>
          <th scope="col">{t('adminInbox.subject')}</th>
          <th scope="col">{t('adminInbox.received')}</th>
        </tr>
      </thead>
      <tbody>
        {messages.map((message) => {
          const date = formatTimestamp(t, message.createdAt, locale);
          const selected = selectedId === message.id;
          const classes = [message.read ? 'admin-inbox-read' : 'admin-inbox-unread', `admin-inbox-${message.status}`];
          if (selected) classes.push('admin-inbox-selected');
          return (
            <tr key={message.id} className={classes.join(' ')} aria-current={selected ? 'true' : undefined}>
              <th scope="row">
                {message.name}
                {!message.read && <span className="visually-hidden"> ({t('adminInbox.unread')})</span>}{' '}
                <span className={`badge badge-status badge-${message.status}`}>{t(`adminInbox.status.${message.status}`)}</span>
              </th>
              <td data-label={t('adminInbox.subject')}>
                <Link className="admin-inbox-open" to={messageHref(message.id)}>
                  {subjectOf(t, message)}
                  <span className="visually-hidden"> ({t('adminInbox.openFor', { name: message.name, date })})</span>
                </Link>
              </td>
              <td data-label={t('adminInbox.received')}>
                <time dateTime={message.createdAt}>{date}</time>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

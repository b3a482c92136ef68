import type { ContactMessage } from '../../../shared/contact.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { formatTimestamp, subjectOf } from './inbox-text.ts';

/** A page of messages: sender (with a New badge while unread), subject (opens it), date. */
export function InboxTable({
  messages,
  page,
  pages,
  selectedId,
  enabled,
  onOpen,
}: {
  messages: ContactMessage[];
  page: number;
  pages: number;
  /** The open message's id, marked in its row. */
  selectedId: number | null;
  enabled: boolean;
  /** Opens a message; the button gets the focus back when it closes. */
  onOpen: (message: ContactMessage, opener: HTMLElement) => void;
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
          const classes = [message.read ? 'admin-inbox-read' : 'admin-inbox-unread'];
          if (selected) classes.push('admin-inbox-selected');
          return (
            <tr key={message.id} className={classes.join(' ')} aria-current={selected ? 'true' : undefined}>
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
                  disabled={!enabled}
                  onClick={(event) => onOpen(message, event.currentTarget)}
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
  );
}

import type { ContactMessage, ContactReply } from '../../../shared/contact.ts';
import { mailtoHref } from '../../../shared/validation.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { formatTimestamp, messageLanguage } from './inbox-text.ts';

/** Who wrote, from where, when, in which language, and where the message stands. */
export function MessageFacts({ message }: { message: ContactMessage }) {
  const { t, locale } = useI18n();
  // Stored addresses were checked when they arrived; the link is encoded all the same.
  const mailto = mailtoHref(message.email, `Re: ${message.subject}`);
  return (
    <dl className="admin-inbox-meta">
      <dt>{t('adminInbox.detail.name')}</dt>
      <dd>{message.name}</dd>
      <dt>{t('adminInbox.detail.email')}</dt>
      <dd>
        <a href={mailto}>{message.email}</a>
      </dd>
      {message.company && (
        <>
          <dt>{t('adminInbox.detail.company')}</dt>
          <dd>{message.company}</dd>
        </>
      )}
      <dt>{t('adminInbox.detail.received')}</dt>
      <dd>
        <time dateTime={message.createdAt}>{formatTimestamp(t, message.createdAt, locale)}</time>
      </dd>
      <dt>{t('adminInbox.detail.language')}</dt>
      <dd>{messageLanguage(message.locale, locale)}</dd>
      <dt>{t('adminInbox.detail.status')}</dt>
      <dd>{t(`adminInbox.status.${message.status}`)}</dd>
    </dl>
  );
}

/** The replies sent from the console, oldest first: who, when, the e-mail's fate, what they said. */
export function ReplyList({ replies }: { replies: ContactReply[] }) {
  const { t, locale } = useI18n();
  return (
    <>
      <h4>{t('adminInbox.replies.title')}</h4>
      {replies.length === 0 ? (
        <p className="admin-inbox-no-replies">{t('adminInbox.replies.none')}</p>
      ) : (
        <ol className="admin-inbox-replies">
          {replies.map((reply) => (
            <li key={reply.id} className="admin-inbox-reply">
              <p className="admin-inbox-reply-meta">
                {t('adminInbox.replies.by', {
                  name: reply.author.name || reply.author.userName,
                  date: formatTimestamp(t, reply.createdAt, locale),
                })}
                {' · '}
                <span className={`admin-inbox-delivery admin-inbox-delivery-${reply.delivery}`}>
                  {t(`adminInbox.replies.delivery.${reply.delivery}`)}
                </span>
              </p>
              <p className="admin-inbox-text">{reply.text}</p>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

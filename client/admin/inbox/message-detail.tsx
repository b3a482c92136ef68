// One message of the inbox, opened by the URL (`?message=12`): what the sender wrote and who they
// are, the replies sent from the console, the reply form and what else can be done with it.
import { useEffect, useId, useRef } from 'react';
import { Link } from 'react-router-dom';
import { INBOX_MESSAGE_ANCHOR, type InboxPage, type InboxView } from '../../../shared/contact.ts';
import type { FormState } from '../../../shared/page-data.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import type { InboxFormTarget } from './inbox-form.tsx';
import type { InboxHref } from './inbox-text.ts';
import { subjectOf } from './inbox-text.ts';
import { MessageActions } from './message-actions.tsx';
import { MessageFacts, ReplyList } from './message-facts.tsx';
import { ReplyForm } from './reply-form.tsx';

/**
 * One message, its replies, the reply form and its actions. Mounted with `key={id}`; its heading
 * takes the focus when it opens (after the page's own focus on a new page).
 */
export function MessageDetail({
  open,
  view,
  page,
  canReply,
  hrefOf,
  form,
}: {
  open: NonNullable<InboxPage['open']>;
  view: InboxView;
  page: number;
  canReply: boolean;
  hrefOf: InboxHref;
  /** The page's form state (a refusal without JavaScript). */
  form: FormState | undefined;
}) {
  const { t } = useI18n();
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { message, replies } = open;
  const subject = subjectOf(t, message);
  const here = `${hrefOf({ view, page, message: message.id })}#${INBOX_MESSAGE_ANCHOR}`;
  const target: InboxFormTarget = { id: message.id, view, page, action: here };

  useEffect(() => {
    // After the app's own focus on the page it shows (client/app.tsx).
    const frame = requestAnimationFrame(() => headingRef.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);

  return (
    <section id={INBOX_MESSAGE_ANCHOR} className="admin-inbox-detail" aria-labelledby={`${id}-title`}>
      <div className="admin-inbox-detail-head">
        <h3 id={`${id}-title`} ref={headingRef} tabIndex={-1}>
          {subject}
        </h3>
        <Link className="button button-secondary button-small" to={hrefOf({ view, page })}>
          {t('adminInbox.detail.close')}
          <span className="visually-hidden"> {t('adminInbox.detail.closeFor', { subject })}</span>
        </Link>
      </div>
      <MessageFacts message={message} />
      {(message.notifyStatus === 'failed' || message.notifyStatus === 'pending') && (
        <p className="notice admin-inbox-notify">{t(`adminInbox.notify.${message.notifyStatus}`)}</p>
      )}
      <h4 className="visually-hidden">{t('adminInbox.detail.message')}</h4>
      <p className="admin-inbox-text">{message.message}</p>

      <ReplyList replies={replies} />
      {canReply ? (
        <ReplyForm target={target} initial={form} name={message.name} email={message.email} />
      ) : (
        <p className="notice">{t('adminInbox.reply.unavailable')}</p>
      )}

      <MessageActions open={open} target={target} hrefOf={hrefOf} form={form} />
    </section>
  );
}

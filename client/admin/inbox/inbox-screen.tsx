// The admin console's contact inbox: the messages sent through the contact form, newest first,
// one view at a time (the inbox: new and answered; new, answered, archived, or all), in pages,
// and the message the URL opens, with its replies and what can be done with it. The server
// renders the page the URL asks for (server/pages/admin-inbox.ts): the views, the pager and a
// message are links, its actions forms — all of it works without JavaScript, and with it
// without a reload.
import { Link, useLocation, useNavigate } from 'react-router-dom';
import {
  CONTACT_STATUSES,
  inboxQuery,
  INBOX_MESSAGE_ANCHOR,
  INBOX_VIEWS,
  type InboxPage,
  type InboxView,
} from '../../../shared/contact.ts';
import type { FormState } from '../../../shared/page-data.ts';
import { Pager } from '../../components/pager.tsx';
import { useI18n } from '../../runtime/i18n.tsx';
import type { AdminScreenProps } from '../screen.ts';
import { pageCount } from '../use-paged-list.ts';
import { InboxTable } from './inbox-table.tsx';
import { MessageDetail } from './message-detail.tsx';

/** What an inbox form did, from the page's `?done=` after it. */
const DONE = ['reply', 'archive', 'unarchive', 'unread', 'delete'] as const;

export function InboxScreen({
  inbox,
  form,
  headingId,
}: Pick<AdminScreenProps, 'headingId'> & { inbox: InboxPage; form: FormState | undefined }) {
  const { t } = useI18n();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const { list, view, open } = inbox;
  const pages = pageCount(list);
  const href = (to: Parameters<typeof inboxQuery>[0]) => `${pathname}${inboxQuery(to)}`;
  const done = new URLSearchParams(search).get('done');

  return (
    <section className="admin-section admin-inbox" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {t('adminInbox.title')}
        {list.counts.new > 0 && (
          <>
            {' '}
            <span className="badge admin-inbox-count">{t('adminInbox.newCount', { count: list.counts.new })}</span>
          </>
        )}
      </h2>
      <p className="section-lead">{t('adminInbox.lead')}</p>

      <nav className="admin-inbox-views" aria-label={t('adminInbox.views.label')}>
        <ul>
          {INBOX_VIEWS.map((name) => (
            <li key={name}>
              <Link to={href({ view: name })} aria-current={name === view ? 'page' : undefined}>
                {t('adminInbox.views.count', { view: t(`adminInbox.views.${name}`), count: viewCount(inbox, name) })}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <p className="admin-summary" role="status">
        {list.total === 0 ? t(`adminInbox.empty.${view}`) : t('adminInbox.count', { count: list.total })}
      </p>
      {done && (DONE as readonly string[]).includes(done) && (
        <p className="form-success admin-notice" role="status">
          {t(`adminInbox.done.${done}`)}
        </p>
      )}
      {inbox.missing && <p className="notice">{t('adminInbox.missing')}</p>}

      {list.items.length > 0 && (
        <div className="table-wrap">
          <InboxTable
            messages={list.items}
            page={list.page}
            pages={pages}
            selectedId={open?.message.id ?? null}
            messageHref={(id) => `${href({ view, page: list.page, message: id })}#${INBOX_MESSAGE_ANCHOR}`}
          />
        </div>
      )}

      {pages > 1 && (
        <Pager
          messages="adminInbox.pager"
          page={list.page}
          pages={pages}
          disabled={false}
          href={(page) => href({ view, page })}
          onGo={(page) => navigate(href({ view, page }))}
        />
      )}

      {open && (
        <MessageDetail key={open.message.id} open={open} view={view} page={list.page} canReply={inbox.canReply} hrefOf={href} form={form} />
      )}
    </section>
  );
}

/** How many messages a view holds, from the inbox's counts. */
function viewCount({ list }: InboxPage, view: InboxView): number {
  if (view === 'active') return list.counts.new + list.counts.answered;
  if (view === 'all') return CONTACT_STATUSES.reduce((sum, status) => sum + list.counts[status], 0);
  return list.counts[view];
}

// The notification centre (docs/decisions/042): what happened in the reader's projects, newest first, a
// page at a time; each links to its project (opening it marks its notifications read), and
// they are marked read one by one or all at once — plain forms that work without JavaScript.
// With it, the list is read again when a notification arrives on the live stream (client/live/).
import { useLocation } from 'react-router-dom';
import type { Notification } from '../../shared/notifications.ts';
import type { TranslateParams } from '../../shared/translate.ts';
import { projectPath } from '../../shared/projects.ts';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/notifications.ts';
import { formatMoment } from '../my-account/when.ts';
import { formatDate } from '../components/formatted-date.tsx';
import { SectionForm, doneText } from '../projects/section-form.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { PageProps } from '../runtime/page-chunks.ts';

function NotificationText({ notification: n }: { notification: Notification }) {
  const { t, locale } = useI18n();
  const state = (name: string | undefined) => (name ? t(`projects.states.${name}`, { defaultValue: name }) : '');
  const words = {
    actor: n.actor || t('account.deletedUser'),
    title: n.project?.title ?? '',
    milestone: n.milestone ?? '',
    document: n.document ?? '',
    expert: n.expert ?? '',
    version: n.version ?? '',
    due: n.due ? formatDate(n.due, locale) : '',
    from: state(n.from),
    to: state(n.to),
  };
  // Who was assigned, which version was sent: said when the notice recorded it (older ones did not).
  const params: TranslateParams = n.expert || n.version ? { ...words, context: 'detail' } : words;
  return <>{t(`notifications.kinds.${n.kind}`, params)}</>;
}

export default function NotificationsPage({ data, user, form }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { search } = useLocation();
  const { page } = data;
  const state = form?.form === 'notifications' ? form : undefined;
  const done = doneText(search, 'readAll', t('notifications.allMarked')) ?? doneText(search, 'read', t('notifications.oneMarked'));
  const here = (before: number | null) => (before === null ? '?' : `?before=${before}`);
  return (
    <div className="container page narrow notifications-page">
      <div className="notifications-heading">
        <h1>{t('pages.notifications.title')}</h1>
        {page.unread > 0 && (
          <SectionForm intent="readAll" form={state} success={done} fieldless label={t('notifications.markAllRead')}>
            {(_state, pending) => (
              <button type="submit" className="button button-secondary" disabled={pending}>
                {t('notifications.markAllRead')}
              </button>
            )}
          </SectionForm>
        )}
      </div>
      {page.total > 0 && (
        <p className="section-lead" role="status">
          {page.unread > 0
            ? page.unread >= 100
              ? t('notifications.unreadMany')
              : t('notifications.unread', { count: page.unread })
            : t('notifications.allRead')}
        </p>
      )}
      {page.unread === 0 && done ? (
        <p className="form-success" role="status">
          {done}
        </p>
      ) : null}
      {page.total === 0 ? (
        <p className="empty-state">{t('notifications.empty')}</p>
      ) : (
        <ol className="notification-list">
          {page.items.map((n) => {
            const href = n.project ? projectPath(user?.role ?? '', n.project.id, locale) : null;
            return (
              <li key={n.id} className={n.read ? 'notification' : 'notification notification-unread'}>
                <p className="notification-text">
                  {!n.read && <span className="visually-hidden">{t('notifications.unreadMark')} </span>}
                  {href ? (
                    <a href={href}>
                      <NotificationText notification={n} />
                    </a>
                  ) : (
                    <NotificationText notification={n} />
                  )}
                </p>
                {n.excerpt && <blockquote className="notification-excerpt">{n.excerpt}</blockquote>}
                <div className="notification-meta">
                  <time dateTime={n.createdAt}>{formatMoment(n.createdAt, locale)}</time>
                  {!n.read && (
                    <SectionForm
                      intent="read"
                      form={undefined}
                      fieldless
                      className="notification-read-form"
                      label={t('notifications.markRead')}
                    >
                      {(_state, pending) => (
                        <>
                          <input type="hidden" name="id" value={n.id} />
                          <button type="submit" className="link-button notification-read" disabled={pending}>
                            {t('notifications.markRead')}
                          </button>
                        </>
                      )}
                    </SectionForm>
                  )}
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <nav className="list-more" aria-label={t('notifications.pages')}>
        {page.before !== null && <a href={here(null)}>{t('notifications.newest')}</a>}
        {page.nextBefore !== null && <a href={here(page.nextBefore)}>{t('notifications.older')}</a>}
      </nav>
    </div>
  );
}

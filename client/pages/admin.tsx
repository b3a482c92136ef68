import { Link } from 'react-router-dom';
import { documentHref } from '../../shared/documents.ts';
import { localePath } from '../../shared/routes.ts';
import { ConsolePage } from '../admin/console-page.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/admin.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/**
 * The admin console's home (role ADMIN, checked by the route's guards and again by every API
 * call): a line for a job that failed or e-mail that is stuck, what waits for the admin, as
 * counts linking to the console's pages, and the PDF reports.
 * Each section is a page of its own (client/admin/sections.ts).
 */
export default function AdminPage({ data, user }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const waiting =
    data.waiting >= data.waitingMax ? t('adminHome.waitingMore', { count: data.waiting }) : t('adminHome.waiting', { count: data.waiting });
  return (
    <ConsolePage current="admin">
      {user && <p className="admin-greeting">{t('areas.welcome', { name: user.name })}</p>}
      <p className="section-lead">{t('areas.admin.lead')}</p>
      <section className="admin-section" aria-labelledby="admin-home-title">
        <h2 id="admin-home-title">{t('adminHome.title')}</h2>
        {data.failedJobs.map((kind) => (
          <p key={kind} className="notice" role="status">
            {t('adminHome.jobFailed', { job: t(`adminHome.jobs.${kind}`) })}
          </p>
        ))}
        {data.stuckMail && (
          <p className="notice" role="status">
            {t('adminHome.mailStuck', { count: data.stuckMail.count, minutes: data.stuckMail.minutes })}
          </p>
        )}
        <ul className="admin-home-counts">
          <li>
            <Link to={localePath('admin-projects', locale)}>{waiting}</Link>
          </li>
          {data.unread !== null && (
            <li>
              <Link to={localePath('admin-inbox', locale)}>{t('adminHome.unread', { count: data.unread })}</Link>
            </li>
          )}
          {data.deletions !== null && (
            <li>
              <Link to={localePath('admin-deletions', locale)}>{t('adminHome.deletions', { count: data.deletions })}</Link>
            </li>
          )}
        </ul>
      </section>
      <section className="admin-section" aria-labelledby="admin-reports-title">
        <h2 id="admin-reports-title">{t('adminDocuments.label')}</h2>
        <p className="actions">
          <a className="button button-secondary button-small" href={documentHref('users', locale)} download>
            {t('adminDocuments.users')}
          </a>
          <a className="button button-secondary button-small" href={documentHref('messages', locale)} download>
            {t('adminDocuments.messages')}
          </a>
          <a className="button button-secondary button-small" href={documentHref('profile', locale)} download>
            {t('profile.downloadPdf')}
          </a>
        </p>
      </section>
    </ConsolePage>
  );
}

import { AdminInbox } from '../components/admin-inbox.tsx';
import { AdminUsers } from '../components/admin-users.tsx';
import { AdminPipeline } from '../projects/admin-pipeline.tsx';
import { documentPath } from '../forms.ts';
import { useI18n } from '../i18n.tsx';
import type { PageProps } from './registry.ts';

/**
 * The admin console (role ADMIN, checked by the route's guards and again by every API call).
 * The server renders the first page of users; the console then works through the API. The
 * contact inbox below it is fetched in the browser when it comes into view.
 */
export default function AdminPage({ data, user }: PageProps<'admin'>) {
  const { t, locale } = useI18n();
  return (
    <div className="container page admin-page">
      <h1>{t('pages.admin.title')}</h1>
      {user && <p className="admin-greeting">{t('areas.welcome', { name: user.name })}</p>}
      <p className="section-lead">{t('areas.admin.lead')}</p>
      <nav className="actions" aria-label={t('adminDocuments.label')}>
        <a className="button button-secondary button-small" href={documentPath(locale, 'documents/users.pdf')} download>
          {t('adminDocuments.users')}
        </a>
        <a className="button button-secondary button-small" href={documentPath(locale, 'documents/contact-messages.pdf')} download>
          {t('adminDocuments.messages')}
        </a>
        <a className="button button-secondary button-small" href={documentPath(locale, 'documents/my-profile.pdf')} download>
          {t('profile.downloadPdf')}
        </a>
      </nav>
      <nav className="admin-sections" aria-label={t('adminInbox.sections.label')}>
        <ul>
          <li>
            <a href="#pipeline-title">{t('adminInbox.sections.projects')}</a>
          </li>
          <li>
            <a href="#admin-users-title">{t('adminInbox.sections.users')}</a>
          </li>
          <li>
            <a href="#admin-inbox-title">{t('adminInbox.sections.inbox')}</a>
          </li>
        </ul>
      </nav>
      <AdminPipeline data={data.pipeline} />
      <AdminUsers initial={data.users} currentUserName={user?.userName ?? null} />
      <AdminInbox />
    </div>
  );
}

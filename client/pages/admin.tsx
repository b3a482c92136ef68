import { ADMIN_SECTIONS } from '../admin/sections.ts';
import { documentHref } from '../../shared/documents.ts';
import { BrandProvider } from '../admin/brand.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/admin.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/**
 * The admin console (role ADMIN, checked by the route's guards and again by every API call):
 * the PDF reports, a list of the sections, and the sections' screens (client/admin/).
 */
export default function AdminPage({ data, user, brand }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  return (
    <div className="container page admin-page">
      <h1>{t('pages.admin.title')}</h1>
      {user && <p className="admin-greeting">{t('areas.welcome', { name: user.name })}</p>}
      <p className="section-lead">{t('areas.admin.lead')}</p>
      <nav className="actions" aria-label={t('adminDocuments.label')}>
        <a className="button button-secondary button-small" href={documentHref('users', locale)} download>
          {t('adminDocuments.users')}
        </a>
        <a className="button button-secondary button-small" href={documentHref('messages', locale)} download>
          {t('adminDocuments.messages')}
        </a>
        <a className="button button-secondary button-small" href={documentHref('profile', locale)} download>
          {t('profile.downloadPdf')}
        </a>
      </nav>
      <nav className="admin-sections" aria-label={t('adminInbox.sections.label')}>
        <ul>
          {ADMIN_SECTIONS.map(({ headingId, navLabel }) => (
            <li key={headingId}>
              <a href={`#${headingId}`}>{t(navLabel)}</a>
            </li>
          ))}
        </ul>
      </nav>
      {/* The branding editor shows the brand's default colour and logo. */}
      <BrandProvider value={brand}>
        {ADMIN_SECTIONS.map(({ headingId, Screen }) => (
          <Screen key={headingId} data={data} user={user} headingId={headingId} />
        ))}
      </BrandProvider>
    </div>
  );
}

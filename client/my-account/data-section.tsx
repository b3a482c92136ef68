// "Your data": the download of everything the site holds about the user, as one JSON file
// (server/my-account/download.ts). A plain link: the browser downloads it, with or without JavaScript.
import { documentHref } from '../../shared/documents.ts';
import { useI18n } from '../runtime/i18n.tsx';

export function DataSection() {
  const { t, locale } = useI18n();
  return (
    <section aria-labelledby="data-title" className="account-section">
      <h2 id="data-title">{t('account.data.title')}</h2>
      <p className="section-lead">{t('account.data.lead')}</p>
      <p>
        <a className="button button-secondary" href={documentHref('myData', locale)} download>
          {t('account.data.download')}
        </a>
      </p>
    </section>
  );
}

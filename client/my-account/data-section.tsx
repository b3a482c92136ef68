// "Your data": the download of everything the site holds about the user, as one JSON file
// (server/my-account/download.ts). A plain link: the browser downloads it, with or without JavaScript.
import { MY_DATA_PATH } from '../../shared/account.ts';
import { documentPath } from '../runtime/forms.ts';
import { useI18n } from '../runtime/i18n.tsx';

export function DataSection() {
  const { t, locale } = useI18n();
  return (
    <section aria-labelledby="data-title" className="account-section">
      <h2 id="data-title">{t('account.data.title')}</h2>
      <p className="section-lead">{t('account.data.lead')}</p>
      <p>
        <a className="button button-secondary" href={documentPath(locale, MY_DATA_PATH)} download>
          {t('account.data.download')}
        </a>
      </p>
    </section>
  );
}

import { Link } from '../runtime/router.tsx';
import type { ErrorInfo } from '../../shared/page-data.ts';
import { localePath } from '../../shared/routes.ts';
import { useI18n } from '../i18n.tsx';

/** seed-spec §8: the message, or 'Error' if none; 404 reads 'This page could not be found'. */
export function ErrorView({ error }: { error: ErrorInfo }) {
  const { t, locale } = useI18n();
  const status = error.status || 500;
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-status">{status}</p>
      <h1 id="error-title">{error.message || t('errors.generic')}</h1>
      <p>
        <Link className="button" to={localePath('index', locale)}>
          {t('errors.backHome')}
        </Link>
      </p>
    </section>
  );
}

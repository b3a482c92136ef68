import { Link } from 'react-router-dom';
import type { ErrorInfo } from '../../shared/page-data.ts';
import { localePath } from '../../shared/routes.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { deferredComponent } from '../runtime/deferred.tsx';

// The 404 page's help is its own chunk: no first load but a 404's pays for it (without
// JavaScript, or until the chunk arrives, the server's markup of it works as it is).
const NotFoundHelp = deferredComponent(() => import('./not-found-help.tsx').then((m) => m.NotFoundHelp)).Deferred;

/**
 * The message, or 'Error' if none; 404 reads 'This page could not be found', and
 * helps the visitor on (the blog's search, the main pages, the practices).
 */
export function ErrorView({ error }: { error: ErrorInfo }) {
  const { t, locale } = useI18n();
  const status = error.status || 500;
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-status">{status}</p>
      <h1 id="error-title">{error.message || t('errors.generic')}</h1>
      {status === 404 ? (
        <NotFoundHelp />
      ) : (
        <p>
          <Link className="button" to={localePath('index', locale)}>
            {t('errors.backHome')}
          </Link>
        </p>
      )}
    </section>
  );
}

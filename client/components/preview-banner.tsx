import { useLocation } from 'react-router-dom';
import { useI18n } from '../runtime/i18n.tsx';

/**
 * Shown while the page shows drafts (the CMS preview): says so, and leaves the preview — a real
 * form (no JavaScript needed) that ends it and comes back to this page, now published.
 */
export function PreviewBanner() {
  const { t } = useI18n();
  const { pathname, search } = useLocation();
  return (
    <div className="preview-banner" role="status">
      <p className="preview-banner-text">{t('preview.banner')}</p>
      <form method="post" action="/preview/exit" className="preview-banner-exit" noValidate>
        <input type="hidden" name="path" value={`${pathname}${search}`} />
        <button type="submit" className="button preview-banner-button">
          {t('preview.exit')}
        </button>
      </form>
    </div>
  );
}

import { useOnline } from '../runtime/online.ts';
import { useI18n } from '../runtime/i18n.tsx';

/** Online/offline status is tracked and shown, politely. */
export function OfflineBanner() {
  const { t } = useI18n();
  const online = useOnline();
  return (
    <div className="offline-banner" role="status" aria-live="polite">
      {online ? null : <p>{t('offline.banner')}</p>}
    </div>
  );
}

/** Forms that need the network say so while offline. */
export function OfflineFormNote() {
  const { t } = useI18n();
  const online = useOnline();
  if (online) return null;
  return (
    <p className="form-offline" role="status">
      {t('offline.form')}
    </p>
  );
}

import { useSyncExternalStore } from 'react';
import { requestsInFlight, subscribeLoading } from '../runtime/loading.ts';
import { useI18n } from '../runtime/i18n.tsx';

/** A full-screen spinner while requests are in flight (stopped by failures too). */
export function LoadingOverlay() {
  const { t } = useI18n();
  const busy = useSyncExternalStore(
    subscribeLoading,
    () => requestsInFlight() > 0,
    () => false,
  );
  if (!busy) return null;
  return (
    <div className="loading-overlay" role="status" aria-busy="true" aria-live="polite" data-testid="loading-overlay">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{t('layout.loading')}</span>
    </div>
  );
}

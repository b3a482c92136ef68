import type { ReactNode, RefObject } from 'react';
import type { PagePayload } from '../../shared/page-data.ts';
import type { Branding } from '../../shared/branding.ts';
import type { PageBrand } from '../../shared/brand.ts';
import type { SessionUser } from '../../shared/user.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { Footer } from './footer.tsx';
import { LoadingOverlay } from './loading-overlay.tsx';
import { OfflineBanner } from './offline-banner.tsx';
import { Navbar } from './navbar.tsx';
import { deferredComponent } from '../runtime/deferred.tsx';

// Shown only while a page shows drafts (the CMS preview): its own chunk, no first-load cost.
const PreviewBanner = deferredComponent(() => import('./preview-banner.tsx').then((m) => m.PreviewBanner)).Deferred;

/** One default layout: the top navigation bar above the page content. */
export function Layout({
  payload,
  siteName,
  brand,
  mainRef,
  loadState,
  user,
  branding,
  onSignedOut,
  cookieBanner,
  onCookieSettings,
  children,
}: {
  cookieBanner: ReactNode;
  onCookieSettings: () => void;
  branding: Branding | null;
  payload: PagePayload;
  siteName: string;
  brand: PageBrand;
  user: SessionUser | null;
  onSignedOut: () => void;
  mainRef: RefObject<HTMLElement | null>;
  loadState: 'pending' | 'error' | 'done';
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        {t('layout.skipToContent')}
      </a>
      {payload.preview ? <PreviewBanner /> : null}
      <Navbar payload={payload} siteName={siteName} brand={brand} user={user} branding={branding} onSignedOut={onSignedOut} />
      <OfflineBanner />
      <main id="main" ref={mainRef} tabIndex={-1} className="main" aria-busy={loadState === 'pending'} data-load-state={loadState}>
        {children}
      </main>
      <Footer siteName={siteName} brand={brand} onCookieSettings={onCookieSettings} />
      {cookieBanner}
      <LoadingOverlay />
    </div>
  );
}

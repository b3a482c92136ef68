// A service worker is registered at /sw.js with scope /. Registered after the page
// has loaded (it never competes with the first paint's requests), only in a secure context
// (HTTPS, or localhost / 127.0.0.1 / [::1] in development and tests). A failure is only noted:
// the site works the same without the worker. A new version takes over by itself (the worker
// skips waiting and claims the pages); the page is never reloaded for it.

export const SERVICE_WORKER_URL = '/sw.js';
export const SERVICE_WORKER_SCOPE = '/';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Where a service worker may be registered: HTTPS, or a loopback host. */
export function canRegisterServiceWorker(location: Pick<Location, 'protocol' | 'hostname'>, secureContext: boolean): boolean {
  if (!secureContext) return false;
  return location.protocol === 'https:' || LOOPBACK_HOSTS.has(location.hostname);
}

export function registerServiceWorker(): void {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator)) return;
  if (!canRegisterServiceWorker(window.location, window.isSecureContext)) return;
  const register = () => {
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: SERVICE_WORKER_SCOPE }).catch((error: unknown) => {
      // Not an error for the visitor (private mode, blocked by policy, offline on first visit).
      console.info('Service worker not registered:', error instanceof Error ? error.message : error);
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

import { IDLE_PREFETCH_TIMEOUT_MS } from '../../shared/constants.ts';
import { matchRoute } from '../../shared/routes.ts';
import { loadPage } from './page-chunks.ts';

type NetworkInformation = { saveData?: boolean; effectiveType?: string };

/** seed-spec §2: no prefetching on a 2g connection or in save-data mode. */
export function prefetchAllowed(
  connection: NetworkInformation | undefined = (navigator as { connection?: NetworkInformation }).connection,
): boolean {
  if (!connection) return true;
  if (connection.saveData) return false;
  return !(connection.effectiveType ?? '').includes('2g');
}

const whenIdle: (callback: () => void) => void =
  typeof window !== 'undefined' && 'requestIdleCallback' in window
    ? (callback) => window.requestIdleCallback(callback, { timeout: IDLE_PREFETCH_TIMEOUT_MS })
    : (callback) => setTimeout(callback, 1);

const prefetched = new Set<string>();

function pageOfLink(link: HTMLAnchorElement) {
  if (link.origin !== window.location.origin || link.target || link.hasAttribute('download')) return null;
  const match = matchRoute(link.pathname);
  return match?.kind === 'route' ? match.route.page : null;
}

/**
 * Watches the links inside `root`: when one becomes visible, its page's chunk is fetched once
 * the browser is idle. Returns a function that stops watching.
 */
export function prefetchVisibleLinks(root: ParentNode): () => void {
  if (!prefetchAllowed() || typeof IntersectionObserver === 'undefined') return () => {};
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      const page = pageOfLink(entry.target as HTMLAnchorElement);
      if (!page || prefetched.has(page)) continue;
      prefetched.add(page);
      whenIdle(() => {
        if (!prefetchAllowed()) return;
        loadPage(page).catch(() => prefetched.delete(page));
      });
    }
  });
  root.querySelectorAll<HTMLAnchorElement>('a[href^="/"]').forEach((link) => observer.observe(link));
  return () => observer.disconnect();
}

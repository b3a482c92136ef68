// Links prefetch their page when visible, once the browser is idle (2000 ms at
// most), never on a 2g connection or in save-data mode. Part of the navigator (navigator.ts):
// what it needs of the entry (the route table's match, the chunk loader) is handed in.
type NetworkInformation = { saveData?: boolean; effectiveType?: string };

/** No prefetching on a 2g connection or in save-data mode. */
export function prefetchAllowed(
  connection: NetworkInformation | undefined = (navigator as { connection?: NetworkInformation }).connection,
): boolean {
  if (!connection) return true;
  if (connection.saveData) return false;
  return !(connection.effectiveType ?? '').includes('2g');
}

const prefetched = new Set<string>();

export type Prefetch = {
  /** The page a same-site path shows, or null. */
  pageOf: (pathname: string) => string | null;
  /** Loads a page's chunk. */
  load: (page: string) => Promise<unknown>;
  /** Longest wait for the browser to be idle (2000 ms, the specification's idle-prefetch timeout). */
  idleTimeoutMs: number;
};

/**
 * Watches the links inside `root`: when one becomes visible, its page's chunk is fetched once
 * the browser is idle. Returns a function that stops watching.
 */
export function prefetchVisibleLinks(root: ParentNode, prefetch: Prefetch): () => void {
  if (!prefetchAllowed() || typeof IntersectionObserver === 'undefined') return () => {};
  const whenIdle: (callback: () => void) => void =
    'requestIdleCallback' in window
      ? (callback) => window.requestIdleCallback(callback, { timeout: prefetch.idleTimeoutMs })
      : (callback) => setTimeout(callback, 1);
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      const link = entry.target as HTMLAnchorElement;
      if (link.origin !== window.location.origin || link.target || link.hasAttribute('download')) continue;
      const page = prefetch.pageOf(link.pathname);
      if (!page || prefetched.has(page)) continue;
      prefetched.add(page);
      whenIdle(() => {
        if (!prefetchAllowed()) return;
        prefetch.load(page).catch(() => prefetched.delete(page));
      });
    }
  });
  root.querySelectorAll<HTMLAnchorElement>('a[href^="/"]').forEach((link) => observer.observe(link));
  return () => observer.disconnect();
}

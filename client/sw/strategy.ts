// The service worker's decisions, as pure functions (unit-tested in test/sw.test.ts; the worker
// in service-worker.ts only carries them out). Private answers are never stored,
// by the service worker either: whatever the URL, a response marked `private` or `no-store` is
// never put into a cache.

/** What the server injects in front of the worker's code (server/sw/routes.ts). */
export type SwConfig = {
  /** The client build's id: part of every cache name, so a new build gets fresh caches. */
  version: string;
  /** Same-origin URLs fetched and stored on install: the shell's hashed assets, messages, images, offline pages. */
  precache: string[];
  /** locale → URL of the offline fallback page in that locale. */
  offline: Record<string, string>;
  /** The locale of unprefixed paths (Spanish, the default). */
  defaultLocale: string;
};

/**
 * - `ignore`: the worker does not answer; the browser goes to the network as if there were no
 *   worker (non-GET, other origins, the API, the CMS, page data, the live stream, the worker script itself).
 * - `network-only`: same-origin sub-resources outside /assets: from the network, never stored;
 *   only a precached copy (the shell's images) answers when the network fails.
 * - `cache-first`: hashed, immutable build assets.
 * - `network-first-page`: page loads: the network, else the stored copy, else the offline page.
 */
export type Strategy = 'ignore' | 'network-only' | 'cache-first' | 'network-first-page';

export type RequestLike = { url: string; method: string; mode: string };

export type HeadersLike = { get(name: string): string | null };

export const CACHE_PREFIX = 'site-sw-';
/** The runtime pages cache keeps at most this many pages (the oldest stored go first). */
export const MAX_CACHED_PAGES = 30;

/** Paths whose answers the worker never touches (and so never stores): the live stream (LIVE_PATH) among them. */
const NEVER_TOUCHED = ['/api', '/cms', '/_data', '/live', '/sw.js'];

function isUnder(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

export function decide(request: RequestLike, swOrigin: string): Strategy {
  if (request.method.toUpperCase() !== 'GET') return 'ignore';
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return 'ignore';
  }
  if (url.origin !== swOrigin) return 'ignore';
  if (NEVER_TOUCHED.some((base) => isUnder(url.pathname, base))) return 'ignore';
  if (url.pathname.startsWith('/assets/')) return 'cache-first';
  if (request.mode === 'navigate') return 'network-first-page';
  return 'network-only';
}

/** The directive names of a Cache-Control header, lower-cased (`private="x"` → `private`). */
function directives(cacheControl: string | null): string[] {
  if (!cacheControl) return [];
  return cacheControl
    .split(',')
    .map((part) => part.split('=')[0]?.trim().toLowerCase() ?? '')
    .filter(Boolean);
}

/** May an answer with these headers be stored? Never when private, no-store, or `Vary: *`. */
export function isStorable(headers: HeadersLike): boolean {
  const cacheControl = directives(headers.get('cache-control'));
  if (cacheControl.includes('no-store') || cacheControl.includes('private')) return false;
  const vary = headers.get('vary');
  if (vary && vary.split(',').some((v) => v.trim() === '*')) return false;
  return true;
}

/** A complete, same-origin, 200 answer that may be stored (no redirects, errors or partials). */
export function isStorableResponse(response: { status: number; type: string; headers: HeadersLike }): boolean {
  return response.status === 200 && response.type === 'basic' && isStorable(response.headers);
}

export function cacheNames(version: string) {
  return { shell: `${CACHE_PREFIX}shell-${version}`, pages: `${CACHE_PREFIX}pages-${version}` };
}

/** On activate: every cache of this worker that is not the current version's (others' caches are left alone). */
export function cachesToDelete(existingNames: readonly string[], currentVersion: string): string[] {
  const current = new Set(Object.values(cacheNames(currentVersion)));
  return existingNames.filter((name) => name.startsWith(CACHE_PREFIX) && !current.has(name));
}

/** The offline page for a path: its locale prefix (`/en/...` → English), else the default locale's. */
export function offlineUrlFor(pathname: string, config: Pick<SwConfig, 'offline' | 'defaultLocale'>): string | null {
  const first = pathname.split('/')[1] ?? '';
  if (Object.hasOwn(config.offline, first)) return config.offline[first] ?? null;
  return config.offline[config.defaultLocale] ?? null;
}

/** How many of the oldest entries to delete so that at most `max` remain. */
export function overflow(count: number, max: number = MAX_CACHED_PAGES): number {
  return Math.max(0, count - max);
}

// The server's one TTL cache (CMS answers, branding, the unread badge, two-factor state):
// entries expire after a TTL but are kept (up to a bound) so that a failing source — the CMS —
// can still be answered from the last good value (stale on failure); callers that want only
// fresh values read `fresh`. And single flight: callers asking for a key being loaded share the
// load. (The render cache and the database's read cache are bounded by bytes: their own.)
import { BoundedMap } from '../../shared/bounded-map.ts';

export type CacheEntry<T> = { value: T; expiresAt: number };

export type TtlCache<T> = {
  /** The entry, fresh or expired; `fresh` tells which. */
  get(key: string): { value: T; fresh: boolean } | undefined;
  set(key: string, value: T, ttlMs: number): void;
  /** Forgets a key (it changed elsewhere). */
  delete(key: string): void;
  /**
   * Makes every entry `match` picks stale (the CMS said it changed): the next read loads it
   * again, and the old value stays only as the fallback of a load that fails. How many.
   */
  expire(match: (key: string, value: T) => boolean): number;
};

const DEFAULT_MAX_ENTRIES = 1000;

export function createTtlCache<T>(options: { now: () => number; maxEntries?: number }): TtlCache<T> {
  const { now } = options;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  // Oldest-written out first (shared/bounded-map.ts).
  const entries = new BoundedMap<string, CacheEntry<T>>(maxEntries);
  return {
    get(key) {
      const entry = entries.get(key);
      return entry && { value: entry.value, fresh: now() < entry.expiresAt };
    },
    set(key, value, ttlMs) {
      entries.set(key, { value, expiresAt: now() + ttlMs });
    },
    delete(key) {
      entries.delete(key);
    },
    expire(match) {
      let expired = 0;
      for (const [key, entry] of entries) {
        if (entry.expiresAt > Number.NEGATIVE_INFINITY && match(key, entry.value)) {
          entry.expiresAt = Number.NEGATIVE_INFINITY;
          expired++;
        }
      }
      return expired;
    },
  };
}

/** Callers asking for the same key while a load is in flight share it (one CMS request). */
export function createSingleFlight<T>(): (key: string, load: () => Promise<T>) => Promise<T> {
  const inFlight = new Map<string, Promise<T>>();
  return (key, load) => {
    let pending = inFlight.get(key);
    if (!pending) {
      pending = load().finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  };
}

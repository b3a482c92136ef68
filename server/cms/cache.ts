// Small in-memory caches for CMS answers: entries expire after a TTL but are kept (up to a
// bound) so a failing CMS can still be answered from the last good value.

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
  const entries = new Map<string, CacheEntry<T>>();
  return {
    get(key) {
      const entry = entries.get(key);
      return entry && { value: entry.value, fresh: now() < entry.expiresAt };
    },
    set(key, value, ttlMs) {
      // Re-inserting moves the key to the end: the Map's order is then oldest-written first.
      entries.delete(key);
      entries.set(key, { value, expiresAt: now() + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
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

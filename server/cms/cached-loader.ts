// The caches in front of the CMS: a fresh value for a while, the last good one when the CMS
// fails, and none at all for drafts.
import { createSingleFlight, createTtlCache } from '../base/cache.ts';
import type { Logger } from '../base/logger.ts';
import { HttpError } from '../http/errors.ts';

export type CacheSettings = { ttlMs: number; failureTtlMs: number; now: () => number; logger: Logger };

export type CachedLoader<T> = ((key: string, load: () => Promise<T>) => Promise<T>) & {
  /** Makes the entries `match` picks stale (a failure's entry has no value); loads under way are not kept. */
  expire(match: (key: string, value: T | undefined) => boolean): void;
};

/**
 * A loader with a cache: fresh values for ttlMs; when a reload fails, the last good value
 * (stale), else a 503. Either way the CMS is left alone for failureTtlMs, so that a CMS that is
 * down neither slows every page by its timeout nor gets asked on every page view.
 * After `expire`, a load that started before it is neither joined nor kept: it may have read
 * the CMS before the change (each expiry starts a new generation of loads).
 */
function staleOnFailure<T>({ ttlMs, failureTtlMs, now, logger }: CacheSettings): CachedLoader<T> {
  const cache = createTtlCache<{ ok: true; value: T } | { ok: false; error: HttpError }>({ now });
  const singleFlight = createSingleFlight<T>();
  let generation = 0;
  const load = async (key: string, load: () => Promise<T>) => {
    const hit = cache.get(key);
    if (hit?.fresh) {
      if (hit.value.ok) return hit.value.value;
      throw hit.value.error;
    }
    const started = generation;
    return singleFlight(`${started}:${key}`, async () => {
      try {
        const value = await load();
        if (started === generation) cache.set(key, { ok: true, value }, ttlMs);
        return value;
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : 'unknown error';
        if (hit?.value.ok) {
          logger.warn({ key }, `CMS content ${key}: ${reason}; serving the last good copy`);
          cache.set(key, hit.value, failureTtlMs);
          return hit.value.value;
        }
        logger.warn({ key }, `CMS content ${key}: ${reason}; nothing cached to serve`);
        const error = new HttpError(503, `Content is unavailable: ${key}`, 'errors.generic', { cause });
        cache.set(key, { ok: false, error }, failureTtlMs);
        throw error;
      }
    });
  };
  return Object.assign(load, {
    expire(match: (key: string, value: T | undefined) => boolean) {
      generation++;
      cache.expire((key, entry) => match(key, entry.ok ? entry.value : undefined));
    },
  });
}

/** No cache at all (drafts): every call loads; a failure is a 503, as with nothing cached. */
function uncached<T>(logger: Logger): CachedLoader<T> {
  const load = async (key: string, load: () => Promise<T>) => {
    try {
      return await load();
    } catch (cause) {
      logger.warn({ key }, `CMS draft ${key}: ${cause instanceof Error ? cause.message : 'unknown error'}`);
      throw new HttpError(503, `Content is unavailable: ${key}`, 'errors.generic', { cause });
    }
  };
  return Object.assign(load, { expire() {} });
}

/** A draft's loader reads every time; anything else is cached (staleOnFailure). */
export function contentLoader<T>(settings: CacheSettings & { draft: boolean }): CachedLoader<T> {
  return settings.draft ? uncached<T>(settings.logger) : staleOnFailure<T>(settings);
}

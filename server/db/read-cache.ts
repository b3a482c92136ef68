// Reads that every request of a page repeats (a dashboard's lists, the admin console's tables),
// kept a moment per key: a page asked again and again costs no query each time (docs/decisions/032).
//
// The rule: a kept read answers only while
//   - it began less than READ_CACHE_MS ago: what another process writes (another instance, a
//     worker of the same machine, the ops CLI) shows within that, as for sessions (decision 011);
//   - no statement of this process has written a table it reads since it began
//     (db/writes.ts): this process's own writes show at once.
// It decides nothing about access: who may see what is decided before the cache is asked, from the
// user as they are now, and the key holds everything the answer depends on (who asks, in which
// role, with which filters). Bounded by the bytes of its values (their JSON), oldest out first;
// concurrent misses of one key share one read. Kept values are frozen: they answer many requests.
import type { Db } from './index.ts';
import type { TableName } from './writes.ts';

/** How long a process answers from what it read (another process's write shows within this). */
export const READ_CACHE_MS = 1_000;
/** What one cache keeps at most, counted as the JSON of its values. */
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

export type ReadCache<T> = {
  /** The value of `key`: kept, or `load`ed (and kept if no write to its tables came meanwhile). */
  get(key: string, load: () => Promise<T>): Promise<T>;
  stats(): { entries: number; bytes: number; hits: number; misses: number };
};

type Entry<T> = { value: T; at: number; bytes: number };

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export function createReadCache<T>(
  db: Pick<Db, 'writes'>,
  options: { tables: readonly TableName[]; ttlMs?: number; maxBytes?: number; now?: () => number },
): ReadCache<T> {
  const ttlMs = options.ttlMs ?? READ_CACHE_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<T>>();
  const loading = new Map<string, Promise<T>>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  // Bumped by every write of this process to one of the tables: a read begun before it is not kept.
  let epoch = 0;
  db.writes.subscribe(options.tables, () => {
    epoch++;
    entries.clear();
    loading.clear();
    bytes = 0;
  });

  function keep(key: string, value: T, at: number) {
    const size = JSON.stringify(value)?.length ?? 0;
    if (size > maxBytes / 4) return;
    const old = entries.get(key);
    if (old) {
      entries.delete(key);
      bytes -= old.bytes;
    }
    while (bytes + size > maxBytes && entries.size > 0) {
      const [oldest, entry] = entries.entries().next().value!;
      entries.delete(oldest);
      bytes -= entry.bytes;
    }
    entries.set(key, { value, at, bytes: size });
    bytes += size;
  }

  async function read(key: string, load: () => Promise<T>): Promise<T> {
    const began = epoch;
    const at = now();
    const value = deepFreeze(await load());
    if (epoch === began) keep(key, value, at);
    return value;
  }

  return {
    get(key, load) {
      const entry = entries.get(key);
      if (entry && now() - entry.at < ttlMs) {
        hits++;
        return Promise.resolve(entry.value);
      }
      misses++;
      const pending = loading.get(key);
      if (pending) return pending;
      const started = read(key, load).finally(() => {
        if (loading.get(key) === started) loading.delete(key);
      });
      loading.set(key, started);
      return started;
    },
    stats: () => ({ entries: entries.size, bytes, hits, misses }),
  };
}

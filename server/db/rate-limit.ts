// Fixed-window counters in the database, so every worker process shares them. A
// window starts with the first attempt a key counts and ends at a time fixed then: later
// attempts, counted or refused, never extend it (docs/decisions/009-login-limits.md).
import { sql } from 'kysely';
import type { Db } from './index.ts';

export type RateLimiter = {
  /** Seconds until the key may try again, or 0 when it is under `max`. Counts nothing. */
  retryAfter(key: string, max: number): Promise<number>;
  /** Counts one attempt for the key. */
  hit(key: string): Promise<void>;
  /**
   * Counts one attempt for the key if its window holds fewer than `max`, in one atomic statement
   * (parallel attempts, in any process, cannot all pass): 0 when counted, else the seconds until
   * the window ends, and nothing is counted. `windowMs` overrides the limiter's window.
   */
  take(key: string, max: number, windowMs?: number): Promise<number>;
  reset(key: string): Promise<void>;
  /** Takes back one hit (an attempt counted up front that turned out not to be a failure). */
  release(key: string): Promise<void>;
};

// Read at every call (not captured once), so that a test can move the clock with a fake Date.
const systemNow = () => Date.now();

export function createRateLimiter(db: Db, windowMs: number, now: () => number = systemNow): RateLimiter {
  const { k } = db;
  let lastPrune = 0;

  async function wait(key: string, max: number, t: number): Promise<number> {
    const row = await k.selectFrom('rate_limits').select(['count', 'reset_at']).where('key', '=', key).executeTakeFirst();
    if (!row || Number(row.reset_at) <= t || row.count < max) return 0;
    return Math.max(1, Math.ceil((Number(row.reset_at) - t) / 1000));
  }
  async function pruneNowAndThen(t: number) {
    if (t - lastPrune > windowMs) {
      lastPrune = t;
      await k.deleteFrom('rate_limits').where('reset_at', '<=', t).execute();
    }
  }
  /**
   * One statement on both engines (INSERT … ON CONFLICT … DO UPDATE … [WHERE] RETURNING): a new
   * window when the old one ended, else one more in it; with `max`, a full window is left as
   * it is and nothing is returned.
   */
  function upsert(key: string, t: number, window: number, max?: number) {
    return k
      .insertInto('rate_limits')
      .values({ key, count: 1, reset_at: t + window })
      .onConflict((oc) => {
        const update = oc.column('key').doUpdateSet({
          count: sql`CASE WHEN rate_limits.reset_at <= ${t} THEN 1 ELSE rate_limits.count + 1 END`,
          reset_at: sql`CASE WHEN rate_limits.reset_at <= ${t} THEN ${t + window} ELSE rate_limits.reset_at END`,
        });
        return max === undefined
          ? update
          : update.where((eb) => eb.or([eb('rate_limits.reset_at', '<=', t), eb('rate_limits.count', '<', max)]));
      })
      .returning('count');
  }

  return {
    retryAfter(key, max) {
      return wait(key, max, now());
    },
    async hit(key) {
      const t = now();
      await upsert(key, t, windowMs).execute();
      await pruneNowAndThen(t);
    },
    async take(key, max, window = windowMs) {
      const t = now();
      const counted = await upsert(key, t, window, max).executeTakeFirst();
      await pruneNowAndThen(t);
      if (counted) return 0;
      // Refused: the window was full. Its end, read after the fact (at least 1 s: a window that
      // ended in between is still answered with a wait rather than 0, which means "counted").
      return Math.max(1, await wait(key, max, t));
    },
    async reset(key) {
      await k.deleteFrom('rate_limits').where('key', '=', key).execute();
    },
    async release(key) {
      await k
        .updateTable('rate_limits')
        .set({ count: sql`CASE WHEN count > 0 THEN count - 1 ELSE 0 END` })
        .where('key', '=', key)
        .execute();
    },
  };
}

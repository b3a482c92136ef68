// Fixed-window counters in the database, so every worker process shares them (issue 7).
import type { Db } from '../db/index.ts';

export type RateLimiter = {
  /** Seconds until the key may try again, or 0 when it is under `max`. */
  retryAfter(key: string, max: number): number;
  /** Counts one failure for the key. */
  hit(key: string): void;
  reset(key: string): void;
  /** Takes back one hit (an attempt counted up front that turned out not to be a failure). */
  release(key: string): void;
};

export function createRateLimiter(db: Db, windowMs: number, now: () => number = Date.now): RateLimiter {
  const read = db.prepare<[string], { count: number; reset_at: number }>('SELECT count, reset_at FROM rate_limits WHERE key = ?');
  const upsert = db.prepare(
    `INSERT INTO rate_limits (key, count, reset_at) VALUES (@key, 1, @resetAt)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN reset_at <= @now THEN 1 ELSE count + 1 END,
       reset_at = CASE WHEN reset_at <= @now THEN @resetAt ELSE reset_at END`,
  );
  const remove = db.prepare('DELETE FROM rate_limits WHERE key = ?');
  const decrement = db.prepare('UPDATE rate_limits SET count = MAX(count - 1, 0) WHERE key = ?');
  const prune = db.prepare('DELETE FROM rate_limits WHERE reset_at <= ?');
  let lastPrune = 0;
  return {
    retryAfter(key, max) {
      const row = read.get(key);
      const t = now();
      if (!row || row.reset_at <= t || row.count < max) return 0;
      return Math.max(1, Math.ceil((row.reset_at - t) / 1000));
    },
    hit(key) {
      const t = now();
      upsert.run({ key, now: t, resetAt: t + windowMs });
      if (t - lastPrune > windowMs) {
        lastPrune = t;
        prune.run(t);
      }
    },
    reset(key) {
      remove.run(key);
    },
    release(key) {
      decrement.run(key);
    },
  };
}

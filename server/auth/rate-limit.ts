// Fixed-window counters in the database, so every worker process shares them (issue 7). A
// window starts with the first attempt a key counts and ends at a time fixed then: later
// attempts, counted or refused, never extend it (docs/decisions/009-login-limits.md).
import type { Db } from '../db/index.ts';

export type RateLimiter = {
  /** Seconds until the key may try again, or 0 when it is under `max`. Counts nothing. */
  retryAfter(key: string, max: number): number;
  /** Counts one attempt for the key. */
  hit(key: string): void;
  /**
   * Counts one attempt for the key if its window holds fewer than `max`, in one atomic statement
   * (parallel attempts, in any process, cannot all pass): 0 when counted, else the seconds until
   * the window ends, and nothing is counted. `windowMs` overrides the limiter's window.
   */
  take(key: string, max: number, windowMs?: number): number;
  reset(key: string): void;
  /** Takes back one hit (an attempt counted up front that turned out not to be a failure). */
  release(key: string): void;
};

// Read at every call (not captured once), so that a test can move the clock with a fake Date.
const systemNow = () => Date.now();

export function createRateLimiter(db: Db, windowMs: number, now: () => number = systemNow): RateLimiter {
  const read = db.prepare<[string], { count: number; reset_at: number }>('SELECT count, reset_at FROM rate_limits WHERE key = ?');
  const upsert = db.prepare(
    `INSERT INTO rate_limits (key, count, reset_at) VALUES (@key, 1, @resetAt)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN reset_at <= @now THEN 1 ELSE count + 1 END,
       reset_at = CASE WHEN reset_at <= @now THEN @resetAt ELSE reset_at END`,
  );
  // The same upsert, but a full window is left untouched: then no row is returned. Plain SQL
  // (INSERT … ON CONFLICT … DO UPDATE … WHERE … RETURNING) that PostgreSQL runs as well.
  const takeOne = db.prepare<{ key: string; now: number; resetAt: number; max: number }, { count: number }>(
    `INSERT INTO rate_limits (key, count, reset_at) VALUES (@key, 1, @resetAt)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN reset_at <= @now THEN 1 ELSE count + 1 END,
       reset_at = CASE WHEN reset_at <= @now THEN @resetAt ELSE reset_at END
     WHERE reset_at <= @now OR count < @max
     RETURNING count`,
  );
  const remove = db.prepare('DELETE FROM rate_limits WHERE key = ?');
  const decrement = db.prepare('UPDATE rate_limits SET count = MAX(count - 1, 0) WHERE key = ?');
  const prune = db.prepare('DELETE FROM rate_limits WHERE reset_at <= ?');
  let lastPrune = 0;

  function wait(key: string, max: number, t: number): number {
    const row = read.get(key);
    if (!row || row.reset_at <= t || row.count < max) return 0;
    return Math.max(1, Math.ceil((row.reset_at - t) / 1000));
  }
  function pruneNowAndThen(t: number) {
    if (t - lastPrune > windowMs) {
      lastPrune = t;
      prune.run(t);
    }
  }

  return {
    retryAfter(key, max) {
      return wait(key, max, now());
    },
    hit(key) {
      const t = now();
      upsert.run({ key, now: t, resetAt: t + windowMs });
      pruneNowAndThen(t);
    },
    take(key, max, window = windowMs) {
      const t = now();
      const counted = takeOne.get({ key, now: t, resetAt: t + window, max });
      pruneNowAndThen(t);
      if (counted) return 0;
      // Refused: the window was full. Its end, read after the fact (at least 1 s: a window that
      // ended in between is still answered with a wait rather than 0, which means "counted").
      return Math.max(1, wait(key, max, t));
    },
    reset(key) {
      remove.run(key);
    },
    release(key) {
      decrement.run(key);
    },
  };
}

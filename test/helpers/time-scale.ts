// How long the tests wait before they give up, in one place. A deadline that holds on a quiet
// machine fails on a loaded one (two cores shared with other runs), so every test and hook
// timeout, every poll's and every helper's deadline is `scaled(ms)`: TEST_TIME_SCALE=3 gives
// them all three times as long, and nothing else changes. Never scale a duration the code under
// test is given (a CMS timeout, a floor, a TTL): those are the behaviour being tested.

/** TEST_TIME_SCALE, a positive number; 1 when unset. */
export const TEST_TIME_SCALE = parseTimeScale(process.env.TEST_TIME_SCALE);

export function parseTimeScale(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`TEST_TIME_SCALE must be a positive number, not ${JSON.stringify(raw)}`);
  return scale;
}

/** A test's deadline of `ms` on a quiet machine, as long as TEST_TIME_SCALE makes it here. */
export function scaled(ms: number): number {
  return Math.round(ms * TEST_TIME_SCALE);
}

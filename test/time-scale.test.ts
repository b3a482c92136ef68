// TEST_TIME_SCALE (test/helpers/time-scale.ts): the one factor of every deadline of the tests.
import { expect, test } from 'vitest';
import { parseTimeScale } from './helpers/time-scale.ts';

test.each([
  [undefined, 1],
  ['', 1],
  ['1', 1],
  ['3', 3],
  ['2.5', 2.5],
])('TEST_TIME_SCALE=%j multiplies every deadline by %d', (raw, scale) => {
  expect(parseTimeScale(raw)).toBe(scale);
});

test.each(['0', '-2', 'slow', 'Infinity'])('TEST_TIME_SCALE=%j is refused, naming the value', (raw) => {
  expect(() => parseTimeScale(raw)).toThrow(`TEST_TIME_SCALE must be a positive number, not "${raw}"`);
});

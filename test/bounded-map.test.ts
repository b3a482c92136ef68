import { expect, test } from 'vitest';
import { BoundedMap } from '../shared/bounded-map.ts';

test('a BoundedMap never holds more than its bound: a new key past it forgets the one set longest ago', () => {
  const map = new BoundedMap<string, number>(3);
  for (const [i, key] of ['a', 'b', 'c', 'd', 'e'].entries()) map.set(key, i);
  expect([...map.keys()]).toEqual(['c', 'd', 'e']);
  expect(map.size).toBe(3);
});

test('setting a key it holds changes the value, forgets nothing else, and makes that key the newest', () => {
  const map = new BoundedMap<string, number>(2);
  map.set('a', 1).set('b', 2).set('a', 3);
  expect([...map.entries()]).toEqual([
    ['b', 2],
    ['a', 3],
  ]);
  map.set('c', 4);
  expect([...map.keys()]).toEqual(['a', 'c']);
});

test('touch makes a key the last to go (least recently used), and says undefined for a key it lacks', () => {
  const map = new BoundedMap<string, number>(2);
  map.set('a', 1).set('b', 2);
  expect(map.touch('a')).toBe(1);
  map.set('c', 3);
  expect([...map.keys()]).toEqual(['a', 'c']);
  expect(map.touch('zz')).toBeUndefined();
  expect(map.has('zz')).toBe(false);
});

test('a bound below one is refused', () => {
  expect(() => new BoundedMap(0)).toThrow(/at least one entry/);
});

// The PDF queue's fairness across accounts (server/pdf/fair-queue.ts, docs/decisions/056): a full
// queue makes room for a newcomer at the expense of whoever holds the most of it, and for an
// administrator at the expense of anyone who is not one.
import { expect, test } from 'vitest';
import { createFairQueue, type Admission } from '../../server/pdf/fair-queue.ts';

type Job = { owner: string; staff: boolean; label: string };
const job = (owner: string, label: string, staff = false): Job => ({ owner, staff, label });
const labelOf = (admission: Admission<Job>) =>
  admission.admitted ? { admitted: true, displaced: admission.displaced?.label ?? null } : admission;

/** The attack's queue: one job being laid out and three waiting, two per account. */
function filledByTwoAccounts() {
  const queue = createFairQueue<Job>({ maxWaiting: 3, perOwner: 2 });
  queue.admit(job('mallory', 'm1'), false);
  queue.take();
  for (const [owner, label] of [
    ['mallory', 'm2'],
    ['trudy', 't1'],
    ['trudy', 't2'],
  ] as const) {
    expect(queue.admit(job(owner, label), true).admitted).toBe(true);
  }
  return queue;
}

test('two accounts holding every place do not keep a third out: the newcomer takes the newest waiting job of the largest share, whose owner is told it is busy', () => {
  const queue = filledByTwoAccounts();
  expect(labelOf(queue.admit(job('carla', 'c1'), true))).toEqual({ admitted: true, displaced: 't2' });
  expect(queue.held('trudy')).toBe(1);
  expect(queue.held('carla')).toBe(1);
  expect(queue.size()).toBe(3);
});

test("the accounts that filled the queue cannot take the newcomer's place back: no one holds two more than they do", () => {
  const queue = filledByTwoAccounts();
  queue.admit(job('carla', 'c1'), true);
  expect(labelOf(queue.admit(job('trudy', 't3'), true))).toEqual({ admitted: false, refusal: 'busy' });
  expect(labelOf(queue.admit(job('mallory', 'm3'), true))).toEqual({ admitted: false, refusal: 'share' });
});

test('a full queue of accounts with one job each refuses one more account: everyone has their part and no more', () => {
  const queue = createFairQueue<Job>({ maxWaiting: 3, perOwner: 2 });
  queue.admit(job('ana', 'a1'), false);
  queue.take();
  for (const owner of ['bea', 'carla', 'dora']) queue.admit(job(owner, `${owner}1`), true);
  expect(labelOf(queue.admit(job('eva', 'e1'), true))).toEqual({ admitted: false, refusal: 'busy' });
});

test("an administrator's report takes the place of a client's in a queue full of clients, the newest of the largest share", () => {
  const queue = createFairQueue<Job>({ maxWaiting: 3, perOwner: 2 });
  queue.admit(job('ana', 'a1'), false);
  queue.take();
  for (const [owner, label] of [
    ['bea', 'b1'],
    ['ana', 'a2'],
    ['carla', 'c1'],
  ] as const) {
    queue.admit(job(owner, label), true);
  }
  expect(labelOf(queue.admit(job('staff', 's1', true), true))).toEqual({ admitted: true, displaced: 'a2' });
});

test("an administrator's report does not take another administrator's place", () => {
  const queue = createFairQueue<Job>({ maxWaiting: 2, perOwner: 2 });
  queue.admit(job('ana', 'a1'), false);
  queue.take();
  queue.admit(job('root', 'r1', true), true);
  queue.admit(job('sara', 's1', true), true);
  expect(labelOf(queue.admit(job('staff', 'x1', true), true))).toEqual({ admitted: false, refusal: 'busy' });
});

test("a client's job never takes an administrator's place", () => {
  const queue = createFairQueue<Job>({ maxWaiting: 2, perOwner: 2 });
  queue.admit(job('root', 'r1', true), false);
  queue.take();
  queue.admit(job('root', 'r2', true), true);
  queue.admit(job('sara', 's1', true), true);
  expect(labelOf(queue.admit(job('ana', 'a1'), true))).toEqual({ admitted: false, refusal: 'busy' });
});

test('the displaced job leaves the queue: the next ones are taken in turn without it', () => {
  const queue = filledByTwoAccounts();
  queue.admit(job('carla', 'c1'), true);
  const order = [queue.take(), queue.take(), queue.take(), queue.take()].map((j) => j?.label);
  expect(order).toEqual(['t1', 'c1', 'm2', undefined]);
});

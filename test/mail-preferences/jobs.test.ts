// The job runner (docs/decisions/044): today's runs are made once the hour has come,
// claimed by one instance, retried with growing pauses after a failure and given up after the
// last attempt (a run that kills its process counts as an attempt); a failed pass never stops the
// runner; a day's digest waits for that day's reminders; a run taken over by another instance
// cannot finish as if it were still its own. Both engines.
import { describe, expect, test } from 'vitest';
import { createLogger } from '../../server/base/logger.ts';
import type { Db } from '../../server/db/index.ts';
import { localTime } from '../../server/calendar/days.ts';
import { createJobs, type JobHandler } from '../../server/jobs/runner.ts';
import { TEST_ENGINE, testDatabase } from '../helpers/app.ts';
import { onTestFinished } from 'vitest';

const HOUR = 7;
const MORNING = Date.parse('2026-12-01T08:00:00Z');

async function database(): Promise<Db> {
  const db = await testDatabase();
  onTestFinished(() => db.close());
  return db;
}

async function runs(db: Db) {
  return (await db.k.selectFrom('jobs').select(['key', 'status', 'attempts', 'run_at', 'last_error']).orderBy('id').execute()).map((r) => ({
    key: r.key,
    status: r.status,
    attempts: Number(r.attempts),
    runAt: Number(r.run_at),
    error: r.last_error,
  }));
}

function runner(db: Db, clock: { now: number }, handlers: { reminders?: JobHandler; digest?: JobHandler }) {
  return createJobs({
    db,
    logger: createLogger('silent'),
    hour: HOUR,
    timeZone: 'UTC',
    now: () => clock.now,
    maxAttempts: 3,
    retryDelayMs: () => 60_000,
    handlers: { reminders: handlers.reminders ?? (async () => {}), digest: handlers.digest ?? (async () => {}) },
  });
}

describe(`the job runner (${TEST_ENGINE})`, () => {
  test('the day in the time zone: 23:30 UTC on 1 December is already 2 December in Madrid', () => {
    expect(localTime(Date.parse('2026-12-01T23:30:00Z'), 'Europe/Madrid')).toEqual({ day: '2026-12-02', hour: 0 });
    expect(localTime(Date.parse('2026-12-01T23:30:00Z'), 'UTC')).toEqual({ day: '2026-12-01', hour: 23 });
  });

  test('the day in the time zone is the moment asked, whatever was asked before (kept per minute only): seconds either side of midnight, back and forth', () => {
    const madrid = (iso: string) => localTime(Date.parse(iso), 'Europe/Madrid');
    expect(madrid('2026-12-01T22:59:59.999Z')).toEqual({ day: '2026-12-01', hour: 23 });
    expect(madrid('2026-12-01T23:00:00.000Z')).toEqual({ day: '2026-12-02', hour: 0 });
    expect(madrid('2026-12-01T22:59:30.000Z')).toEqual({ day: '2026-12-01', hour: 23 });
    expect(madrid('2026-12-01T22:59:00.000Z')).toEqual({ day: '2026-12-01', hour: 23 });
    // Summer time: UTC+2.
    expect(madrid('2026-07-01T21:59:59.000Z')).toEqual({ day: '2026-07-01', hour: 23 });
    expect(madrid('2026-07-01T22:00:00.000Z')).toEqual({ day: '2026-07-02', hour: 0 });
    // Another zone keeps its own.
    expect(localTime(Date.parse('2026-07-01T22:00:00.000Z'), 'America/New_York')).toEqual({ day: '2026-07-01', hour: 18 });
    expect(madrid('2026-07-01T22:00:30.000Z')).toEqual({ day: '2026-07-02', hour: 0 });
  });

  test('before the hour nothing is made; from it, one run of each kind a day, whatever the number of ticks', async () => {
    const db = await database();
    const clock = { now: Date.parse('2026-12-01T06:59:00Z') };
    let digests = 0;
    const jobs = runner(db, clock, { digest: async () => void digests++ });
    await jobs.tick();
    expect(await runs(db)).toEqual([]);
    clock.now = MORNING;
    await Promise.all([jobs.tick(), jobs.tick()]);
    await jobs.tick();
    expect((await runs(db)).map((r) => [r.key, r.status])).toEqual([
      ['reminders:2026-12-01', 'done'],
      ['digest:2026-12-01', 'done'],
    ]);
    expect(digests).toBe(1);
  });

  test('a failed run is tried again after its pause and given up after the last attempt; a failing pass does not stop the runner', async () => {
    const db = await database();
    const clock = { now: MORNING };
    let calls = 0;
    const jobs = runner(db, clock, {
      reminders: async () => {
        calls++;
        throw new Error('the database went away');
      },
    });
    await jobs.tick();
    let [reminders, digest] = await runs(db);
    expect(reminders).toMatchObject({ status: 'pending', attempts: 1, runAt: MORNING + 60_000, error: 'the database went away' });
    // The digest waits for the day's reminders.
    expect(digest).toMatchObject({ status: 'pending', attempts: 0 });
    await jobs.tick(); // not due yet
    expect(calls).toBe(1);
    clock.now += 60_000;
    await jobs.tick();
    clock.now += 60_000;
    await jobs.tick();
    await jobs.tick(); // the next poll: the digest, its day's reminders over
    [reminders, digest] = await runs(db);
    expect(calls).toBe(3);
    expect(reminders).toMatchObject({ status: 'failed', attempts: 3 });
    // Given up: the digest goes on.
    expect(digest).toMatchObject({ status: 'done', attempts: 1 });
  });

  test('a run whose instance died (its claim never renewed) is taken over after the claim timeout, and counted as an attempt', async () => {
    const db = await database();
    const clock = { now: MORNING };
    // The first instance dies in the middle of its run: its claim stays.
    const dying = runner(db, clock, { reminders: () => new Promise<void>(() => {}) });
    void dying.tick();
    await expect.poll(async () => (await runs(db))[0]?.attempts).toBe(1);
    let ran = 0;
    const other = runner(db, clock, { reminders: async () => void ran++ });
    await other.tick();
    expect(ran).toBe(0); // still held
    clock.now += 31 * 60_000;
    await other.tick();
    expect(ran).toBe(1);
    expect((await runs(db))[0]).toMatchObject({ key: 'reminders:2026-12-01', status: 'done', attempts: 2 });
  });

  test('a run taken over by another instance cannot go on as its own: keepAlive throws, and its end changes nothing', async () => {
    const db = await database();
    const clock = { now: MORNING };
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    let outcome: unknown = null;
    const slow = runner(db, clock, {
      reminders: async ({ keepAlive }) => {
        await paused;
        outcome = await keepAlive().then(
          () => 'kept',
          (error: unknown) => (error as Error).message,
        );
      },
    });
    const first = slow.tick();
    await expect.poll(async () => (await runs(db))[0]?.attempts).toBe(1);
    clock.now += 31 * 60_000;
    await runner(db, clock, {}).tick(); // takes it over and finishes it
    release();
    await first;
    expect(outcome).toBe('job reminders:2026-12-01 was taken over by another instance');
    expect((await runs(db))[0]).toMatchObject({ status: 'done', attempts: 2 });
  });
});

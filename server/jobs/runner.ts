// The jobs (docs/decisions/044): what the site does on its own — the daily digest, the
// milestone reminders — is a row of the `jobs` table, named by its key ('digest:2026-11-27'),
// so that every instance can make it and only one runs it: a run is claimed with a conditional
// update (as the outbox's rows are), a claim left by an instance that died is taken over after
// the claim timeout, a failure is tried again after growing pauses and given up (failed) after
// the last attempt. Each handler is safe to run again after a crash half-way (each person's
// digest and reminder is written once, in the transaction that queues its e-mail). A day's digest
// waits for that day's reminders (a reminder chosen "in the digest" is in it). The runner also
// sends what the outbox has due (server/mail/), on a timer of its own.
import type { Logger } from '../base/logger.ts';
import { localTime } from '../calendar/days.ts';
import type { Db } from '../db/index.ts';
import { createReadCache } from '../db/read-cache.ts';

export type JobKind = 'digest' | 'reminders';

/** A run to do: its key (unique), its kind, the local day it is for, when it is due. */
export type JobRun = { key: string; kind: JobKind; day: string; runAt: number };

/**
 * Does a run. `keepAlive()` tells that this instance still works on it (a long run calls it now
 * and then: a claim not renewed for the claim timeout is taken as a dead instance's).
 */
export type JobHandler = (run: { key: string; day: string; keepAlive: () => Promise<void> }) => Promise<void>;

/** How a run ended: done, failed and tried again later, or failed the last attempt (given up). */
export type JobOutcome = 'done' | 'retried' | 'failed';

/** Runs this process ended, by kind and outcome, since it started (the metrics' counter). */
export type JobRunCount = { kind: string; status: JobOutcome; count: number };

export type Jobs = {
  /** Makes today's runs that are due (at or after the hour) and runs every due one. */
  tick(): Promise<void>;
  /** Runs this process ended, by kind and outcome (counted from the start). */
  runsCounted(): JobRunCount[];
  /** The kinds whose latest run's last attempt failed (waiting to be tried again, or given up). */
  lastRunFailed(): Promise<JobKind[]>;
  /** Runs these kinds now for today, whatever the hour (npm run jobs -- --now); then sends the outbox. */
  runNow(kinds: readonly JobKind[]): Promise<void>;
  start(): void;
  stop(): Promise<void>;
};

export type JobsDeps = {
  db: Db;
  logger: Logger;
  handlers: Record<JobKind, JobHandler>;
  /** The hour (0–23) of `timeZone` from which a day's digest and reminders run. */
  hour: number;
  timeZone: string;
  /** Sends what the outbox has due (the mail module's flush): on a timer of its own, never behind a long run. */
  outbox?: () => Promise<void>;
  /** Tells the queued notices an instance left (server/fan-out/): on the same timer as the outbox. */
  fanOut?: () => Promise<void>;
  now?: () => number;
  pollMs?: number;
  claimTimeoutMs?: number;
  maxAttempts?: number;
  retryDelayMs?: (failedAttempts: number) => number;
};

export const JOB_MAX_ATTEMPTS = 5;
const POLL_MS = 30_000;
const FIRST_POLL_MS = 2_000;
/** A digest of every user takes a while; an instance that holds a run longer has died. */
const CLAIM_TIMEOUT_MS = 30 * 60_000;
const MAX_ERROR_CHARS = 500;

/** 1, 2, 4, 8 minutes…, at most an hour. */
export function jobRetryDelayMs(failedAttempts: number): number {
  return Math.min(60_000 * 2 ** (failedAttempts - 1), 3_600_000);
}

export function createJobs(deps: JobsDeps): Jobs {
  const { k } = deps.db;
  const failedReads = createReadCache<JobKind[]>(deps.db, { tables: ['jobs'] });
  const now = deps.now ?? Date.now;
  const counts = new Map<string, JobRunCount>();
  const settings: RunSettings = {
    counted(kind, status) {
      const key = `${kind} ${status}`;
      const count = counts.get(key) ?? { kind, status, count: 0 };
      counts.set(key, { ...count, count: count.count + 1 });
    },
    db: deps.db,
    logger: deps.logger,
    handlers: deps.handlers,
    timeZone: deps.timeZone,
    now,
    claimTimeoutMs: deps.claimTimeoutMs ?? CLAIM_TIMEOUT_MS,
    maxAttempts: deps.maxAttempts ?? JOB_MAX_ATTEMPTS,
    retryDelayMs: deps.retryDelayMs ?? jobRetryDelayMs,
  };
  const KINDS: readonly JobKind[] = ['reminders', 'digest'];

  /** The due runs, oldest first; a digest not before its day's reminders are over. */
  async function runDue(): Promise<void> {
    const due = await claimable(k, now(), settings.claimTimeoutMs)
      .select(['id', 'key'])
      .orderBy('run_at')
      .orderBy('id')
      .limit(20)
      .execute();
    for (const { id, key } of due) {
      if (key.startsWith('digest:')) {
        const reminders = await k
          .selectFrom('jobs')
          .select('id')
          .where('key', '=', `reminders:${key.slice('digest:'.length)}`)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (reminders) continue; // the next poll
      }
      await runJob(settings, Number(id));
    }
  }

  // One pass at a time in this process; a pass that fails does not stop the next.
  let running: Promise<void> = Promise.resolve();
  function once(pass: () => Promise<void>): Promise<void> {
    const next = running.then(pass);
    running = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  async function tick(): Promise<void> {
    await once(async () => {
      await schedule(deps, now(), KINDS, false);
      await runDue();
    });
  }

  const poller = createPoller(deps.logger);
  let outboxPass: Promise<void> = Promise.resolve();
  const outbox = () => (outboxPass = deps.outbox ? deps.outbox() : Promise.resolve());

  return {
    tick,
    runsCounted: () => [...counts.values()],
    // The admin console's home asks on every load: kept a moment (db/read-cache.ts), one query per kind.
    lastRunFailed: () =>
      failedReads.get('last', async () => {
        const latest = await Promise.all(
          KINDS.map((kind) =>
            k.selectFrom('jobs').select(['kind', 'last_error']).where('kind', '=', kind).orderBy('id', 'desc').limit(1).executeTakeFirst(),
          ),
        );
        // A run that ended well clears its error; one that is pending or failed with an error failed its last attempt.
        return KINDS.filter((_, i) => latest[i]?.last_error != null);
      }),
    async runNow(kinds) {
      await once(async () => {
        await schedule(deps, now(), kinds, true);
        await runDue();
      });
      await outbox();
    },
    start() {
      poller.start();
      poller.every(tick, FIRST_POLL_MS, deps.pollMs ?? POLL_MS, 'jobs not looked at');
      if (deps.outbox) poller.every(outbox, FIRST_POLL_MS, deps.pollMs ?? POLL_MS, 'the outbox not worked through');
      if (deps.fanOut) poller.every(deps.fanOut, FIRST_POLL_MS, deps.pollMs ?? POLL_MS, 'the queued notices not told');
    },
    async stop() {
      poller.stop();
      await running;
      await outboxPass.catch(() => {});
    },
  };
}

/** What running one job needs of the runner's settings. */
type RunSettings = Pick<JobsDeps, 'db' | 'logger' | 'handlers' | 'timeZone'> & {
  now: () => number;
  /** Counts a run that ended here. */
  counted: (kind: string, status: JobOutcome) => void;
  claimTimeoutMs: number;
  maxAttempts: number;
  retryDelayMs: (failedAttempts: number) => number;
};

/** Today's runs once the hour has come (inserted once: the key is unique). */
async function schedule(
  { db, timeZone, hour: fromHour }: Pick<JobsDeps, 'db' | 'timeZone' | 'hour'>,
  at: number,
  kinds: readonly JobKind[],
  force: boolean,
): Promise<void> {
  const { day, hour } = localTime(at, timeZone);
  if (!force && hour < fromHour) return;
  const suffix = force ? `:now:${at}` : '';
  await db.k
    .insertInto('jobs')
    .values(
      kinds.map((kind) => ({
        key: `${kind}:${day}${suffix}`,
        kind,
        status: 'pending',
        run_at: at,
        attempts: 0,
        claimed_at: null,
        last_error: null,
        created_at: new Date(at).toISOString(),
        done_at: null,
      })),
    )
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

function claimable(k: Db['k'], at: number, claimTimeoutMs: number) {
  return k
    .selectFrom('jobs')
    .where('status', '=', 'pending')
    .where('run_at', '<=', at)
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', at - claimTimeoutMs)]));
}

/** Runs one job if this instance gets it (the claim counts an attempt: a run that kills the process counts too). */
async function runJob(settings: RunSettings, id: number): Promise<void> {
  const { db, logger, now, claimTimeoutMs, maxAttempts, retryDelayMs } = settings;
  const { k } = db;
  const at = now();
  const taken = await k
    .updateTable('jobs')
    .set((eb) => ({ claimed_at: at, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('run_at', '<=', at)
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', at - claimTimeoutMs)]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) return; // another instance has it
  const job = await k.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const attempts = Number(job.attempts);
  let claim = at;
  /** Renews this instance's claim; throws when another instance took the run over meanwhile. */
  async function keepAlive(): Promise<void> {
    const renewed = now();
    const result = await k
      .updateTable('jobs')
      .set({ claimed_at: renewed })
      .where('id', '=', id)
      .where('claimed_at', '=', claim)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new Error(`job ${job.key} was taken over by another instance`);
    claim = renewed;
  }
  const handler = settings.handlers[job.kind as JobKind];
  const day = job.key.split(':')[1] ?? localTime(at, settings.timeZone).day;
  try {
    if (!handler) throw new Error(`no handler for jobs of kind ${job.kind}`);
    if (attempts > maxAttempts) throw new Error(`given up after ${maxAttempts} attempts`);
    await handler({ key: job.key, day, keepAlive });
    const done = await k
      .updateTable('jobs')
      .set({ status: 'done', claimed_at: null, last_error: null, done_at: new Date(now()).toISOString() })
      .where('id', '=', id)
      .where('claimed_at', '=', claim)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 1) logger.info({ job: job.key }, 'job done');
    else logger.warn({ job: job.key }, 'job finished after another instance took it over');
    settings.counted(job.kind, 'done');
  } catch (error) {
    const giveUp = attempts >= maxAttempts;
    const message = error instanceof Error ? error.message : String(error);
    if (giveUp) logger.error({ err: error, job: job.key, attempts }, `job failed ${attempts} times: given up`);
    else logger.warn({ err: error, job: job.key, attempts }, 'job failed: tried again later');
    settings.counted(job.kind, giveUp ? 'failed' : 'retried');
    await k
      .updateTable('jobs')
      .set({
        status: giveUp ? 'failed' : 'pending',
        claimed_at: null,
        last_error: message.slice(0, MAX_ERROR_CHARS),
        run_at: giveUp ? Number(job.run_at) : now() + retryDelayMs(attempts),
      })
      .where('id', '=', id)
      .where('claimed_at', '=', claim)
      .execute();
  }
}

/** The runner's timers: each task again after it ends, none once stopped. */
function createPoller(logger: Logger) {
  let stopped = false;
  let timers: NodeJS.Timeout[] = [];
  /** Calls `task` after `afterMs`, then every `everyMs` after it ends (logged, never thrown). */
  function every(task: () => Promise<void>, afterMs: number, everyMs: number, what: string) {
    if (stopped) return;
    const timer = setTimeout(() => {
      task()
        .catch((error: unknown) => logger.warn({ err: error }, `${what}: tried again at the next poll`))
        .finally(() => {
          timers = timers.filter((t) => t !== timer);
          every(task, everyMs, everyMs, what);
        });
    }, afterMs);
    timer.unref();
    timers.push(timer);
  }
  return {
    every,
    start() {
      stopped = false;
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers = [];
    },
  };
}

// The jobs (issue 26, docs/decisions/044): what the site does on its own — the daily digest, the
// milestone reminders — is a row of the `jobs` table, named by its key ('digest:2026-11-27'),
// so that every instance can make it and only one runs it: a run is claimed with a conditional
// update (as the outbox's rows are), a claim left by an instance that died is taken over after
// the claim timeout, a failure is tried again after growing pauses and given up (failed) after
// the last attempt. Each handler is safe to run again after a crash half-way (each person's
// digest and reminder is written once, in the transaction that queues its e-mail). The runner's
// poll also sends what the outbox has due (server/mail/): one loop per instance.
import type { Logger } from '../base/logger.ts';
import type { Db } from '../db/index.ts';

export type JobKind = 'digest' | 'reminders';

/** A run to do: its key (unique), its kind, the local day it is for, when it is due. */
export type JobRun = { key: string; kind: JobKind; day: string; runAt: number };

export type JobHandler = (run: { key: string; day: string }) => Promise<void>;

export type Jobs = {
  /** Makes today's runs that are due (at or after the hour) and runs every due one; then the outbox. */
  tick(): Promise<void>;
  /** Runs these kinds now for today, whatever the hour (npm run jobs -- --now); then the outbox. */
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
  /** Sends what the outbox has due (the mail module's flush). */
  afterEach?: () => Promise<void>;
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

/** The day (YYYY-MM-DD) and hour of a moment in a time zone. */
export function localTime(at: number, timeZone: string): { day: string; hour: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(at))
      .map((part) => [part.type, part.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

export function createJobs(deps: JobsDeps): Jobs {
  const { k } = deps.db;
  const now = deps.now ?? Date.now;
  const claimTimeoutMs = deps.claimTimeoutMs ?? CLAIM_TIMEOUT_MS;
  const maxAttempts = deps.maxAttempts ?? JOB_MAX_ATTEMPTS;
  const retryDelayMs = deps.retryDelayMs ?? jobRetryDelayMs;
  const KINDS: readonly JobKind[] = ['reminders', 'digest'];

  /** Today's runs once the hour has come (inserted once: the key is unique). */
  async function schedule(at: number, kinds: readonly JobKind[], force: boolean): Promise<void> {
    const { day, hour } = localTime(at, deps.timeZone);
    if (!force && hour < deps.hour) return;
    const suffix = force ? `:now:${at}` : '';
    await k
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

  const claimable = (at: number) =>
    k
      .selectFrom('jobs')
      .where('status', '=', 'pending')
      .where('run_at', '<=', at)
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', at - claimTimeoutMs)]));

  /** Runs one job if this instance gets it. */
  async function run(id: number): Promise<void> {
    const at = now();
    const taken = await k
      .updateTable('jobs')
      .set({ claimed_at: at })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('run_at', '<=', at)
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', at - claimTimeoutMs)]))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) return; // another instance has it
    const job = await k.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const handler = deps.handlers[job.kind as JobKind];
    const day = job.key.split(':')[1] ?? localTime(at, deps.timeZone).day;
    try {
      if (!handler) throw new Error(`no handler for jobs of kind ${job.kind}`);
      await handler({ key: job.key, day });
      await k
        .updateTable('jobs')
        .set({
          status: 'done',
          attempts: Number(job.attempts) + 1,
          claimed_at: null,
          last_error: null,
          done_at: new Date(now()).toISOString(),
        })
        .where('id', '=', id)
        .where('claimed_at', '=', at)
        .execute();
      deps.logger.info({ job: job.key }, 'job done');
    } catch (error) {
      const attempts = Number(job.attempts) + 1;
      const giveUp = attempts >= maxAttempts;
      const message = error instanceof Error ? error.message : String(error);
      if (giveUp) deps.logger.error({ err: error, job: job.key, attempts }, `job failed ${attempts} times: given up`);
      else deps.logger.warn({ err: error, job: job.key, attempts }, 'job failed: tried again later');
      await k
        .updateTable('jobs')
        .set({
          status: giveUp ? 'failed' : 'pending',
          attempts,
          claimed_at: null,
          last_error: message.slice(0, MAX_ERROR_CHARS),
          run_at: giveUp ? Number(job.run_at) : now() + retryDelayMs(attempts),
        })
        .where('id', '=', id)
        .where('claimed_at', '=', at)
        .execute();
    }
  }

  async function runDue(): Promise<void> {
    const due = await claimable(now()).select('id').orderBy('run_at').orderBy('id').limit(20).execute();
    for (const { id } of due) await run(Number(id));
  }

  async function afterEach(): Promise<void> {
    if (deps.afterEach) await deps.afterEach();
  }

  // One pass at a time in this process.
  let running: Promise<void> | null = null;
  function once(pass: () => Promise<void>): Promise<void> {
    const previous = running ?? Promise.resolve();
    const next = previous.then(pass);
    running = next.finally(() => {
      if (running === next) running = null;
    });
    return next;
  }

  async function tick(): Promise<void> {
    await once(async () => {
      await schedule(now(), KINDS, false);
      await runDue();
      await afterEach();
    });
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  function poll(afterMs: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      tick()
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'jobs not looked at: tried again at the next poll'))
        .finally(() => poll(deps.pollMs ?? POLL_MS));
    }, afterMs);
    timer.unref();
  }

  return {
    tick,
    async runNow(kinds) {
      await once(async () => {
        await schedule(now(), kinds, true);
        await runDue();
        await afterEach();
      });
    },
    start() {
      stopped = false;
      poll(FIRST_POLL_MS);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}

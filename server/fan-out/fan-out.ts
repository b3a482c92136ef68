// A project's notices, told to their audience off the request path (docs/decisions/052). The
// request that made a change queues its notice as a row of `notice_fanouts` (one insert) and
// answers; this instance then tells it a batch of FAN_OUT_BATCH people at a time — who they are
// read then, from who may see the project then (server/projects/audience.ts) — and yields to the
// event loop between batches, so that no stretch of it holds the process, whatever the size of
// the company. Each batch's notifications and e-mails are written in the transaction that moves
// the row's cursor past them: a batch is told once, even when the instance dies half-way (the
// row is claimed, and taken over after the claim timeout, as the jobs are). A batch that fails
// is tried again after growing pauses, given up (failed, logged) after the last attempt. A held
// notice withdrawn takes its row with it: what it had not told yet is never told.
import type { ExpressionBuilder, Selectable } from 'kysely';
import { canonicalIdentity } from '../../shared/identity.ts';
import type { Locale } from '../../shared/locales.ts';
import { projectPath } from '../../shared/projects.ts';
import { localePath } from '../../shared/routes.ts';
import type { Logger } from '../base/logger.ts';
import type { Db } from '../db/index.ts';
import { inChunks } from '../db/lists.ts';
import type { NoticeFanOutsTable, Schema } from '../db/schema.ts';
import type { Tell } from '../live/topics.ts';
import type { Mail, QueuedMail } from '../mail/index.ts';
import { notificationRows, type Notifications } from '../notifications/notifications.ts';
import { audiencePage, EVERYONE, type Audience } from '../projects/audience.ts';
import type { NoticeContent, ProjectNoticeInput } from '../projects/notices.ts';

/** People told per batch: a page of the audience, whose notifications and e-mails are written in one transaction. */
export const FAN_OUT_BATCH = 100;
/**
 * E-mails rendered between two turns of the event loop: 0.15–0.4 ms each when warm, several times
 * that for the first ones a process renders (measured on the 2-core machine: a first batch of 100
 * held it ~200 ms).
 */
export const RENDER_SLICE = 25;
/** Rows looked at per pass. */
const ROWS_PER_PASS = 20;
/** A batch renews the claim; an instance silent this long has died. */
const CLAIM_TIMEOUT_MS = 5 * 60_000;
export const FAN_OUT_MAX_ATTEMPTS = 5;
const MAX_ERROR_CHARS = 500;

/** 1, 2, 4, 8 minutes…, at most an hour (as the outbox and the jobs). */
function retryDelayMs(failedAttempts: number): number {
  return Math.min(60_000 * 2 ** (failedAttempts - 1), 3_600_000);
}

/** Lets the event loop run what waits (requests, timers) before the next batch. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export type FanOutDeps = {
  db: Db;
  logger: Logger;
  mail: Pick<Mail, 'projectMails' | 'queueIn' | 'kick'>;
  notifications: Pick<Notifications, 'told'>;
  /** The live streams of these users (server/live/). */
  tell: Tell;
  now?: () => number;
  /** Tell in the background (default); false: `notify` and `touch` answer once told (tests). */
  background?: boolean;
  batch?: number;
  /** What a fan-out awaits between batches (tests hold it); by default the event loop's next turn. */
  breathe?: () => Promise<void>;
  maxAttempts?: number;
};

export type FanOut = {
  /** Queues a notice for its audience (never its actor). */
  notify(notice: ProjectNoticeInput): Promise<void>;
  /** Queues the live pages of everyone who sees the project (the actor's other tabs too). */
  touch(projectId: number): Promise<void>;
  /** Takes back the queued notices of `ref` (a milestone's toggles): how many. */
  withdraw(ref: string): Promise<number>;
  /** One pass over what is due (the job runner's poll; a notice queued meanwhile gets one more). */
  flush(): Promise<void>;
  stop(): Promise<void>;
};

/** The row changed under this instance (withdrawn, or taken over): nothing of this batch is written. */
class RowGone extends Error {}

type Row = Selectable<NoticeFanOutsTable>;

/** Held by nobody, or by an instance that has not renewed its claim within the timeout. */
function claimable(at: number) {
  return (eb: ExpressionBuilder<Schema, 'notice_fanouts'>) =>
    eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', at - CLAIM_TIMEOUT_MS)]);
}

/** What the steps of a fan-out share: its dependencies with their defaults, and whether it stops. */
type Context = {
  deps: FanOutDeps;
  k: Db['k'];
  logger: Logger;
  now: () => number;
  batch: number;
  breathe: () => Promise<void>;
  maxAttempts: number;
  /** Set by stop(): no pass starts, and a running one leaves its row after the batch it writes. */
  stopped: boolean;
};

/** Tells one batch of the row: the new claim, or null when the row is told to everyone (deleted). */
async function tellBatch(ctx: Context, row: Row, claim: number): Promise<number | null> {
  const project = await ctx.k.selectFrom('projects').select(['id', 'company_id']).where('id', '=', row.project_id).executeTakeFirst();
  const notice = row.notice === null ? null : (JSON.parse(row.notice) as NoticeContent);
  const audience = JSON.parse(row.audience) as Audience;
  const except = notice ? canonicalIdentity(notice.actor.userName) : null;
  const cursor = { group: Number(row.audience_group), after: row.audience_after };
  const page = project ? await audiencePage(ctx.k, project, audience, cursor, ctx.batch, except) : { names: [], next: null };
  const mails = new Map<string, QueuedMail>();
  const path = (role: string, locale: Locale) => projectPath(role, row.project_id, locale) ?? localePath('index', locale);
  if (notice) {
    for (const recipients of inChunks(page.names, RENDER_SLICE)) {
      for (const [name, mail] of await ctx.deps.mail.projectMails({ ...notice, recipients, path })) mails.set(name, mail);
      await ctx.breathe();
    }
  } else await ctx.breathe();
  const renewed = ctx.now();
  await ctx.k.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('notice_fanouts')
      .set({ audience_group: page.next?.group ?? cursor.group, audience_after: page.next?.after ?? cursor.after, claimed_at: renewed })
      .where('id', '=', row.id)
      .where('claimed_at', '=', claim)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new RowGone();
    if (notice) {
      for (const rows of inChunks(notificationRows({ ...notice, recipients: page.names }, row.created_at))) {
        if (rows.length > 0) await trx.insertInto('notifications').values(rows).execute();
      }
      await ctx.deps.mail.queueIn(trx, [...mails.values()]);
    }
    if (!page.next) await trx.deleteFrom('notice_fanouts').where('id', '=', row.id).execute();
  });
  if (page.names.length > 0) {
    if (notice) {
      await ctx.deps.notifications.told(page.names);
      if (mails.size > 0) ctx.deps.mail.kick();
    } else await ctx.deps.tell(page.names, { what: 'project', projectId: row.project_id });
  }
  row.audience_group = page.next?.group ?? cursor.group;
  row.audience_after = page.next?.after ?? cursor.after;
  return page.next ? renewed : null;
}

/** Claims the row and tells it to the end, a batch at a time; false when another instance has it. */
async function run(ctx: Context, id: number): Promise<boolean> {
  const at = ctx.now();
  const taken = await ctx.k
    .updateTable('notice_fanouts')
    .set({ claimed_at: at })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('run_at', '<=', at)
    .where(claimable(at))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) return false;
  const row = await ctx.k.selectFrom('notice_fanouts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return false;
  let claim: number | null = at;
  const about = { fanOut: id, projectId: row.project_id, kind: row.notice ? (JSON.parse(row.notice) as NoticeContent).kind : 'touch' };
  try {
    while (claim !== null) {
      claim = await tellBatch(ctx, row, claim);
      if (claim === null) break;
      // Shutting down: the rest is left to the next instance (or this one restarted), at once.
      if (ctx.stopped) {
        await ctx.k
          .updateTable('notice_fanouts')
          .set({ claimed_at: null })
          .where('id', '=', row.id)
          .where('claimed_at', '=', claim)
          .execute();
        return true;
      }
      await ctx.breathe();
    }
  } catch (error) {
    if (error instanceof RowGone) {
      ctx.logger.info(about, 'notice not told further: withdrawn, or taken over by another instance');
      return true;
    }
    await failed(ctx, row, claim ?? at, about, error);
  }
  return true;
}

async function failed(ctx: Context, row: Row, claim: number, about: object, error: unknown): Promise<void> {
  const attempts = Number(row.attempts) + 1;
  const giveUp = attempts >= ctx.maxAttempts;
  if (giveUp)
    ctx.logger.error({ err: error, ...about, attempts }, `notice failed ${attempts} times: given up, its other recipients not told`);
  else ctx.logger.warn({ err: error, ...about, attempts }, 'notice not told to everyone yet: tried again later');
  const message = error instanceof Error ? error.message : String(error);
  await ctx.k
    .updateTable('notice_fanouts')
    .set({
      status: giveUp ? 'failed' : 'pending',
      attempts,
      claimed_at: null,
      last_error: message.slice(0, MAX_ERROR_CHARS),
      run_at: giveUp ? Number(row.run_at) : ctx.now() + retryDelayMs(attempts),
    })
    .where('id', '=', row.id)
    .where('claimed_at', '=', claim)
    .execute()
    .catch((e: unknown) => ctx.logger.error({ err: e, ...about }, 'notice failure not recorded: its claim times out instead'));
}

async function pass(ctx: Context): Promise<void> {
  try {
    for (;;) {
      const at = ctx.now();
      const due = await ctx.k
        .selectFrom('notice_fanouts')
        .select('id')
        .where('status', '=', 'pending')
        .where('run_at', '<=', at)
        .where(claimable(at))
        .orderBy('id')
        .limit(ROWS_PER_PASS)
        .execute();
      let ran = 0;
      for (const { id } of due) if (!ctx.stopped && (await run(ctx, Number(id)))) ran++;
      if (ctx.stopped || due.length < ROWS_PER_PASS || ran === 0) return;
    }
  } catch (error) {
    ctx.logger.warn({ err: error }, 'queued notices not looked at: tried again at the next poll');
  }
}

export function createFanOut(deps: FanOutDeps): FanOut {
  const { db } = deps;
  const { k } = db;
  const ctx: Context = {
    deps,
    k,
    logger: deps.logger,
    now: deps.now ?? Date.now,
    batch: deps.batch ?? FAN_OUT_BATCH,
    breathe: deps.breathe ?? nextTurn,
    maxAttempts: deps.maxAttempts ?? FAN_OUT_MAX_ATTEMPTS,
    stopped: false,
  };
  const { now } = ctx;

  // One pass at a time; a flush asked for during a pass gets one more pass after it (rows
  // queued meanwhile are seen), and any number of such asks share that pass.
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  function flush(): Promise<void> {
    if (ctx.stopped) return Promise.resolve();
    if (next) return next;
    if (running) {
      next = running.then(() => {
        next = null;
        return flush();
      });
      return next;
    }
    running = pass(ctx).finally(() => {
      running = null;
    });
    return running;
  }

  async function queue(projectId: number, notice: NoticeContent | null, audience: Audience, ref: string | null): Promise<void> {
    const at = now();
    await k
      .insertInto('notice_fanouts')
      .values({
        project_id: projectId,
        notice: notice ? JSON.stringify(notice) : null,
        audience: JSON.stringify(audience),
        ref,
        audience_group: 0,
        audience_after: '',
        status: 'pending',
        run_at: at,
        attempts: 0,
        claimed_at: null,
        last_error: null,
        created_at: new Date(at).toISOString(),
      })
      .execute();
    if (deps.background === false) await flush();
    else void flush();
  }

  return {
    notify: ({ audience, ...notice }) => queue(notice.project.id, notice, audience, notice.hold?.ref ?? null),
    touch: (projectId) => queue(projectId, null, EVERYONE, null),
    async withdraw(ref) {
      const result = await k.deleteFrom('notice_fanouts').where('ref', '=', ref).where('status', '=', 'pending').executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    flush,
    async stop() {
      const busy = next ?? running;
      ctx.stopped = true;
      await busy;
    },
  };
}

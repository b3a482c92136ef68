// The audit log's store: the `audit_log` table (migration 7). Recording never makes the action
// fail: a failure to record is logged and the action goes on. Admins read it newest first,
// filtered by action, user (as actor or target) and days; entries older than
// AUDIT_RETENTION_DAYS are deleted at start and once a day, a batch at a time.
import type { AuditFilter, AuditPage, AuditRecord } from '../../shared/audit.ts';
import { PAGE_NUMBER_MAX, pageSizeOf } from '../../shared/paging.ts';
import { EMAIL_MAX_LENGTH } from '../../shared/validation.ts';
import type { Db } from '../db/index.ts';
import { createReadCache } from '../db/read-cache.ts';
import type { Logger } from '../base/logger.ts';
import { createdAtRange } from '../calendar/days.ts';
import { AUDIT_ACTIONS, type StoredAuditEntry } from './types.ts';

/** How long an entry is kept. */
export const AUDIT_RETENTION_DAYS = 365;
/** Rows one pruning statement deletes at most: a long backlog never holds a long lock. */
export const PRUNE_BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Longest user name, identifier or address kept (what is longer is cut): an address's limit, the longest of them. */
const NAME_CHARS = EMAIL_MAX_LENGTH;
const IP_CHARS = 64;
const DETAIL_VALUE_CHARS = 300;
const DETAIL_KEYS = 20;
/** A detail is for small facts: a key that names a secret (as the logger judges it) is dropped, whatever the caller meant. */
const SECRET_KEY = /pass(word|wd)?$|token$|^jwt$|secret|^cookie$|^authorization$/i;

export type AuditLog = {
  /** Records one entry; never makes the action fail (a failure to record is logged). What the site records is an `AuditEntry` (types.ts). */
  record(entry: StoredAuditEntry): Promise<void>;
  /** A page of entries, newest first. */
  list(filter: AuditFilter, page: { page: number; pageSize: number }): Promise<AuditPage>;
  /** Deletes the entries older than the retention, in batches; how many went. */
  prune(): Promise<number>;
  /** Prunes now and then once a day (each instance; a second pruner finds nothing to do). */
  startPruning(): void;
  /** Stops the daily pruning and waits for a pruning under way. */
  stop(): Promise<void>;
};

function cut(value: string | null | undefined, chars: number): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  return text.length > chars ? text.slice(0, chars) : text;
}

/** The detail as stored: at most DETAIL_KEYS plain values, strings cut, secrets dropped; null when empty. */
function detailText(detail: StoredAuditEntry['detail']): string | null {
  if (!detail) return null;
  const kept: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(detail).slice(0, DETAIL_KEYS)) {
    if (SECRET_KEY.test(key)) continue;
    if (typeof value === 'string') kept[key] = cut(value, DETAIL_VALUE_CHARS);
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) kept[key] = value;
  }
  return Object.keys(kept).length > 0 ? JSON.stringify(kept) : null;
}

function detailOf(text: string | null): AuditRecord['detail'] {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as AuditRecord['detail']) : {};
  } catch {
    return {};
  }
}

export function createAuditLog(deps: { db: Db; logger: Logger; now?: () => number }): AuditLog {
  const { db, logger } = deps;
  const { k } = db;
  const now = deps.now ?? Date.now;
  const actions: readonly string[] = AUDIT_ACTIONS;
  let timer: NodeJS.Timeout | undefined;
  let pruning: Promise<number> | null = null;
  let stopped = false;
  // The admin console shows the newest page on every load (db/read-cache.ts); each entry recorded here forgets it.
  const pages = createReadCache<AuditPage>(db, { tables: ['audit_log'] });

  async function pruneAll(): Promise<number> {
    const cutoff = new Date(now() - AUDIT_RETENTION_DAYS * DAY_MS).toISOString();
    let deleted = 0;
    while (!stopped) {
      const result = await k
        .deleteFrom('audit_log')
        .where('id', 'in', (eb) => eb.selectFrom('audit_log').select('id').where('at', '<', cutoff).orderBy('at').limit(PRUNE_BATCH))
        .executeTakeFirst();
      const batch = Number(result.numDeletedRows);
      deleted += batch;
      if (batch < PRUNE_BATCH) break;
      // Requests go first between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return deleted;
  }

  function prune(): Promise<number> {
    // One pruning at a time in a process: a second call waits for the one under way.
    pruning ??= pruneAll().finally(() => (pruning = null));
    return pruning;
  }

  async function readPage(filter: AuditFilter, page: number, pageSize: number): Promise<AuditPage> {
    const { since, before } = createdAtRange(filter);
    let query = k.selectFrom('audit_log');
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.actor) query = query.where('actor', '=', filter.actor);
    if (filter.target) query = query.where('target', '=', filter.target);
    if (filter.user) {
      const user = filter.user;
      query = query.where((eb) => eb.or([eb('actor', '=', user), eb('target', '=', user)]));
    }
    if (since) query = query.where('at', '>=', since);
    if (before) query = query.where('at', '<', before);
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      items: rows.map((row) => ({
        id: Number(row.id),
        at: row.at,
        action: row.action,
        actor: row.actor,
        target: row.target,
        ip: row.ip,
        detail: detailOf(row.detail),
      })),
      total: Number(count.n),
      page,
      pageSize,
    };
  }

  function pruneInBackground() {
    prune().then(
      (deleted) => {
        if (deleted > 0) logger.info({ deleted, days: AUDIT_RETENTION_DAYS }, 'old audit entries deleted');
      },
      (error: unknown) => logger.error({ err: error }, 'audit entries could not be pruned'),
    );
  }

  return {
    async record(entry) {
      try {
        if (!actions.includes(entry.action)) throw new Error(`Unknown audit action ${JSON.stringify(entry.action)}`);
        await k
          .insertInto('audit_log')
          .values({
            at: new Date(now()).toISOString(),
            action: entry.action,
            actor: cut(entry.actor, NAME_CHARS),
            target: cut(entry.target, NAME_CHARS),
            ip: cut(entry.ip, IP_CHARS),
            detail: detailText(entry.detail),
          })
          .execute();
      } catch (error) {
        // The action itself succeeded (or failed) on its own: only the record of it is lost.
        logger.error({ err: error, action: entry.action, actor: entry.actor, target: entry.target }, 'audit entry not recorded');
      }
    },

    async list(filter, asked) {
      const page = Math.min(PAGE_NUMBER_MAX, Math.max(1, Math.floor(asked.page)));
      const pageSize = pageSizeOf('audit', asked.pageSize);
      return pages.get(JSON.stringify([filter, page, pageSize]), () => readPage(filter, page, pageSize));
    },

    prune,

    startPruning() {
      if (timer || stopped) return;
      pruneInBackground();
      timer = setInterval(pruneInBackground, DAY_MS);
      timer.unref();
    },

    async stop() {
      stopped = true;
      clearInterval(timer);
      await pruning?.catch(() => 0);
    },
  };
}

/** What the console and the API read of the log. */
export type AuditReader = Pick<AuditLog, 'list'>;

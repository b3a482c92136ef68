// The notification centre's store (docs/decisions/042): every notice of a project is
// written once per recipient when it is queued for e-mail (the same recipients: never the one who
// did it), a batch of recipients at a time by the fan-out (server/fan-out/, docs/decisions/052),
// read a page at a time, counted for the bell, marked read one by one, all at once, or
// by opening the project's page. A held notice (a milestone's toggles) is withdrawn with its
// e-mail. Rows older than NOTIFICATIONS_KEEP_DAYS go once a day. Every change tells the user's
// live streams (server/live/), on every instance.
import { sql, type Insertable } from 'kysely';
import { canonicalIdentity } from '../../shared/identity.ts';
import {
  NOTIFICATION_EXCERPT_MAX,
  NOTIFICATION_KINDS,
  NOTIFICATIONS_BADGE_MAX,
  type Notification,
  type NotificationKind,
  type NotificationPage,
} from '../../shared/notifications.ts';
import { cursorPageOf, pageSizeOf } from '../../shared/paging.ts';
import { createTtlCache } from '../base/cache.ts';
import type { Logger } from '../base/logger.ts';
import type { Db } from '../db/index.ts';
import type { NotificationRow, NotificationsTable } from '../db/schema.ts';
import type { Tell } from '../live/topics.ts';
import { excerptOf } from '../mail/templates.ts';
import type { AddressedNotice, NoticeContent } from '../projects/notices.ts';

/** How long the bell's count is kept by this process (a change told by the live topics forgets it at once). */
export const UNREAD_NOTIFICATIONS_CACHE_MS = 30_000;
const CACHE_MAX = 10_000;
const DAY_MS = 86_400_000;

export type Notifications = {
  /** Rows of these users were written (notificationRows in a transaction, committed): tell them. */
  told(userNames: Iterable<string>): Promise<void>;
  /** Takes back the unread notifications of a held notice (`ref`): how many. */
  withdraw(ref: string): Promise<number>;
  /** A page of the user's notifications, newest first, older than `before`. */
  page(userName: string, options?: { before?: number | null | undefined; pageSize?: number | undefined }): Promise<NotificationPage>;
  /** The bell's count (up to NOTIFICATIONS_BADGE_MAX). */
  unread(userName: string): Promise<number>;
  /** The user's notifications after `afterId`, oldest first, at most `limit` (a stream's reconnection). */
  since(userName: string, afterId: number, limit: number): Promise<Notification[]>;
  /** Marks these of the user's notifications read (all of them: 'all'): how many were unread. */
  markRead(userName: string, which: readonly number[] | 'all'): Promise<number>;
  /** The user opened the project's page: its notifications are read. */
  markProjectRead(userName: string, projectId: number): Promise<void>;
  /** Another instance told that the user's notifications changed: count them again. */
  forget(userName: string): void;
  /** Deletes the notifications older than `keepDays`: how many. */
  prune(keepDays: number): Promise<number>;
  /** Prunes a minute after start (not during it), then once a day, as the audit log does. */
  startPruning(keepDays: number): void;
  stop(): void;
};

/** The first pruning after start: the start itself is not slowed by it. */
const FIRST_PRUNE_MS = 60_000;

type Detail = Pick<Notification, 'from' | 'to' | 'milestone' | 'excerpt' | 'document' | 'due' | 'expert' | 'version'>;

function detailOf(notice: NoticeContent): Detail {
  const detail: Detail = {};
  if (notice.from) detail.from = notice.from;
  if (notice.to) detail.to = notice.to;
  if (notice.milestone) detail.milestone = notice.milestone;
  if (notice.document) detail.document = notice.document;
  if (notice.due) detail.due = notice.due;
  if (notice.expert) detail.expert = notice.expert;
  if (notice.version) detail.version = notice.version;
  // One line of the message, cut between words like the e-mail's quote.
  if (notice.excerpt) detail.excerpt = excerptOf(notice.excerpt.replace(/\s+/g, ' '), NOTIFICATION_EXCERPT_MAX);
  return detail;
}

const KINDS: ReadonlySet<string> = new Set(NOTIFICATION_KINDS);

export function notificationOf(row: NotificationRow): Notification {
  let detail: Detail;
  try {
    detail = row.detail ? (JSON.parse(row.detail) as Detail) : {};
  } catch {
    detail = {};
  }
  return {
    id: Number(row.id),
    kind: (KINDS.has(row.kind) ? row.kind : 'state_changed') as NotificationKind,
    project: row.project_id === null ? null : { id: Number(row.project_id), title: row.project_title },
    actor: row.actor,
    ...detail,
    createdAt: row.created_at,
    read: row.read_at !== null,
  };
}

/** The rows of a notice: one per recipient but its actor, written in the caller's transaction (a fan-out's batch, a reminder). */
export function notificationRows(notice: AddressedNotice, at: string): Insertable<NotificationsTable>[] {
  const actor = canonicalIdentity(notice.actor.userName);
  const recipients = [...new Set(notice.recipients.map(canonicalIdentity))].filter((name) => name !== actor);
  const detail = detailOf(notice);
  return recipients.map((userName) => ({
    user_name: userName,
    kind: notice.kind,
    project_id: notice.project.id,
    project_title: notice.project.title,
    actor: notice.actor.name,
    actor_user: actor,
    detail: Object.keys(detail).length > 0 ? JSON.stringify(detail) : null,
    ref: notice.hold?.ref ?? null,
    created_at: at,
    read_at: null,
  }));
}

export function createNotifications(deps: { db: Db; tell: Tell; logger: Logger; now?: () => number }): Notifications {
  const { k } = deps.db;
  const now = deps.now ?? Date.now;
  const counts = createTtlCache<number>({ now, maxEntries: CACHE_MAX });
  const iso = () => new Date(now()).toISOString();

  /** The users' counts changed: forget them here and tell their streams everywhere. */
  async function changed(userNames: Iterable<string>): Promise<void> {
    const names = [...new Set([...userNames].map(canonicalIdentity))];
    for (const name of names) counts.delete(name);
    if (names.length > 0) await deps.tell(names, { what: 'notifications' });
  }

  async function unread(userName: string): Promise<number> {
    const key = canonicalIdentity(userName);
    const cached = counts.get(key);
    if (cached?.fresh) return cached.value;
    const capped = k
      .selectFrom('notifications')
      .select(sql<number>`1`.as('one'))
      .where('user_name', '=', key)
      .where('read_at', 'is', null)
      .limit(NOTIFICATIONS_BADGE_MAX);
    const row = await k
      .selectFrom(capped.as('u'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const value = Number(row.n);
    counts.set(key, value, UNREAD_NOTIFICATIONS_CACHE_MS);
    return value;
  }

  let timers: NodeJS.Timeout[] = [];
  const pruneInBackground = (keepDays: number) => () =>
    void api
      .prune(keepDays)
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'old notifications not deleted: tried again tomorrow'));

  const api: Notifications = {
    told: changed,

    async withdraw(ref) {
      const rows = await k.deleteFrom('notifications').where('ref', '=', ref).where('read_at', 'is', null).returning('user_name').execute();
      await changed(rows.map((r) => r.user_name));
      return rows.length;
    },

    async page(userName, options = {}) {
      const key = canonicalIdentity(userName);
      const pageSize = pageSizeOf('notifications', options.pageSize);
      const before = options.before ?? null;
      let rows = k.selectFrom('notifications').selectAll().where('user_name', '=', key);
      if (before !== null) rows = rows.where('id', '<', before);
      const [found, total, unreadCount] = await Promise.all([
        rows
          .orderBy('id', 'desc')
          .limit(pageSize + 1)
          .execute(),
        k
          .selectFrom('notifications')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_name', '=', key)
          .executeTakeFirstOrThrow(),
        unread(key),
      ]);
      return { ...cursorPageOf(found.map(notificationOf), { pageSize, before, total: Number(total.n) }), unread: unreadCount };
    },

    unread,

    async since(userName, afterId, limit) {
      const rows = await k
        .selectFrom('notifications')
        .selectAll()
        .where('user_name', '=', canonicalIdentity(userName))
        .where('id', '>', afterId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(notificationOf).reverse();
    },

    async markRead(userName, which) {
      const key = canonicalIdentity(userName);
      if (which !== 'all' && which.length === 0) return 0;
      let update = k.updateTable('notifications').set({ read_at: iso() }).where('user_name', '=', key).where('read_at', 'is', null);
      if (which !== 'all') update = update.where('id', 'in', [...which]);
      const result = await update.executeTakeFirst();
      const marked = Number(result.numUpdatedRows);
      if (marked > 0) await changed([key]);
      return marked;
    },

    async markProjectRead(userName, projectId) {
      const key = canonicalIdentity(userName);
      // Most pages are opened with nothing unread: the cached count answers without a write.
      if ((await unread(key)) === 0) return;
      const result = await k
        .updateTable('notifications')
        .set({ read_at: iso() })
        .where('user_name', '=', key)
        .where('project_id', '=', projectId)
        .where('read_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) await changed([key]);
    },

    forget(userName) {
      counts.delete(canonicalIdentity(userName));
    },

    async prune(keepDays) {
      const cutoff = new Date(now() - keepDays * DAY_MS).toISOString();
      const result = await k.deleteFrom('notifications').where('created_at', '<', cutoff).executeTakeFirst();
      const pruned = Number(result.numDeletedRows);
      if (pruned > 0) deps.logger.info({ pruned, keepDays }, 'old notifications deleted');
      counts.expire(() => true);
      return pruned;
    },

    startPruning(keepDays) {
      if (timers.length > 0) return;
      const prune = pruneInBackground(keepDays);
      timers = [setTimeout(prune, FIRST_PRUNE_MS), setInterval(prune, DAY_MS)];
      for (const timer of timers) timer.unref();
    },

    stop() {
      for (const timer of timers) clearTimeout(timer);
      timers = [];
    },
  };
  return api;
}

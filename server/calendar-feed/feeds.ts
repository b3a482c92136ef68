// The private calendar feed (docs/decisions/043): one secret address per user,
// `/calendar/<id>-<mac>.ics`, that a calendar app reads without signing in. The MAC signs the
// row's id, its user, its generation and its moment with a key of the site's (from SESSION_SECRET; with
// SESSION_SECRETS the address shown is made with the newest and one made with any is read, docs/decisions/051): nothing
// secret is stored, the profile can show the address again, and a renewal (the next generation)
// or a stop (the row deleted) kills the old one at once, on every instance. What it lists is
// decided at each read from the user as they are now (a disabled user's feed is a 404, a project
// they no longer see is gone): the milestones with a due day and the deadlines of their projects,
// from CALENDAR_PAST_DAYS ago on, at most CALENDAR_EVENTS_MAX, in their language. An address read
// more than CALENDAR_READS_PER_HOUR times in its hour is not refused: whoever read it that often
// (anyone who has the address) must not lock its owner's calendar app out, so the calendar made
// when the reads ran out is served again until the hour ends, without reading the projects
// (docs/decisions/057). Who the user is, and whether the address still opens, is still read.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { CALENDAR_EVENTS_MAX, CALENDAR_PAST_DAYS, type CalendarEntries, type CalendarFeedView } from '../../shared/calendar.ts';
import type { SessionUser } from '../../shared/user.ts';
import { canonicalIdentity } from '../../shared/identity.ts';
import { isLocale, defaultLocale, type Locale } from '../../shared/locales.ts';
import { projectPath } from '../../shared/projects.ts';
import type { Translate } from '../../shared/translate.ts';
import type { Logger } from '../base/logger.ts';
import type { Db } from '../db/index.ts';
import type { RateLimiter } from '../db/rate-limit.ts';
import { createTtlCache } from '../base/cache.ts';
import { renderCalendar, type CalendarEvent } from './ics.ts';

/** Who reads (the projects service's Actor). */
type Actor = Pick<SessionUser, 'userName' | 'role' | 'name' | 'lastName'>;

const FILE = /^([1-9][0-9]{0,9})-([A-Za-z0-9_-]{43})\.ics$/;
const DAY_MS = 86_400_000;
/**
 * Addresses whose reads ran out this hour, whose last calendar this process keeps to serve again
 * (each at most CALENDAR_EVENTS_MAX events, some 200 kB): an address past its limit is one an
 * outsider reads again and again, and a few are all there will be.
 */
const DRAINED_KEPT = 50;

export type CalendarFeeds = {
  /** The user's address, or null when they have none. */
  view(userName: string): Promise<CalendarFeedView | null>;
  /** Makes the user's address (the one they have, if any). */
  create(userName: string): Promise<CalendarFeedView>;
  /** A new address: the old one stops working. */
  renew(userName: string): Promise<CalendarFeedView>;
  /** No address any more. */
  stop(userName: string): Promise<void>;
  /** GET CALENDAR_PATH. */
  handler: RequestHandler;
};

/** An address that is not (or no longer) a calendar's. */
function notFound(res: Response) {
  res
    .status(404)
    .set('Cache-Control', 'no-store')
    .type('text/plain')
    .send('No such calendar: the address may have been renewed or stopped');
}

/** The calendar, shown by calendar apps, never stored or indexed. */
function send(res: Response, body: string) {
  res
    .status(200)
    .set({
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="calendar.ics"',
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex',
    })
    .send(body);
}

export function createCalendarFeeds(deps: {
  db: Db;
  /** The keys the addresses are signed with (derived from SESSION_SECRETS), newest first: the first makes them, any reads them. */
  keys: readonly Buffer[];
  origin: string;
  siteName: string;
  projects: { calendar(actor: Actor, from: string, limit: number): Promise<CalendarEntries> };
  translator: (locale: Locale) => Translate;
  limiter: RateLimiter;
  /** Reads of one address per hour; past them, the calendar made then is served again until the hour ends. */
  readsPerHour: number;
  logger: Logger;
  now?: () => Date;
}): CalendarFeeds {
  const { k } = deps.db;
  const now = deps.now ?? (() => new Date());
  // The calendar of each address past its reads, kept until its hour ends (a renewal is another address).
  const drained = createTtlCache<string>({ now: () => now().getTime(), maxEntries: DRAINED_KEPT });

  type Row = { id: number; user_name: string; generation: number; created_at: string };
  // The row's moment is signed too: an address made again after a stop is never the old one,
  // even where the database gives the new row the old row's id (SQLite reuses the highest).
  const mac = (row: Row, key = deps.keys[0]!) =>
    createHmac('sha256', key)
      .update(`calendar v1:${row.id}:${canonicalIdentity(row.user_name)}:${row.generation}:${row.created_at}`)
      .digest('base64url');

  const viewOf = (row: Row): CalendarFeedView => ({
    url: `${deps.origin}/calendar/${row.id}-${mac(row)}.ics`,
    createdAt: row.created_at,
  });

  async function rowOf(userName: string) {
    return k.selectFrom('calendar_feeds').selectAll().where('user_name', '=', canonicalIdentity(userName)).executeTakeFirst();
  }

  async function handler(req: Request, res: Response): Promise<void> {
    const match = FILE.exec(String(req.params.file ?? ''));
    if (!match) return notFound(res);
    const id = Number(match[1]);
    const row = await k.selectFrom('calendar_feeds').selectAll().where('id', '=', id).executeTakeFirst();
    const given = Buffer.from(match[2]!);
    const signed = (of: Row, key: Buffer) => {
      const expected = Buffer.from(mac(of, key));
      return expected.length === given.length && timingSafeEqual(expected, given);
    };
    if (!row || !deps.keys.some((key) => signed(row, key))) return notFound(res);
    // Counted per address: a new one (renewed, or made again after a stop) has reads of its own.
    const address = `${row.id}:${row.generation}:${row.created_at}`;
    const wait = await deps.limiter.take(`calendar-feed:${address}`, deps.readsPerHour, 3_600_000);
    // The user as they are now: a disabled or deleted user's address shows nothing.
    const [user, locale] = await Promise.all([
      k
        .selectFrom('users')
        .select(['user_name', 'role', 'name', 'last_name', 'disabled'])
        .where('user_name', '=', row.user_name)
        .executeTakeFirst(),
      k.selectFrom('user_locales').select('locale').where('user_name', '=', row.user_name).executeTakeFirst(),
    ]);
    if (!user || user.disabled) return notFound(res);
    if (wait > 0) {
      const kept = drained.get(address);
      if (kept?.fresh) return send(res, kept.value);
    }
    const language: Locale = locale && isLocale(locale.locale) ? locale.locale : defaultLocale;
    const t = deps.translator(language);
    const actor: Actor = { userName: user.user_name, role: user.role as Actor['role'], name: user.name, lastName: user.last_name };
    const today = now();
    const from = new Date(today.getTime() - CALENDAR_PAST_DAYS * DAY_MS).toISOString().slice(0, 10);
    const entries = await deps.projects.calendar(actor, from, CALENDAR_EVENTS_MAX);
    const link = (projectId: number) => {
      const path = projectPath(actor.role, projectId, language);
      return path ? `${deps.origin}${path}` : undefined;
    };
    const host = new URL(deps.origin).hostname;
    const events: (CalendarEvent & { order: string })[] = [
      ...entries.milestones.map((m) => ({
        order: `${m.day}:m:${m.id}`,
        uid: `milestone-${m.id}@${host}`,
        day: m.day,
        summary: t(m.done ? 'calendar.milestoneDone' : 'calendar.milestone', { title: m.title, project: m.project.title }),
        description: t('calendar.milestoneDescription', { project: m.project.title, site: deps.siteName }),
        ...(link(m.project.id) ? { url: link(m.project.id)! } : {}),
      })),
      ...entries.deadlines.map((d) => ({
        order: `${d.day}:d:${d.project.id}`,
        uid: `deadline-${d.project.id}@${host}`,
        day: d.day,
        summary: t('calendar.deadline', { project: d.project.title }),
        description: t('calendar.deadlineDescription', { project: d.project.title, site: deps.siteName }),
        ...(link(d.project.id) ? { url: link(d.project.id)! } : {}),
      })),
    ];
    events.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    const body = renderCalendar({
      productId: `-//${deps.siteName}//Projects calendar//${language.toUpperCase()}`,
      name: t('calendar.name', { site: deps.siteName }),
      events: events.slice(0, CALENDAR_EVENTS_MAX),
      stamp: today,
    });
    // Past its reads, this one is served again until the hour ends (made once per process and hour).
    if (wait > 0) drained.set(address, body, wait * 1000);
    send(res, body);
  }

  return {
    async view(userName) {
      const row = await rowOf(userName);
      return row ? viewOf(row) : null;
    },
    async create(userName) {
      const existing = await rowOf(userName);
      if (existing) return viewOf(existing);
      await k
        .insertInto('calendar_feeds')
        .values({ user_name: canonicalIdentity(userName), generation: 1, created_at: now().toISOString() })
        .onConflict((oc) => oc.column('user_name').doNothing())
        .execute();
      return viewOf((await rowOf(userName))!);
    },
    async renew(userName) {
      const result = await k
        .updateTable('calendar_feeds')
        .set((eb) => ({ generation: eb('generation', '+', 1), created_at: now().toISOString() }))
        .where('user_name', '=', canonicalIdentity(userName))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return this.create(userName);
      return viewOf((await rowOf(userName))!);
    },
    async stop(userName) {
      await k.deleteFrom('calendar_feeds').where('user_name', '=', canonicalIdentity(userName)).execute();
    },
    handler: (req, res, next) => {
      handler(req, res).catch(next);
    },
  };
}

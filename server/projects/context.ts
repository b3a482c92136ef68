// What the parts of the projects service share (service.ts composes them): the dependencies the
// composition gives (database, audit, limits, clock, the notice, touch, withdrawal and live callbacks),
// the caches of one service, the errors every rule answers with, and the checks of every change:
// the per-user limits and the project's lock.
import type { Membership } from '../../shared/company.ts';
import { canonicalIdentity } from '../../shared/identity.ts';
import type { ProjectPage } from '../../shared/projects.ts';
import { COMPANY_TIME_ZONE } from '../../shared/time-zone.ts';
import type { Audit } from '../audit/types.ts';
import { createTtlCache, type TtlCache } from '../base/cache.ts';
import { addDays, localTime } from '../calendar/days.ts';
import { preparedQueries } from '../db/compiled.ts';
import type { Db } from '../db/index.ts';
import type { RateLimiter } from '../db/rate-limit.ts';
import { createReadCache, type ReadCache } from '../db/read-cache.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import type { Tell } from '../live/topics.ts';
import type { Notify, Touch, Withdraw } from './notices.ts';

/** How often one user may act, counted in the database (every instance shares the counts). */
export type ProjectLimits = {
  limiter: RateLimiter;
  briefsPerHour: number;
  messagesPerMinute: number;
  uploadsPerMinute: number;
  /** Milestones added, done or reopened. */
  milestoneChangesPerMinute: number;
  /** Moves of the state machine (a proposal sent included). */
  stateChangesPerHour: number;
};

export type ProjectDeps = {
  db: Db;
  /** Where an answer to a proposal is recorded with the version, who, when and from which address. */
  audit?: Audit;
  notify: Notify;
  /** Takes back a held notice (a milestone done, then undone within the collapse window). */
  withdraw?: Withdraw;
  /** The open pages of everyone who sees a project read it again (queued like a notice); default: nobody's. */
  touch?: Touch;
  /** Tells the live streams of these few users that the project changed (server/live/); default: nobody. */
  live?: Tell;
  now?: () => Date;
  /**
   * JOBS_TIME_ZONE: the zone whose days "due soon" counts in, as the reminders do (default the
   * company's, Madrid's): a milestone is due soon from the same day its reminder is sent.
   */
  timeZone?: string;
  limits?: ProjectLimits;
  /** PROJECT_MILESTONE_COLLAPSE_MINUTES: one user's toggles of one milestone within it are one history line and one notice. */
  milestoneCollapseMs?: number;
};

/** What the limits count, per user: the window, and the error past it. */
export type Admitted = 'brief' | 'message' | 'document' | 'milestone' | 'state';

/** The default of PROJECT_MILESTONE_COLLAPSE_MINUTES. */
export const MILESTONE_COLLAPSE_MS = 10 * 60_000;

/** How long a user's unread count is kept by this process, and for how many users at most. */
export const UNREAD_CACHE_MS = 3_000;
const UNREAD_CACHE_MAX = 10_000;
/** Milestones due within this many days count as waiting for the experts. */
const DUE_SOON_DAYS = 7;

/** One projects service's shared state: what its parts read and keep. */
export type ProjectContext = {
  /** As the composition gave them: audit, notify, touch, withdraw, live and limits are read when used. */
  deps: ProjectDeps;
  db: Db;
  k: Db['k'];
  /** The compiled queries of the lists, by their shape (db/compiled.ts). */
  prepared: ReturnType<typeof preparedQueries>;
  now: () => Date;
  /** The last day that counts as due soon: today where the company counts days (localTime keeps it per minute), plus DUE_SOON_DAYS. */
  dueLimit: () => string;
  /** Every dashboard asks its lists on every load: kept a moment per caller and query (db/read-cache.ts). */
  lists: ReadCache<ProjectPage>;
  /**
   * …and how the caller stands in their company (a list's shape: what waits for a manager is not
   * what waits for a member). Kept the same moment; access itself is read with each project.
   */
  memberships: ReadCache<Membership | null>;
  /**
   * The navbar's badge is asked on every signed-in page: kept a few seconds per user in this
   * process; what the user reads or writes here forgets it at once, a message from someone else
   * (or another instance) shows within UNREAD_CACHE_MS.
   */
  unreadCache: TtlCache<number>;
};

export function projectContext(deps: ProjectDeps): ProjectContext {
  const { db } = deps;
  const now = () => (deps.now ?? (() => new Date()))();
  const timeZone = deps.timeZone ?? COMPANY_TIME_ZONE;
  return {
    deps,
    db,
    k: db.k,
    prepared: preparedQueries(),
    now,
    dueLimit: () => addDays(localTime(now().getTime(), timeZone).day, DUE_SOON_DAYS),
    lists: createReadCache<ProjectPage>(db, {
      tables: ['projects', 'project_experts', 'project_milestones', 'project_messages', 'project_reads', 'company_members'],
    }),
    memberships: createReadCache<Membership | null>(db, { tables: ['company_members', 'companies'] }),
    unreadCache: createTtlCache<number>({ now: Date.now, maxEntries: UNREAD_CACHE_MAX }),
  };
}

export function conflict(): ApiError {
  return new ApiError(409, 'conflict', 'The project changed meanwhile: reload it and try again');
}

export function readOnly(): ApiError {
  return new ApiError(409, 'read_only', 'The project is closed, declined or cancelled: it is read-only');
}

export function forbidden(message: string): ApiError {
  return new ApiError(403, 'forbidden', message);
}

/** Counts one action of the user against its limit; a 429 with Retry-After past it (nothing is done). */
export async function admit(ctx: ProjectContext, kind: Admitted, userName: string) {
  const limits = ctx.deps.limits;
  if (!limits) return;
  const rules: Record<Admitted, [max: number, windowMs: number, code: string, what: string]> = {
    brief: [limits.briefsPerHour, 3_600_000, 'too_many_briefs', 'Too many briefs'],
    message: [limits.messagesPerMinute, 60_000, 'too_many_messages', 'Too many messages'],
    document: [limits.uploadsPerMinute, 60_000, 'too_many_uploads', 'Too many uploads'],
    milestone: [limits.milestoneChangesPerMinute, 60_000, 'too_many_milestone_changes', 'Too many milestone changes'],
    state: [limits.stateChangesPerHour, 3_600_000, 'too_many_state_changes', 'Too many changes of state'],
  };
  const [max, windowMs, code, what] = rules[kind];
  const wait = await limits.limiter.take(`project-${kind}:${canonicalIdentity(userName)}`, max, windowMs);
  if (wait > 0) throw new TooManyAttemptsError(wait, code, what);
}

/**
 * Serialises the changes of one project that count its rows against a rule (experts,
 * milestones): PostgreSQL locks the project's row until the transaction ends; SQLite has one
 * writer at a time already.
 */
export async function lockProject(ctx: ProjectContext, trx: Db['k'], id: number) {
  if (ctx.db.engine === 'postgres') await trx.selectFrom('projects').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
}

// The projects of the private area (docs/specification.md §17): briefs, proposals, the state machine,
// experts, milestones and the history — every rule enforced here, for the API and the pages
// alike, with the caller as they are now. Conversation and documents: conversation.ts.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import {
  allowedActions,
  isWritable,
  OPEN_STATES,
  ownsProjects,
  PROJECT_LIMITS,
  PROPOSAL_VERSIONS_SHOWN,
  TRANSITIONS,
  type Proposal,
  type Milestone,
  type PersonRef,
  type Practice,
  type Project,
  type ProjectAction,
  type ProjectEvent,
  type ProjectPage,
  type EventPage,
  type ProjectState,
  type ProjectSummary,
  type Standing,
  UNREAD_BADGE_MAX,
} from '../../shared/projects.ts';
import type { CalendarEntries } from '../../shared/calendar.ts';
import { canonicalIdentity } from '../../shared/identity.ts';
import { containsPattern, cursorPageOf, pageSizeOf } from '../../shared/paging.ts';
import { hasRole } from '../../shared/user.ts';
import type { Db } from '../db/index.ts';
import { preparedQueries, type Slot } from '../db/compiled.ts';
import { createReadCache } from '../db/read-cache.ts';
import type { ProjectRow, Schema } from '../db/schema.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import type { RateLimiter } from '../db/rate-limit.ts';
import type { Audit } from '../audit/types.ts';
import { displayName, projectFor, type Actor } from './access.ts';
import { recordProjectEvent } from './events.ts';
import type { Notify, ProjectNoticeInput, ProjectNoticeKind, Withdraw } from './notices.ts';
import type { Tell } from '../live/topics.ts';
import type { Brief, ProposalInput } from './schemas.ts';
import { createTtlCache } from '../base/cache.ts';
import { ensureMembership, memberNames } from '../companies/companies.ts';
import type { Membership } from '../../shared/company.ts';
import { addDays, localTime } from '../calendar/days.ts';
import { COMPANY_TIME_ZONE } from '../../shared/time-zone.ts';

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
  /** Tells the live streams of these users that the project changed (server/live/); default: nobody. */
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
type Admitted = 'brief' | 'message' | 'document' | 'milestone' | 'state';

/** The default of PROJECT_MILESTONE_COLLAPSE_MINUTES. */
export const MILESTONE_COLLAPSE_MS = 10 * 60_000;

/** A project as its documents show it: see `snapshot`. */
export type ProjectSnapshot = {
  project: Project;
  /** The newest events, oldest first. */
  events: ProjectEvent[];
  /** Events and documents in all; `events` and `project` hold only the newest of them. */
  eventCount: number;
  documentCount: number;
  /** Display names of the people the history names, by user name (canonical: shared/identity.ts). */
  names: Record<string, string>;
};

export type ListQuery = {
  status?: ProjectState | undefined;
  practice?: Practice | undefined;
  q?: string | undefined;
  /** Only the projects where something waits for the caller. */
  waiting?: boolean | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
};

/** How long a user's unread count is kept by this process, and for how many users at most. */
export const UNREAD_CACHE_MS = 3_000;
const UNREAD_CACHE_MAX = 10_000;
/** Milestones due within this many days count as waiting for the experts. */
const DUE_SOON_DAYS = 7;

type Eb = ExpressionBuilder<Schema & { p: Schema['projects'] }, 'p'>;

function conflict(): ApiError {
  return new ApiError(409, 'conflict', 'The project changed meanwhile: reload it and try again');
}

function readOnly(): ApiError {
  return new ApiError(409, 'read_only', 'The project is closed, declined or cancelled: it is read-only');
}

function forbidden(message: string): ApiError {
  return new ApiError(403, 'forbidden', message);
}

export function createProjects(deps: ProjectDeps) {
  const { db } = deps;
  const prepared = preparedQueries();
  // Every dashboard asks its lists on every load: kept a moment per caller and query (db/read-cache.ts).
  const lists = createReadCache<ProjectPage>(db, {
    tables: ['projects', 'project_experts', 'project_milestones', 'project_messages', 'project_reads', 'company_members'],
  });
  // …and how the caller stands in their company (a list's shape: what waits for a manager is not
  // what waits for a member). Kept the same moment; access itself is read with each project.
  const memberships = createReadCache<Membership | null>(db, { tables: ['company_members', 'companies'] });
  const { k } = db;
  const now = () => (deps.now ?? (() => new Date()))();

  const unreadOf = (eb: Eb, userName: string) =>
    eb
      .selectFrom('project_messages as m')
      .select((e) => e.fn.countAll<number>().as('n'))
      .whereRef('m.project_id', '=', 'p.id')
      .where('m.author', '!=', userName)
      .where(
        'm.id',
        '>',
        eb.fn.coalesce(
          eb
            .selectFrom('project_reads as r')
            .select('r.last_read_id')
            .whereRef('r.project_id', '=', 'p.id')
            .where('r.user_name', '=', userName),
          sql<number>`0`,
        ),
      );
  const expertCountOf = (eb: Eb) =>
    eb
      .selectFrom('project_experts as x')
      .select((e) => e.fn.countAll<number>().as('n'))
      .whereRef('x.project_id', '=', 'p.id');
  const timeZone = deps.timeZone ?? COMPANY_TIME_ZONE;
  /** The last day that counts as due soon: today where the company counts days (localTime keeps it per minute), plus DUE_SOON_DAYS. */
  const dueLimit = () => addDays(localTime(now().getTime(), timeZone).day, DUE_SOON_DAYS);
  const dueSoonOf = (eb: Eb, limit: string = dueLimit()) => {
    return eb
      .selectFrom('project_milestones as ms')
      .select((e) => e.fn.countAll<number>().as('n'))
      .whereRef('ms.project_id', '=', 'p.id')
      .where('ms.done_at', 'is', null)
      .where('ms.due_date', '<=', limit);
  };

  const companyNameOf = (eb: Eb) => eb.selectFrom('companies as c').select('c.name').whereRef('c.id', '=', 'p.company_id');

  /** The projects the actor may see, as a query to filter further; null: none at all. */
  function visible(
    actor: Actor,
    userName: string = actor.userName,
  ): SelectQueryBuilder<Schema & { p: Schema['projects'] }, 'p', object> | null {
    const base = k.selectFrom('projects as p');
    if (hasRole(actor, 'ADMIN')) return base;
    // A client's or organisation's: their company's, whoever of it submitted them.
    if (ownsProjects(actor)) {
      return base.where('p.company_id', 'in', k.selectFrom('company_members').select('company_id').where('user_name', '=', userName));
    }
    if (hasRole(actor, 'CONS')) {
      return base.where('p.id', 'in', k.selectFrom('project_experts').select('project_id').where('user_name', '=', userName));
    }
    return null;
  }

  /** How the actor stands to the projects of a list (their company's role, read for this request). */
  async function standingIn(actor: Actor): Promise<Standing> {
    if (hasRole(actor, 'ADMIN')) return 'admin';
    if (!ownsProjects(actor)) return 'expert';
    const membership = await memberships.get(`${canonicalIdentity(actor.userName)}\u0000${actor.role}`, () => ensureMembership(db, actor));
    return membership?.role ?? 'member';
  }

  /** What waits for the caller in a project, first in the dashboards. */
  function waitingFor(
    standing: Standing,
    state: ProjectState,
    counts: { unread: number; experts: number; dueSoon: number },
  ): string | null {
    if (standing === 'manager' && state === 'proposal') return 'answer_proposal';
    if (standing === 'manager' && state === 'delivered') return 'confirm_delivery';
    if (standing === 'admin' && state === 'brief') return 'send_proposal';
    if (standing === 'admin' && state === 'declined') return 'revise_proposal';
    if (standing === 'admin' && state === 'active' && counts.experts === 0) return 'assign_expert';
    if (standing === 'expert' && state === 'active' && counts.dueSoon > 0) return 'milestones_due';
    if (counts.unread > 0) return 'unread_messages';
    return null;
  }

  function summaryOf(
    row: ProjectRow & { company_name: string | null },
    standing: Standing,
    counts: { unread: number; experts: number; dueSoon: number },
  ): ProjectSummary {
    return {
      id: row.id,
      title: row.title,
      practice: row.practice as Practice,
      state: row.state as ProjectState,
      owner: { userName: row.owner, name: row.owner_name, role: row.owner_role },
      company: row.company_id !== null && row.company_name !== null ? { id: row.company_id, name: row.company_name } : null,
      organisation: row.organisation,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      unread: counts.unread,
      waiting: waitingFor(standing, row.state as ProjectState, counts),
    };
  }

  /** What a list's queries take: the caller's name, the filters, the page. */
  function listValues(actor: Actor, standing: Standing, query: ListQuery, page: { limit: number; offset: number }) {
    const text = query.q?.trim();
    return {
      text,
      values: {
        userName: actor.userName,
        status: query.status ?? '',
        practice: query.practice ?? '',
        like: text ? containsPattern(text) : '',
        dueLimit: dueLimit(),
        ...page,
      },
      // The query's shape: which role sees which projects, and which filters are on.
      shape: [standing, actor.role, query.status ? 's' : '', query.practice ? 'p' : '', text ? 'q' : '', query.waiting ? 'w' : ''].join(
        '|',
      ),
    };
  }

  /** The projects the actor sees, filtered by the query (as a query to select from). */
  function filtered(actor: Actor, standing: Standing, query: ListQuery, text: string | undefined, slot: Slot) {
    const userName = slot<string>('userName');
    let q = visible(actor, userName)!;
    if (query.status) q = q.where('p.state', '=', slot<string>('status') as ProjectState);
    if (query.practice) q = q.where('p.practice', '=', slot<string>('practice'));
    if (text) {
      const like = slot<string>('like');
      q = q.where((eb) =>
        eb.or(
          (['p.title', 'p.organisation', 'p.owner_name', 'p.owner', 'p.procurement_ref'] as const).map((column) =>
            eb(sql`lower(${sql.ref(column)})`, 'like', sql`${like} ESCAPE '\\'`),
          ),
        ),
      );
    }
    if (query.waiting) {
      const limit = slot<string>('dueLimit');
      q = q.where((eb) => {
        const unread = eb(unreadOf(eb, userName), '>', 0);
        if (standing === 'manager') return eb.or([eb('p.state', 'in', ['proposal', 'delivered']), unread]);
        if (standing === 'member') return unread;
        if (standing === 'admin') {
          return eb.or([eb('p.state', 'in', ['brief', 'declined']), eb.and([eb('p.state', '=', 'active'), eb(expertCountOf(eb), '=', 0)])]);
        }
        return eb.or([eb.and([eb('p.state', '=', 'active'), eb(dueSoonOf(eb, limit), '>', 0)]), unread]);
      });
    }
    return q;
  }

  /**
   * The rows of one page, newest first. The page is found first, by ids in the order of the index
   * on (created_at, id): what is counted per project (unread messages, experts, milestones due)
   * is counted for the page's rows only, however deep the page and however many projects.
   */
  async function pageOf(
    actor: Actor,
    standing: Standing,
    query: ListQuery,
    page: { limit: number; offset: number },
  ): Promise<ProjectSummary[]> {
    const { text, values, shape } = listValues(actor, standing, query, page);
    const rows = await prepared(db, `list:${shape}`, values, (slot) => {
      const userName = slot<string>('userName');
      const limit = slot<string>('dueLimit');
      const ids = filtered(actor, standing, query, text, slot)
        .select('p.id')
        .orderBy('p.created_at', 'desc')
        .orderBy('p.id', 'desc')
        .limit(slot<number>('limit'))
        .offset(slot<number>('offset'));
      return k
        .selectFrom('projects as p')
        .where('p.id', 'in', ids)
        .selectAll('p')
        .select((eb) => [
          unreadOf(eb, userName).as('unread'),
          expertCountOf(eb).as('experts'),
          dueSoonOf(eb, limit).as('due_soon'),
          companyNameOf(eb).as('company_name'),
        ])
        .orderBy('p.created_at', 'desc')
        .orderBy('p.id', 'desc');
    });
    return rows.map((row) =>
      summaryOf(row, standing, { unread: Number(row.unread), experts: Number(row.experts), dueSoon: Number(row.due_soon) }),
    );
  }

  async function list(actor: Actor, query: ListQuery = {}): Promise<ProjectPage> {
    const page = query.page ?? 1;
    const pageSize = pageSizeOf('projects', query.pageSize);
    if (!visible(actor)) return { items: [], total: 0, page, pageSize };
    const standing = await standingIn(actor);
    const { text, values, shape } = listValues(actor, standing, query, { limit: pageSize, offset: (page - 1) * pageSize });
    // The shape and the values are all the answer depends on (the caller's name and role among them).
    return lists.get(`list\u0000${shape}\u0000${JSON.stringify(values)}`, async () => {
      const [items, [count]] = await Promise.all([
        pageOf(actor, standing, query, { limit: pageSize, offset: (page - 1) * pageSize }),
        prepared(db, `count:${shape}`, values, (slot) =>
          filtered(actor, standing, query, text, slot).select((eb) => eb.fn.countAll<number>().as('n')),
        ),
      ]);
      return { items, total: Number(count?.n ?? 0), page, pageSize };
    });
  }

  /** The first `limit` projects where something waits for the actor, newest first (the dashboards' list; no count). */
  async function waiting(actor: Actor, limit: number): Promise<ProjectSummary[]> {
    if (!visible(actor)) return [];
    const standing = await standingIn(actor);
    const { values, shape } = listValues(actor, standing, { waiting: true }, { limit, offset: 0 });
    const kept = await lists.get(`waiting\u0000${shape}\u0000${JSON.stringify(values)}`, async () => {
      const items = await pageOf(actor, standing, { waiting: true }, { limit, offset: 0 });
      return { items, total: items.length, page: 1, pageSize: limit };
    });
    return kept.items;
  }

  // The navbar's badge is asked on every signed-in page: kept a few seconds per user in this
  // process; what the user reads or writes here forgets it at once, a message from someone else
  // (or another instance) shows within UNREAD_CACHE_MS.
  const unreadCache = createTtlCache<number>({ now: Date.now, maxEntries: UNREAD_CACHE_MAX });

  /** Messages the actor has not read over every project they see, up to UNREAD_BADGE_MAX (the navbar's badge). */
  async function unreadTotal(actor: Actor): Promise<number> {
    const key = canonicalIdentity(actor.userName);
    const cached = unreadCache.get(key);
    if (cached?.fresh) return cached.value;
    const q = visible(actor);
    if (!q) return 0;
    // Counted by the database up to the badge's maximum: one row, and the reading stops there
    // (an admin sees every project, and may have read none of their messages).
    const unread = q
      .innerJoin('project_messages as m', 'm.project_id', 'p.id')
      .where('m.author', '!=', actor.userName)
      .where('m.id', '>', (eb) =>
        eb.fn.coalesce(
          eb
            .selectFrom('project_reads as r')
            .select('r.last_read_id')
            .whereRef('r.project_id', '=', 'p.id')
            .where('r.user_name', '=', actor.userName),
          sql<number>`0`,
        ),
      )
      .select(sql<number>`1`.as('one'))
      .limit(UNREAD_BADGE_MAX);
    const row = await k
      .selectFrom(unread.as('u'))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const value = Number(row.total);
    unreadCache.set(key, value, UNREAD_CACHE_MS);
    return value;
  }

  /**
   * What the actor's calendar feed lists (server/calendar-feed/feeds.ts): the milestones with a due
   * day and the deadlines of the projects they see now, from `from` (YYYY-MM-DD) on, soonest first,
   * at most `limit` of each. Declined and cancelled projects have none.
   */
  async function calendar(actor: Actor, from: string, limit: number): Promise<CalendarEntries> {
    const q = visible(actor);
    if (!q) return { milestones: [], deadlines: [] };
    const live = q.where('p.state', 'not in', ['declined', 'cancelled']);
    const [milestones, deadlines] = await Promise.all([
      live
        .innerJoin('project_milestones as m', 'm.project_id', 'p.id')
        .select(['m.id', 'm.title', 'm.due_date', 'm.done_at', 'p.id as project_id', 'p.title as project_title'])
        .where('m.due_date', '>=', from)
        .orderBy('m.due_date')
        .orderBy('m.id')
        .limit(limit)
        .execute(),
      live
        .select(['p.id', 'p.title', 'p.deadline'])
        .where('p.deadline', '>=', from)
        .orderBy('p.deadline')
        .orderBy('p.id')
        .limit(limit)
        .execute(),
    ]);
    return {
      milestones: milestones.map((m) => ({
        id: m.id,
        title: m.title,
        day: m.due_date!,
        done: m.done_at !== null,
        project: { id: m.project_id, title: m.project_title },
      })),
      deadlines: deadlines.map((p) => ({ day: p.deadline!, project: { id: p.id, title: p.title } })),
    };
  }

  /** The user read or wrote something: their badge is counted again on the next page. */
  function forgetUnread(userName: string) {
    unreadCache.delete(canonicalIdentity(userName));
  }

  /**
   * The project as the caller sees it: everything but its history (a page at a time: `history`)
   * and its older documents: the newest `newest` documents (a page of the documents' list by
   * default; all of them a page at a time: conversation.documents), oldest first. Experts and
   * milestones are bounded by their rules (PROJECT_LIMITS, enforced when one is added); the
   * reads are cut there too, whatever an older database holds.
   */
  async function detail(
    actor: Actor,
    row: ProjectRow & { company_name: string | null },
    standing: Standing,
    newest = pageSizeOf('documents'),
  ): Promise<Project> {
    const id = row.id;
    const [experts, milestones, documentRows, unreadRow, proposalRows] = await Promise.all([
      k
        .selectFrom('project_experts')
        .select(['user_name', 'name'])
        .where('project_id', '=', id)
        .orderBy('added_at')
        .limit(PROJECT_LIMITS.expertsPerProject)
        .execute(),
      k
        .selectFrom('project_milestones')
        .selectAll()
        .where('project_id', '=', id)
        .orderBy('id')
        .limit(PROJECT_LIMITS.milestonesPerProject)
        .execute(),
      k
        .selectFrom('project_documents')
        .select(['id', 'name', 'content_type', 'bytes', 'uploaded_by', 'uploaded_at'])
        .where('project_id', '=', id)
        .orderBy('id', 'desc')
        .limit(newest)
        .execute()
        .then((rows) => rows.reverse()),
      k
        .selectFrom('projects as p')
        .select((eb) => unreadOf(eb, actor.userName).as('unread'))
        .where('p.id', '=', id)
        .executeTakeFirst(),
      row.proposal_sent_at
        ? k
            .selectFrom('project_proposals')
            .select(['version', 'status', 'scope', 'fee', 'timeline', 'sent_at', 'sent_by', 'answered_at', 'answered_by'])
            .where('project_id', '=', id)
            .orderBy('version', 'desc')
            .limit(PROPOSAL_VERSIONS_SHOWN)
            .execute()
        : Promise.resolve([]),
    ]);
    const proposals = proposalRows.map((v): Proposal => ({
      version: v.version,
      status: v.status,
      scope: v.scope,
      fee: Number(v.fee),
      timeline: v.timeline,
      sentAt: v.sent_at,
      sentBy: v.sent_by,
      answeredAt: v.answered_at,
      answeredBy: v.answered_by,
    }));
    const state = row.state as ProjectState;
    const due = dueLimit();
    const counts = {
      unread: Number(unreadRow?.unread ?? 0),
      experts: experts.length,
      dueSoon: milestones.filter((m) => !m.done_at && m.due_date && m.due_date <= due).length,
    };
    return {
      ...summaryOf(row, standing, counts),
      description: row.description,
      budget: (row.budget as Project['budget']) ?? null,
      wishedStart: row.wished_start,
      deadline: row.deadline,
      procurementRef: row.procurement_ref,
      experts: experts.map((e): PersonRef => ({ userName: e.user_name, name: e.name, role: 'CONS' })),
      milestones: milestones.map((m): Milestone => ({
        id: m.id,
        title: m.title,
        dueDate: m.due_date,
        doneAt: m.done_at,
        doneBy: m.done_by,
        doneByName: m.done_by_name,
      })),
      proposal: proposals[0] ?? null,
      proposals,
      documents: documentRows.map((d) => ({
        id: d.id,
        name: d.name,
        contentType: d.content_type,
        bytes: Number(d.bytes),
        uploadedBy: d.uploaded_by,
        uploadedAt: d.uploaded_at,
      })),
      standing,
      actions: allowedActions(state, standing),
      writable: isWritable(state),
    };
  }

  async function get(actor: Actor, id: number): Promise<Project> {
    const { row, standing } = await projectFor(db, actor, id);
    return detail(actor, row, standing);
  }

  /** How many of a project's milestones are not done (for a participant only: 404 otherwise). */
  async function openMilestoneCount(actor: Actor, id: number): Promise<number> {
    await projectFor(db, actor, id);
    const open = await k
      .selectFrom('project_milestones')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', id)
      .where('done_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(open.n);
  }

  /** The `limit` newest events of a project older than event `before` (all when null), newest first. */
  async function eventRows(id: number, before: number | null, limit: number): Promise<ProjectEvent[]> {
    let query = k.selectFrom('project_events').selectAll().where('project_id', '=', id);
    if (before !== null) query = query.where('id', '<', before);
    const rows = await query.orderBy('id', 'desc').limit(limit).execute();
    return rows.map((e): ProjectEvent => ({
      id: e.id,
      at: e.at,
      actor: e.actor,
      actorName: e.actor_name,
      kind: e.kind as ProjectEvent['kind'],
      from: e.from_state as ProjectState | null,
      to: e.to_state as ProjectState | null,
      detail: e.detail,
    }));
  }

  /**
   * A page of the project's history, newest first: the `pageSize` events older than event
   * `before` (the newest when null). Its cost is the page's, however long the history is (an
   * index on project and id: one range read; the count is kept with the project, migration 15).
   */
  async function history(
    actor: Actor,
    id: number,
    query: { before?: number | null | undefined; pageSize?: number | undefined } = {},
  ): Promise<EventPage> {
    const { row } = await projectFor(db, actor, id);
    const before = query.before ?? null;
    const pageSize = pageSizeOf('history', query.pageSize);
    const rows = await eventRows(id, before, pageSize + 1);
    return cursorPageOf(rows, { pageSize, before, total: Number(row.event_count) });
  }

  /**
   * The display names of the people a project names by user name only (who uploaded a
   * document, ticked a milestone off, sent the proposal, and `extra`), by canonical user name:
   * the site's users as they are now, then the project's own record (owner and experts, the
   * names they had on it). Bounded by the project's documents and milestones, never its history.
   */
  async function namesOf(project: Project, extra: readonly string[] = []): Promise<Record<string, string>> {
    const names: Record<string, string> = {};
    const named = [
      ...extra,
      ...project.milestones.map((m) => m.doneBy ?? ''),
      ...project.documents.map((d) => d.uploadedBy),
      project.proposal?.sentBy ?? '',
    ];
    const userNames = [...new Set(named.filter(Boolean).map(canonicalIdentity))];
    if (userNames.length > 0) {
      const users = await k.selectFrom('users').select(['user_name', 'name', 'last_name']).where('user_name', 'in', userNames).execute();
      for (const user of users) names[user.user_name] = `${user.name} ${user.last_name}`.trim() || user.user_name;
    }
    // The project's own record wins: the name the owner and experts had when they joined it.
    for (const person of [project.owner, ...project.experts]) names[canonicalIdentity(person.userName)] = person.name;
    return names;
  }

  /**
   * The project for a document (PDF): as `get` (the same access, the same 404), with only the
   * `newest` events (oldest first) and documents, how many there are in all, and the display
   * names of the people they name (user names the site does not know stay as they are).
   */
  async function snapshot(actor: Actor, id: number, { newest }: { newest: number }): Promise<ProjectSnapshot> {
    const { row, standing } = await projectFor(db, actor, id);
    const [project, events, documentCount] = await Promise.all([
      detail(actor, row, standing, newest),
      newest > 0 ? eventRows(id, null, newest).then((rows) => rows.reverse()) : Promise.resolve([]),
      k
        .selectFrom('project_documents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('project_id', '=', id)
        .executeTakeFirstOrThrow(),
    ]);
    const names = await namesOf(
      project,
      events.map((e) => e.actor),
    );
    return { project, events, eventCount: Number(row.event_count), documentCount: Number(documentCount.n), names };
  }

  /** The company's people (its projects' side of a project), assigned experts and admins: who hears about what happens to a project. */
  async function participants(row: Pick<ProjectRow, 'id' | 'company_id'>): Promise<string[]> {
    return (await participantsOf(row)).everyone;
  }

  /** The participants, with the company's people apart (a proposal is their news). */
  async function participantsOf(row: Pick<ProjectRow, 'id' | 'company_id'>): Promise<{ company: string[]; everyone: string[] }> {
    const [company, experts, admins] = await Promise.all([
      memberNames(k, row.company_id),
      k.selectFrom('project_experts').select('user_name').where('project_id', '=', row.id).execute(),
      adminNames(),
    ]);
    return { company, everyone: [...company, ...experts.map((e) => e.user_name), ...admins] };
  }

  async function adminNames(): Promise<string[]> {
    const rows = await k.selectFrom('users').select('user_name').where('role', '=', 'ADMIN').where('disabled', '=', 0).execute();
    return rows.map((r) => r.user_name);
  }

  /**
   * The project changed (after the change was committed): the open pages of everyone who sees it
   * — `extra` too: an expert just removed — read it again (the live streams, server/live/).
   */
  async function touched(row: Pick<ProjectRow, 'id' | 'company_id'>, people?: readonly string[], extra: readonly string[] = []) {
    if (!deps.live) return;
    // A convenience for open pages: the change is committed, and never fails for it (Tell logs its own failures).
    const everyone = people ?? (await participants(row).catch(() => []));
    await deps.live([...everyone, ...extra], { what: 'project', projectId: row.id });
  }

  /**
   * Queues the e-mails of a change (after it was committed): the caller's answer waits for the
   * queue, not for the mail server, so an OK means the e-mails are on their way. A queue that
   * fails is logged by `notify`, never the change's failure.
   */
  async function announce(
    kind: ProjectNoticeKind,
    actor: Actor,
    project: { id: number; title: string },
    recipients: string[],
    extra: Pick<ProjectNoticeInput, 'from' | 'to' | 'milestone' | 'excerpt' | 'document' | 'hold'> = {},
  ) {
    const others = [...new Set(recipients.map(canonicalIdentity))].filter((r) => r !== canonicalIdentity(actor.userName));
    if (others.length === 0) return;
    await deps.notify({ kind, project, actor: { userName: actor.userName, name: displayName(actor) }, recipients: others, ...extra });
  }

  /** Counts one action of the user against its limit; a 429 with Retry-After past it (nothing is done). */
  async function admit(kind: Admitted, userName: string) {
    const limits = deps.limits;
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

  async function create(actor: Actor, brief: Brief): Promise<Project> {
    if (!ownsProjects(actor)) throw forbidden('Only clients and organisations submit briefs');
    await admit('brief', actor.userName);
    // The brief is the company's: every colleague sees it, whoever of them submitted it.
    const membership = await ensureMembership(db, actor);
    const at = now().toISOString();
    const id = await k.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('projects')
        .values({
          title: brief.title,
          description: brief.description,
          practice: brief.practice,
          state: 'brief',
          owner: actor.userName,
          owner_name: displayName(actor),
          owner_role: actor.role,
          organisation: brief.organisation ?? null,
          budget: brief.budget ?? null,
          wished_start: brief.wishedStart ?? null,
          deadline: brief.deadline ?? null,
          procurement_ref: hasRole(actor, 'ORG') ? (brief.procurementRef ?? null) : null,
          company_id: membership?.companyId ?? null,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordProjectEvent(trx, inserted.id, actor, at, { kind: 'created', to: 'brief' }, { touch: false });
      return inserted.id;
    });
    await announce('brief_submitted', actor, { id, title: brief.title }, await adminNames());
    await touched({ id, company_id: membership?.companyId ?? null });
    return get(actor, id);
  }

  /**
   * A move of the state machine, if the caller's standing allows it from the current state.
   * Sending a proposal keeps it as the next version and supersedes an open one; an answer is
   * the newest version's (`expected.version`, when given, must be it: what the owner read is what
   * they answer), recorded with who, when and from which address.
   */
  async function act(
    actor: Actor,
    id: number,
    action: ProjectAction,
    proposal?: ProposalInput,
    expected: { version?: number | undefined; ip?: string | null } = {},
  ): Promise<Project> {
    const { row, standing } = await projectFor(db, actor, id);
    const move = TRANSITIONS[action];
    const from = row.state as ProjectState;
    if (!(move.by as readonly Standing[]).includes(standing)) throw forbidden(`You may not ${action.replace('_', ' ')} this project`);
    if (!(move.from as readonly ProjectState[]).includes(from)) {
      throw new ApiError(409, 'invalid_transition', `A project in state "${from}" cannot be moved by "${action}"`);
    }
    if (action === 'send_proposal' && !proposal) {
      throw new ApiError(400, 'invalid_request', 'Invalid request: proposal is required to send a proposal', {
        proposal: 'validation.required',
      });
    }
    // Every move e-mails the participants: counted per user, on the page and the API alike.
    await admit('state', actor.userName);
    const at = now().toISOString();
    const to: ProjectState = move.to;
    let version: number | null = null;
    let answeredFee = 0;
    let superseded: number | null = null;
    let stillOpen = 0;
    await k.transaction().execute(async (trx) => {
      const changes: Partial<ProjectRow> = { state: to, updated_at: at };
      const newest = await trx
        .selectFrom('project_proposals')
        .select(['id', 'version', 'status', 'fee'])
        .where('project_id', '=', id)
        .orderBy('version', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (action === 'accept' || action === 'decline') {
        if (!newest || newest.status !== 'open') throw conflict();
        if (expected.version !== undefined && expected.version !== newest.version) {
          throw new ApiError(
            409,
            'proposal_superseded',
            `Proposal v${expected.version} is no longer the one to answer: v${newest.version} replaced it. Read it and answer that one`,
          );
        }
        version = newest.version;
        answeredFee = Number(newest.fee);
        await trx
          .updateTable('project_proposals')
          .set({
            status: action === 'accept' ? 'accepted' : 'declined',
            answered_at: at,
            answered_by: actor.userName,
            answered_ip: expected.ip ?? null,
          })
          .where('id', '=', newest.id)
          .where('status', '=', 'open')
          .execute();
      } else if (action === 'send_proposal' && proposal) {
        version = (newest?.version ?? 0) + 1;
        if (newest?.status === 'open') {
          superseded = newest.version;
          await trx.updateTable('project_proposals').set({ status: 'superseded' }).where('id', '=', newest.id).execute();
        }
        await trx
          .insertInto('project_proposals')
          .values({
            project_id: id,
            version,
            scope: proposal.scope,
            fee: proposal.fee,
            timeline: proposal.timeline,
            sent_at: at,
            sent_by: actor.userName,
            status: 'open',
          })
          .execute();
      } else if (action === 'deliver' || action === 'close') {
        // Delivered or closed with milestones still open: the history says how many.
        const open = await trx
          .selectFrom('project_milestones')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('project_id', '=', id)
          .where('done_at', 'is', null)
          .executeTakeFirstOrThrow();
        stillOpen = Number(open.n);
      } else if ((action === 'cancel' || action === 'withdraw') && newest?.status === 'open') {
        // A project that ends with a proposal unanswered leaves it withdrawn.
        await trx.updateTable('project_proposals').set({ status: 'withdrawn' }).where('id', '=', newest.id).execute();
      }
      if (action === 'send_proposal' && proposal) {
        Object.assign(changes, {
          proposal_scope: proposal.scope,
          proposal_fee: proposal.fee,
          proposal_timeline: proposal.timeline,
          proposal_sent_at: at,
          proposal_sent_by: actor.userName,
          proposal_answered_at: null,
        });
      }
      if (action === 'accept' || action === 'decline') changes.proposal_answered_at = at;
      // The state read above must still be the state: two answers at once, one wins.
      const result = await trx.updateTable('projects').set(changes).where('id', '=', id).where('state', '=', from).executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw conflict();
      await recordProjectEvent(
        trx,
        id,
        actor,
        at,
        {
          kind: action === 'send_proposal' ? 'proposal' : 'state',
          from,
          to,
          // What happened, for the history's words (shared/projects.ts eventDetail): a proposal's
          // version, fee and the version it replaced ("2:7800:1"); a move's action and the version it answered ("accept:2").
          detail:
            action === 'send_proposal' && proposal
              ? `${version}:${proposal.fee}${superseded !== null ? `:${superseded}` : ''}`
              : `${action}${version !== null ? `:${version}` : ''}${stillOpen > 0 ? `+${stillOpen}` : ''}`,
        },
        { touch: false },
      );
    });
    if ((action === 'accept' || action === 'decline') && version !== null) {
      await deps.audit?.record({
        action: action === 'accept' ? 'proposal_accepted' : 'proposal_declined',
        actor: actor.userName,
        ip: expected.ip ?? null,
        detail: { project: id, version, fee: answeredFee },
      });
    }
    // A proposal is news for the company's people (its own e-mail); the others hear of the move.
    const { company, everyone } = await participantsOf(row);
    if (action === 'send_proposal') await announce('proposal_sent', actor, row, company);
    await announce('state_changed', actor, row, action === 'send_proposal' ? everyone.filter((u) => !company.includes(u)) : everyone, {
      from,
      to,
    });
    await touched(row, everyone);
    return get(actor, id);
  }

  /**
   * Serialises the changes of one project that count its rows against a rule (experts,
   * milestones): PostgreSQL locks the project's row until the transaction ends; SQLite has one
   * writer at a time already.
   */
  async function lockProject(trx: Db['k'], id: number) {
    if (db.engine === 'postgres') await trx.selectFrom('projects').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
  }

  function requireOpen(row: ProjectRow) {
    if (!OPEN_STATES.includes(row.state as ProjectState)) throw readOnly();
  }

  async function assignExpert(actor: Actor, id: number, userName: string): Promise<Project> {
    const { row, standing } = await projectFor(db, actor, id);
    if (standing !== 'admin') throw forbidden('Only administrators assign experts');
    requireOpen(row);
    const expert = await findExpert(userName);
    if (!expert) {
      throw new ApiError(422, 'unknown_expert', `No expert with the user name "${userName}"`, { userName: 'validation.unknownExpert' });
    }
    const at = now().toISOString();
    const added = await k.transaction().execute(async (trx) => {
      // Counted under the project's lock: two admins assigning at once cannot pass the rule together.
      await lockProject(trx, id);
      const count = await trx
        .selectFrom('project_experts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('project_id', '=', id)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= PROJECT_LIMITS.expertsPerProject) {
        const already = await trx
          .selectFrom('project_experts')
          .select('user_name')
          .where('project_id', '=', id)
          .where('user_name', '=', expert.userName)
          .executeTakeFirst();
        if (already) return false;
        throw new ApiError(422, 'too_many_experts', `A project has at most ${PROJECT_LIMITS.expertsPerProject} experts`);
      }
      const result = await trx
        .insertInto('project_experts')
        .values({ project_id: id, user_name: expert.userName, name: expert.name, added_at: at, added_by: actor.userName })
        .onConflict((oc) => oc.columns(['project_id', 'user_name']).doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      await recordProjectEvent(trx, id, actor, at, { kind: 'expert_added', detail: expert.name });
      return true;
    });
    // Assigning someone twice is harmless: the same answer, one history line, one e-mail.
    if (added) {
      // One read of who is in the project: the company hears of its new expert, everyone's page reads it again.
      const { company, everyone } = await participantsOf(row);
      await announce('expert_assigned', actor, row, [expert.userName, ...company]);
      await touched(row, everyone);
    }
    return get(actor, id);
  }

  async function removeExpert(actor: Actor, id: number, userName: string): Promise<Project> {
    const { row, standing } = await projectFor(db, actor, id);
    if (standing !== 'admin') throw forbidden('Only administrators remove experts');
    requireOpen(row);
    const at = now().toISOString();
    await k.transaction().execute(async (trx) => {
      const removed = await trx
        .deleteFrom('project_experts')
        .where('project_id', '=', id)
        .where('user_name', '=', userName)
        .returning('name')
        .executeTakeFirst();
      if (!removed) throw new ApiError(404, 'not_found', `"${userName}" is not assigned to this project`);
      await recordProjectEvent(trx, id, actor, at, { kind: 'expert_removed', detail: removed.name });
    });
    // The expert's open page reads it again, and finds it gone.
    await touched(row, undefined, [userName]);
    return get(actor, id);
  }

  /** An expert (CONS) by user name: the site's users first, else a profile they saved (external API). */
  async function findExpert(userName: string): Promise<{ userName: string; name: string } | null> {
    const user = await k
      .selectFrom('users')
      .select(['user_name', 'name', 'last_name', 'role', 'disabled'])
      .where('user_name', '=', userName)
      .executeTakeFirst();
    if (user) {
      return user.role === 'CONS' && Number(user.disabled) === 0
        ? { userName: user.user_name, name: `${user.name} ${user.last_name}`.trim() }
        : null;
    }
    const profile = await k.selectFrom('expertise').select(['user_name', 'name']).where('user_name', '=', userName).executeTakeFirst();
    return profile ? { userName: profile.user_name, name: profile.name } : null;
  }

  function requireCrew(standing: Standing) {
    if (standing === 'manager' || standing === 'member') throw forbidden('Milestones are kept by the company and its experts');
  }

  async function addMilestone(actor: Actor, id: number, input: { title: string; dueDate?: string | null | undefined }): Promise<Project> {
    const { row, standing } = await projectFor(db, actor, id);
    requireCrew(standing);
    if (!isWritable(row.state as ProjectState)) throw readOnly();
    await admit('milestone', actor.userName);
    const at = now().toISOString();
    await k.transaction().execute(async (trx) => {
      // Counted under the project's lock: two additions at once cannot pass the rule together.
      await lockProject(trx, id);
      const count = await trx
        .selectFrom('project_milestones')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('project_id', '=', id)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= PROJECT_LIMITS.milestonesPerProject) {
        throw new ApiError(422, 'too_many_milestones', `A project has at most ${PROJECT_LIMITS.milestonesPerProject} milestones`);
      }
      await trx
        .insertInto('project_milestones')
        .values({
          project_id: id,
          title: input.title,
          due_date: input.dueDate ?? null,
          done_at: null,
          done_by: null,
          done_by_name: null,
          created_at: at,
        })
        .execute();
      await recordProjectEvent(trx, id, actor, at, { kind: 'milestone_added', detail: input.title });
    });
    await touched(row);
    return get(actor, id);
  }

  /**
   * Done or not done. One user's toggles of one milestone within the collapse window are one
   * history line and one notice (issue 23, H2): the notice of "done" is held for the window, and
   * a toggle back within it removes both the line it undoes and that notice, so that back and
   * forth leaves what a single change would. Another user's toggle is a line of its own.
   */
  async function setMilestoneDone(actor: Actor, id: number, milestoneId: number, done: boolean): Promise<Project> {
    const { row, standing } = await projectFor(db, actor, id);
    requireCrew(standing);
    if (!isWritable(row.state as ProjectState)) throw readOnly();
    const milestone = await k
      .selectFrom('project_milestones')
      .selectAll()
      .where('id', '=', milestoneId)
      .where('project_id', '=', id)
      .executeTakeFirst();
    if (!milestone) throw new ApiError(404, 'not_found', 'No such milestone in this project');
    if (Boolean(milestone.done_at) === done) return get(actor, id);
    await admit('milestone', actor.userName);
    const collapseMs = deps.milestoneCollapseMs ?? MILESTONE_COLLAPSE_MS;
    const moment = now();
    const at = moment.toISOString();
    const kind = done ? 'milestone_done' : 'milestone_reopened';
    const outcome = await k.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('project_milestones')
        .set(
          done
            ? { done_at: at, done_by: actor.userName, done_by_name: displayName(actor) }
            : { done_at: null, done_by: null, done_by_name: null },
        )
        .where('id', '=', milestoneId)
        .where('done_at', done ? 'is' : 'is not', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return 'unchanged';
      const last =
        collapseMs > 0
          ? await trx
              .selectFrom('project_events')
              .select(['id', 'actor', 'kind'])
              .where('project_id', '=', id)
              .where('milestone_id', '=', milestoneId)
              .where('at', '>=', new Date(moment.getTime() - collapseMs).toISOString())
              .orderBy('id', 'desc')
              .limit(1)
              .executeTakeFirst()
          : undefined;
      // The same user undoing their own change of a moment ago: the two cancel out.
      if (last && last.actor === canonicalIdentity(actor.userName) && last.kind !== kind) {
        await trx.deleteFrom('project_events').where('id', '=', last.id).execute();
        await trx.updateTable('projects').set({ updated_at: at }).where('id', '=', id).execute();
        return 'undone';
      }
      await recordProjectEvent(trx, id, actor, at, { kind, detail: milestone.title, milestoneId });
      return 'recorded';
    });
    const ref = `milestone:${milestoneId}`;
    // A notice of "done" not yet sent says what is no longer so: it goes, whoever reopened.
    if (outcome !== 'unchanged' && !done) await deps.withdraw?.(ref);
    if (outcome === 'unchanged') return get(actor, id);
    const everyone = await participants(row);
    if (outcome === 'recorded' && done) {
      await announce('milestone_done', actor, row, everyone, {
        milestone: milestone.title,
        ...(collapseMs > 0 ? { hold: { ref, ms: collapseMs } } : {}),
      });
    }
    await touched(row, everyone);
    return get(actor, id);
  }

  return {
    list,
    waiting,
    get,
    openMilestoneCount,
    history,
    namesOf,
    snapshot,
    create,
    act,
    assignExpert,
    removeExpert,
    addMilestone,
    setMilestoneDone,
    unreadTotal,
    forgetUnread,
    calendar,
    participants,
    announce,
    touched,
    admit,
  };
}

export type Projects = ReturnType<typeof createProjects>;

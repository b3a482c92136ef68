// The read model's lists: the projects a caller sees a page at a time (filtered, searched, or
// only those where something waits for them), the dashboards' short list of what waits, and the
// calendar feed's milestones and deadlines. A list is kept a moment per caller and query.
import { sql } from 'kysely';
import type { CalendarEntries } from '../../shared/calendar.ts';
import { canonicalIdentity } from '../../shared/identity.ts';
import { containsPattern, pageSizeOf } from '../../shared/paging.ts';
import {
  ownsProjects,
  type Practice,
  type ProjectPage,
  type ProjectState,
  type ProjectSummary,
  type Standing,
} from '../../shared/projects.ts';
import { hasRole } from '../../shared/user.ts';
import { ensureMembership } from '../companies/companies.ts';
import type { Slot } from '../db/compiled.ts';
import type { Actor } from './access.ts';
import type { ProjectContext } from './context.ts';
import { companyNameOf, dueSoonOf, expertCountOf, hasUnreadOf, summaryOf, unreadOf, visible } from './queries.ts';

export type ListQuery = {
  status?: ProjectState | undefined;
  practice?: Practice | undefined;
  q?: string | undefined;
  /** Only the projects where something waits for the caller. */
  waiting?: boolean | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
};

/** How the actor stands to the projects of a list (their company's role, read for this request). */
async function standingIn(ctx: ProjectContext, actor: Actor): Promise<Standing> {
  if (hasRole(actor, 'ADMIN')) return 'admin';
  if (!ownsProjects(actor)) return 'expert';
  const membership = await ctx.memberships.get(`${canonicalIdentity(actor.userName)}\u0000${actor.role}`, () =>
    ensureMembership(ctx.db, actor),
  );
  return membership?.role ?? 'member';
}

/** What a list's queries take: the caller's name, the filters, the page. */
function listValues(ctx: ProjectContext, actor: Actor, standing: Standing, query: ListQuery, page: { limit: number; offset: number }) {
  const text = query.q?.trim();
  return {
    text,
    values: {
      userName: actor.userName,
      status: query.status ?? '',
      practice: query.practice ?? '',
      like: text ? containsPattern(text) : '',
      dueLimit: ctx.dueLimit(),
      ...page,
    },
    // The query's shape: which role sees which projects, and which filters are on.
    shape: [standing, actor.role, query.status ? 's' : '', query.practice ? 'p' : '', text ? 'q' : '', query.waiting ? 'w' : ''].join('|'),
  };
}

/** The projects the actor sees, filtered by the query (as a query to select from). */
function filtered(ctx: ProjectContext, actor: Actor, standing: Standing, query: ListQuery, text: string | undefined, slot: Slot) {
  const userName = slot<string>('userName');
  let q = visible(ctx.k, actor, userName)!;
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
      const unread = hasUnreadOf(eb, userName);
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
  ctx: ProjectContext,
  actor: Actor,
  standing: Standing,
  query: ListQuery,
  page: { limit: number; offset: number },
): Promise<ProjectSummary[]> {
  const { text, values, shape } = listValues(ctx, actor, standing, query, page);
  const rows = await ctx.prepared(ctx.db, `list:${shape}`, values, (slot) => {
    const userName = slot<string>('userName');
    const limit = slot<string>('dueLimit');
    const ids = filtered(ctx, actor, standing, query, text, slot)
      .select('p.id')
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(slot<number>('limit'))
      .offset(slot<number>('offset'));
    return ctx.k
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

export function createProjectLists(ctx: ProjectContext) {
  const { db, k, lists, prepared } = ctx;

  async function list(actor: Actor, query: ListQuery = {}): Promise<ProjectPage> {
    const page = query.page ?? 1;
    const pageSize = pageSizeOf('projects', query.pageSize);
    if (!visible(k, actor)) return { items: [], total: 0, page, pageSize };
    const standing = await standingIn(ctx, actor);
    const { text, values, shape } = listValues(ctx, actor, standing, query, { limit: pageSize, offset: (page - 1) * pageSize });
    // The shape and the values are all the answer depends on (the caller's name and role among them).
    return lists.get(`list\u0000${shape}\u0000${JSON.stringify(values)}`, async () => {
      const [items, [count]] = await Promise.all([
        pageOf(ctx, actor, standing, query, { limit: pageSize, offset: (page - 1) * pageSize }),
        prepared(db, `count:${shape}`, values, (slot) =>
          filtered(ctx, actor, standing, query, text, slot).select((eb) => eb.fn.countAll<number>().as('n')),
        ),
      ]);
      return { items, total: Number(count?.n ?? 0), page, pageSize };
    });
  }

  /** The first `limit` projects where something waits for the actor, newest first (the dashboards' list; no count). */
  async function waiting(actor: Actor, limit: number): Promise<ProjectSummary[]> {
    if (!visible(k, actor)) return [];
    const standing = await standingIn(ctx, actor);
    const { values, shape } = listValues(ctx, actor, standing, { waiting: true }, { limit, offset: 0 });
    const kept = await lists.get(`waiting\u0000${shape}\u0000${JSON.stringify(values)}`, async () => {
      const items = await pageOf(ctx, actor, standing, { waiting: true }, { limit, offset: 0 });
      return { items, total: items.length, page: 1, pageSize: limit };
    });
    return kept.items;
  }

  /**
   * What the actor's calendar feed lists (server/calendar-feed/feeds.ts): the milestones with a due
   * day and the deadlines of the projects they see now, from `from` (YYYY-MM-DD) on, soonest first,
   * at most `limit` of each. Declined and cancelled projects have none.
   */
  async function calendar(actor: Actor, from: string, limit: number): Promise<CalendarEntries> {
    const q = visible(k, actor);
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

  return { list, waiting, calendar };
}

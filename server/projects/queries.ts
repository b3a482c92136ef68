// The read model's pieces that the lists and a project's page share: which projects a caller
// sees, what is counted per project (unread messages, experts, milestones due soon) as
// subqueries of a project's row, and a project's summary with what waits for the caller in it.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import {
  ownsProjects,
  UNREAD_BADGE_MAX,
  type Practice,
  type ProjectState,
  type ProjectSummary,
  type Standing,
} from '../../shared/projects.ts';
import { hasRole } from '../../shared/user.ts';
import type { Db } from '../db/index.ts';
import type { ProjectRow, Schema } from '../db/schema.ts';
import type { Actor } from './access.ts';

export type Eb = ExpressionBuilder<Schema & { p: Schema['projects'] }, 'p'>;

/** What is counted per project for its summary. */
export type ProjectCounts = { unread: number; experts: number; dueSoon: number };

/** The messages of project `p` that `userName` did not write and has not read, one row each. */
function unreadMessagesOf(eb: Eb, userName: string) {
  return eb
    .selectFrom('project_messages as m')
    .select(sql<number>`1`.as('one'))
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
}

/**
 * How many messages of project `p` `userName` has not read, counted up to UNREAD_BADGE_MAX like
 * the navbar's badge: the database stops reading there, so a page of projects costs at most
 * the cap per row however many messages wait (an admin may have read none of 100,000).
 */
export function unreadOf(eb: Eb, userName: string) {
  return eb.selectFrom(unreadMessagesOf(eb, userName).limit(UNREAD_BADGE_MAX).as('u')).select((e) => e.fn.countAll<number>().as('n'));
}

/** Whether project `p` has a message `userName` has not read (the first one found ends the reading). */
export function hasUnreadOf(eb: Eb, userName: string) {
  return eb.exists(unreadMessagesOf(eb, userName));
}

export function expertCountOf(eb: Eb) {
  return eb
    .selectFrom('project_experts as x')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('x.project_id', '=', 'p.id');
}

/** The milestones of project `p` not done and due on `limit` (YYYY-MM-DD) or before. */
export function dueSoonOf(eb: Eb, limit: string) {
  return eb
    .selectFrom('project_milestones as ms')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('ms.project_id', '=', 'p.id')
    .where('ms.done_at', 'is', null)
    .where('ms.due_date', '<=', limit);
}

export function companyNameOf(eb: Eb) {
  return eb.selectFrom('companies as c').select('c.name').whereRef('c.id', '=', 'p.company_id');
}

/** The projects the actor may see, as a query to filter further; null: none at all. */
export function visible(
  k: Db['k'],
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

/** What waits for the caller in a project, first in the dashboards. */
function waitingFor(standing: Standing, state: ProjectState, counts: ProjectCounts): string | null {
  if (standing === 'manager' && state === 'proposal') return 'answer_proposal';
  if (standing === 'manager' && state === 'delivered') return 'confirm_delivery';
  if (standing === 'admin' && state === 'brief') return 'send_proposal';
  if (standing === 'admin' && state === 'declined') return 'revise_proposal';
  if (standing === 'admin' && state === 'active' && counts.experts === 0) return 'assign_expert';
  if (standing === 'expert' && state === 'active' && counts.dueSoon > 0) return 'milestones_due';
  if (counts.unread > 0) return 'unread_messages';
  return null;
}

export function summaryOf(row: ProjectRow & { company_name: string | null }, standing: Standing, counts: ProjectCounts): ProjectSummary {
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

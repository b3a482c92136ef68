// The read model's detail: a project as its page shows it to the caller (everything but its
// history and its older documents), with what the caller may do with it now.
import { pageSizeOf } from '../../shared/paging.ts';
import {
  allowedActions,
  isWritable,
  PROJECT_LIMITS,
  PROPOSAL_VERSIONS_SHOWN,
  type Milestone,
  type PersonRef,
  type Project,
  type ProjectState,
  type Proposal,
  type Standing,
} from '../../shared/projects.ts';
import type { ProjectRow } from '../db/schema.ts';
import { projectFor, type Actor } from './access.ts';
import type { ProjectContext } from './context.ts';
import { summaryOf, unreadOf } from './queries.ts';

/** The rows a project's detail reads besides the project's own. */
async function detailRows(ctx: ProjectContext, actor: Actor, row: ProjectRow, newest: number) {
  const { k } = ctx;
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
  return { experts, milestones, documentRows, unreadRow, proposalRows };
}

/**
 * The project as the caller sees it: everything but its history (a page at a time: `history`)
 * and its older documents: the newest `newest` documents (a page of the documents' list by
 * default; all of them a page at a time: conversation.documents), oldest first. Experts and
 * milestones are bounded by their rules (PROJECT_LIMITS, enforced when one is added); the
 * reads are cut there too, whatever an older database holds.
 */
export async function projectDetail(
  ctx: ProjectContext,
  actor: Actor,
  row: ProjectRow & { company_name: string | null },
  standing: Standing,
  newest = pageSizeOf('documents'),
): Promise<Project> {
  const { experts, milestones, documentRows, unreadRow, proposalRows } = await detailRows(ctx, actor, row, newest);
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
  const due = ctx.dueLimit();
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

/** The project as the caller sees it now (404 for one they may not see); what every change answers with. */
export async function getProject(ctx: ProjectContext, actor: Actor, id: number): Promise<Project> {
  const { row, standing } = await projectFor(ctx.db, actor, id);
  return projectDetail(ctx, actor, row, standing);
}

export function createProjectDetail(ctx: ProjectContext) {
  const { db, k } = ctx;

  async function get(actor: Actor, id: number): Promise<Project> {
    return getProject(ctx, actor, id);
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

  return { get, openMilestoneCount };
}

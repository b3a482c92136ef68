// The state machine's moves (shared/projects.ts TRANSITIONS) and their checks: a brief submitted
// (a new project, in state "brief"), then each move the caller's standing allows from the
// current state, the proposal's versions kept with it; the history line in the move's
// transaction, the audit of an answer and the notices after it.
import { ownsProjects, TRANSITIONS, type Project, type ProjectAction, type ProjectState, type Standing } from '../../shared/projects.ts';
import { hasRole } from '../../shared/user.ts';
import { ensureMembership } from '../companies/companies.ts';
import type { Db } from '../db/index.ts';
import type { ProjectRow } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { displayName, projectFor, type Actor } from './access.ts';
import { announce, touched } from './announce.ts';
import { EVERYONE } from './audience.ts';
import { admit, conflict, forbidden, type ProjectContext } from './context.ts';
import { getProject } from './detail.ts';
import { recordProjectEvent } from './events.ts';
import type { Brief, ProposalInput } from './schemas.ts';

/** What the caller expects of a move: the proposal's version they answer (required to accept or decline), and their address (for the audit). */
type Expected = { version?: number | undefined; ip?: string | null };

/** What a move did to the proposals, for its history line and its audit. */
type Settled = { version: number | null; answeredFee: number; superseded: number | null; stillOpen: number };

/** Whether the caller may make this move now, and with what it takes; throws what refuses it. */
function checkMove(action: ProjectAction, standing: Standing, from: ProjectState, proposal: ProposalInput | undefined, expected: Expected) {
  const move = TRANSITIONS[action];
  if (!(move.by as readonly Standing[]).includes(standing)) throw forbidden(`You may not ${action.replace('_', ' ')} this project`);
  if (!(move.from as readonly ProjectState[]).includes(from)) {
    throw new ApiError(409, 'invalid_transition', `A project in state "${from}" cannot be moved by "${action}"`);
  }
  if (action === 'send_proposal' && !proposal) {
    throw new ApiError(400, 'invalid_request', 'Invalid request: proposal is required to send a proposal', {
      proposal: 'validation.required',
    });
  }
  // An answer says which version it answers: without it, a newer (and dearer) one sent meanwhile would be taken.
  if ((action === 'accept' || action === 'decline') && expected.version === undefined) {
    throw new ApiError(
      400,
      'proposal_version_required',
      `Invalid request: version is required to ${action} a proposal (the version you read and answer)`,
      { version: 'validation.required' },
    );
  }
}

/**
 * Inside the move's transaction: what the move does to the proposals. An answer is the newest
 * version's, and marks it; a proposal sent is the next version and supersedes an open one;
 * delivering or closing counts the milestones still open; a project that ends with a proposal
 * unanswered leaves it withdrawn.
 */
async function settleProposals(
  trx: Db['k'],
  actor: Actor,
  id: number,
  action: ProjectAction,
  at: string,
  proposal: ProposalInput | undefined,
  expected: Expected,
): Promise<Settled> {
  const settled: Settled = { version: null, answeredFee: 0, superseded: null, stillOpen: 0 };
  const newest = await trx
    .selectFrom('project_proposals')
    .select(['id', 'version', 'status', 'fee'])
    .where('project_id', '=', id)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (action === 'accept' || action === 'decline') {
    if (!newest || newest.status !== 'open') throw conflict();
    if (expected.version !== newest.version) {
      throw new ApiError(
        409,
        'proposal_superseded',
        `Proposal v${expected.version} is no longer the one to answer: v${newest.version} replaced it. Read it and answer that one`,
      );
    }
    settled.version = newest.version;
    settled.answeredFee = Number(newest.fee);
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
    settled.version = (newest?.version ?? 0) + 1;
    if (newest?.status === 'open') {
      settled.superseded = newest.version;
      await trx.updateTable('project_proposals').set({ status: 'superseded' }).where('id', '=', newest.id).execute();
    }
    await trx
      .insertInto('project_proposals')
      .values({
        project_id: id,
        version: settled.version,
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
    settled.stillOpen = Number(open.n);
  } else if ((action === 'cancel' || action === 'withdraw') && newest?.status === 'open') {
    // A project that ends with a proposal unanswered leaves it withdrawn.
    await trx.updateTable('project_proposals').set({ status: 'withdrawn' }).where('id', '=', newest.id).execute();
  }
  return settled;
}

/** Inside the move's transaction: the proposals settled, the project moved from `from` to `to` (if still in `from`), and its history line. */
async function recordMove(
  trx: Db['k'],
  actor: Actor,
  id: number,
  move: { action: ProjectAction; from: ProjectState; to: ProjectState; at: string },
  proposal: ProposalInput | undefined,
  expected: Expected,
): Promise<Settled> {
  const { action, from, to, at } = move;
  const changes: Partial<ProjectRow> = { state: to, updated_at: at };
  const settled = await settleProposals(trx, actor, id, action, at, proposal, expected);
  const { version, superseded, stillOpen } = settled;
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
  return settled;
}

export function createTransitions(ctx: ProjectContext) {
  const { db, k, deps, now } = ctx;

  async function create(actor: Actor, brief: Brief): Promise<Project> {
    if (!ownsProjects(actor)) throw forbidden('Only clients and organisations submit briefs');
    await admit(ctx, 'brief', actor.userName);
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
    await announce(ctx, 'brief_submitted', actor, { id, title: brief.title }, { admins: true });
    await touched(ctx, { id });
    return getProject(ctx, actor, id);
  }

  /**
   * A move of the state machine, if the caller's standing allows it from the current state.
   * Sending a proposal keeps it as the next version and supersedes an open one; an answer is
   * the newest version's (`expected.version`, required, must be it: what the owner read is what
   * they answer), recorded with who, when and from which address.
   */
  async function act(actor: Actor, id: number, action: ProjectAction, proposal?: ProposalInput, expected: Expected = {}): Promise<Project> {
    const { row, standing } = await projectFor(db, actor, id);
    const from = row.state as ProjectState;
    checkMove(action, standing, from, proposal, expected);
    // Every move e-mails the participants: counted per user, on the page and the API alike.
    await admit(ctx, 'state', actor.userName);
    const at = now().toISOString();
    const to: ProjectState = TRANSITIONS[action].to;
    const { version, answeredFee } = await k
      .transaction()
      .execute((trx) => recordMove(trx, actor, id, { action, from, to, at }, proposal, expected));
    if ((action === 'accept' || action === 'decline') && version !== null) {
      await deps.audit?.record({
        action: action === 'accept' ? 'proposal_accepted' : 'proposal_declined',
        actor: actor.userName,
        ip: expected.ip ?? null,
        detail: { project: id, version, fee: answeredFee },
      });
    }
    // A proposal is news for the company's people (its own e-mail); the others hear of the move.
    if (action === 'send_proposal')
      await announce(ctx, 'proposal_sent', actor, row, { company: true }, version !== null ? { version } : {});
    await announce(ctx, 'state_changed', actor, row, action === 'send_proposal' ? { experts: true, admins: true } : EVERYONE, { from, to });
    await touched(ctx, row);
    return getProject(ctx, actor, id);
  }

  return { create, act };
}

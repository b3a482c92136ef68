// The projects of the private area (docs/specification.md §17): briefs, proposals, the state machine,
// experts, milestones and the history — every rule enforced here, for the API and the pages
// alike, with the caller as they are now. Conversation and documents: conversation.ts.
//
// The read model lives in parts that share one context (context.ts: the database, the clock, the
// caches, the limits and the callbacks of the composition): lists.ts (lists, the dashboards'
// waiting list, the calendar feed), detail.ts (a project's page), unread.ts (the navbar's badge),
// queries.ts (what they share) and snapshot.ts (what the documents read: the history, the names
// it mentions, the PDF's snapshot).
import { canonicalIdentity } from '../../shared/identity.ts';
import { isWritable, OPEN_STATES, ownsProjects, PROJECT_LIMITS, TRANSITIONS } from '../../shared/projects.ts';
import type { Project, ProjectAction, ProjectState, Standing } from '../../shared/projects.ts';
import { hasRole } from '../../shared/user.ts';
import type { Db } from '../db/index.ts';
import type { ProjectRow } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { displayName, projectFor, type Actor } from './access.ts';
import {
  admit as admitFor,
  conflict,
  forbidden,
  lockProject as lockIn,
  MILESTONE_COLLAPSE_MS,
  projectContext,
  readOnly,
  type Admitted,
  type ProjectDeps,
} from './context.ts';
import { createProjectDetail } from './detail.ts';
import { recordProjectEvent } from './events.ts';
import { createProjectLists } from './lists.ts';
import type { ProjectNoticeInput, ProjectNoticeKind } from './notices.ts';
import type { Brief, ProposalInput } from './schemas.ts';
import { createProjectSnapshots } from './snapshot.ts';
import { createUnreadCounts } from './unread.ts';
import { ensureMembership, memberNames } from '../companies/companies.ts';

export { MILESTONE_COLLAPSE_MS, UNREAD_CACHE_MS, type ProjectDeps, type ProjectLimits } from './context.ts';
export type { ListQuery } from './lists.ts';
export type { ProjectSnapshot } from './snapshot.ts';

export function createProjects(deps: ProjectDeps) {
  const ctx = projectContext(deps);
  const { db, k, now } = ctx;
  const { list, waiting, calendar } = createProjectLists(ctx);
  const { get, openMilestoneCount } = createProjectDetail(ctx);
  const { history, namesOf, snapshot } = createProjectSnapshots(ctx);
  const { unreadTotal, forgetUnread } = createUnreadCounts(ctx);
  /** Counts one action of the user against its limit; a 429 with Retry-After past it (nothing is done). */
  const admit = (kind: Admitted, userName: string): Promise<void> => admitFor(ctx, kind, userName);
  const lockProject = (trx: Db['k'], id: number) => lockIn(ctx, trx, id);

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

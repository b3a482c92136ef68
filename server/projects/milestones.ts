// A project's milestones, kept by the company's side of the work (admins) and its experts while
// the project is writable: added up to PROJECT_LIMITS.milestonesPerProject, done and reopened.
// One user's toggles of one milestone within the collapse window are one history line and one
// notice (PROJECT_MILESTONE_COLLAPSE_MINUTES: a burst of toggles never floods the history).
import { canonicalIdentity } from '../../shared/identity.ts';
import { isWritable, PROJECT_LIMITS, type Project, type ProjectState, type Standing } from '../../shared/projects.ts';
import type { Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
import { displayName, projectFor, type Actor } from './access.ts';
import { announce, touched } from './announce.ts';
import { EVERYONE } from './audience.ts';
import { admit, forbidden, lockProject, MILESTONE_COLLAPSE_MS, readOnly, type ProjectContext } from './context.ts';
import { getProject } from './detail.ts';
import { recordProjectEvent } from './events.ts';

function requireCrew(standing: Standing) {
  if (standing === 'manager' || standing === 'member') throw forbidden('Milestones are kept by the company and its experts');
}

/**
 * Inside the toggle's transaction: the milestone marked (unless someone else just did), and its
 * history line, or, when it undoes the same user's change of a moment ago, that line removed.
 */
async function recordToggle(
  trx: Db['k'],
  actor: Actor,
  id: number,
  milestoneId: number,
  title: string,
  done: boolean,
  moment: Date,
  collapseMs: number,
): Promise<'unchanged' | 'undone' | 'recorded'> {
  const at = moment.toISOString();
  const kind = done ? 'milestone_done' : 'milestone_reopened';
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
  await recordProjectEvent(trx, id, actor, at, { kind, detail: title, milestoneId });
  return 'recorded';
}

export function createMilestones(ctx: ProjectContext) {
  const { db, k, deps, now } = ctx;

  async function addMilestone(actor: Actor, id: number, input: { title: string; dueDate?: string | null | undefined }): Promise<Project> {
    const { row, standing } = await projectFor(db, actor, id);
    requireCrew(standing);
    if (!isWritable(row.state as ProjectState)) throw readOnly();
    await admit(ctx, 'milestone', actor.userName);
    const at = now().toISOString();
    await k.transaction().execute(async (trx) => {
      // Counted under the project's lock: two additions at once cannot pass the rule together.
      await lockProject(ctx, trx, id);
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
    await touched(ctx, row);
    return getProject(ctx, actor, id);
  }

  /**
   * Done or not done. One user's toggles of one milestone within the collapse window are one
   * history line and one notice: the notice of "done" is held for the window, and
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
    if (Boolean(milestone.done_at) === done) return getProject(ctx, actor, id);
    await admit(ctx, 'milestone', actor.userName);
    const collapseMs = deps.milestoneCollapseMs ?? MILESTONE_COLLAPSE_MS;
    const moment = now();
    const outcome = await k
      .transaction()
      .execute((trx) => recordToggle(trx, actor, id, milestoneId, milestone.title, done, moment, collapseMs));
    const ref = `milestone:${milestoneId}`;
    // A notice of "done" not yet sent says what is no longer so: it goes, whoever reopened.
    if (outcome !== 'unchanged' && !done) await deps.withdraw?.(ref);
    if (outcome === 'unchanged') return getProject(ctx, actor, id);
    if (outcome === 'recorded' && done) {
      await announce(ctx, 'milestone_done', actor, row, EVERYONE, {
        milestone: milestone.title,
        ...(collapseMs > 0 ? { hold: { ref, ms: collapseMs } } : {}),
      });
    }
    await touched(ctx, row);
    return getProject(ctx, actor, id);
  }

  return { addMilestone, setMilestoneDone };
}

// A project's team: the experts an admin assigns (the site's CONS users, or a profile saved
// through the external API) up to PROJECT_LIMITS.expertsPerProject, and removes; the company's
// people hear of a new expert, everyone's open page reads the change.
import { OPEN_STATES, PROJECT_LIMITS, type Project, type ProjectState } from '../../shared/projects.ts';
import type { ProjectRow } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { projectFor, type Actor } from './access.ts';
import { announce, touched } from './announce.ts';
import { forbidden, lockProject, readOnly, type ProjectContext } from './context.ts';
import { getProject } from './detail.ts';
import { recordProjectEvent } from './events.ts';

function requireOpen(row: ProjectRow) {
  if (!OPEN_STATES.includes(row.state as ProjectState)) throw readOnly();
}

/** An expert (CONS) by user name: the site's users first, else a profile they saved (external API). */
async function findExpert(ctx: ProjectContext, userName: string): Promise<{ userName: string; name: string } | null> {
  const { k } = ctx;
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

export function createTeam(ctx: ProjectContext) {
  const { db, k, now } = ctx;

  async function assignExpert(actor: Actor, id: number, userName: string): Promise<Project> {
    const { row, standing } = await projectFor(db, actor, id);
    if (standing !== 'admin') throw forbidden('Only administrators assign experts');
    requireOpen(row);
    const expert = await findExpert(ctx, userName);
    if (!expert) {
      throw new ApiError(422, 'unknown_expert', `No expert with the user name "${userName}"`, { userName: 'validation.unknownExpert' });
    }
    const at = now().toISOString();
    const added = await k.transaction().execute(async (trx) => {
      // Counted under the project's lock: two admins assigning at once cannot pass the rule together.
      await lockProject(ctx, trx, id);
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
      // The expert and the company hear of it; everyone's page reads it again.
      await announce(ctx, 'expert_assigned', actor, row, { company: true, experts: [expert.userName] }, { expert: expert.name });
      await touched(ctx, row);
    }
    return getProject(ctx, actor, id);
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
    await touched(ctx, row, [userName]);
    return getProject(ctx, actor, id);
  }

  return { assignExpert, removeExpert };
}

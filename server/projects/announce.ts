// How a change of a project is told, once it is committed: who hears of it (the company's
// people, the assigned experts, the admins), the notices built for them (notices.ts: what the
// mail module receives; never to the one who acted) and the open pages that read it again.
import { canonicalIdentity } from '../../shared/identity.ts';
import { memberNames } from '../companies/companies.ts';
import type { ProjectRow } from '../db/schema.ts';
import { displayName, type Actor } from './access.ts';
import type { ProjectContext } from './context.ts';
import type { ProjectNoticeInput, ProjectNoticeKind } from './notices.ts';

type ProjectRef = Pick<ProjectRow, 'id' | 'company_id'>;
/** What a notice says besides its kind, project, actor and recipients. */
type NoticeExtra = Pick<ProjectNoticeInput, 'from' | 'to' | 'milestone' | 'excerpt' | 'document' | 'hold'>;

export async function adminNames(ctx: ProjectContext): Promise<string[]> {
  const rows = await ctx.k.selectFrom('users').select('user_name').where('role', '=', 'ADMIN').where('disabled', '=', 0).execute();
  return rows.map((r) => r.user_name);
}

/** The participants, with the company's people apart (a proposal is their news). */
export async function participantsOf(ctx: ProjectContext, row: ProjectRef): Promise<{ company: string[]; everyone: string[] }> {
  const { k } = ctx;
  const [company, experts, admins] = await Promise.all([
    memberNames(k, row.company_id),
    k.selectFrom('project_experts').select('user_name').where('project_id', '=', row.id).execute(),
    adminNames(ctx),
  ]);
  return { company, everyone: [...company, ...experts.map((e) => e.user_name), ...admins] };
}

/** The company's people (its projects' side of a project), assigned experts and admins: who hears about what happens to a project. */
export async function participants(ctx: ProjectContext, row: ProjectRef): Promise<string[]> {
  return (await participantsOf(ctx, row)).everyone;
}

/**
 * The project changed (after the change was committed): the open pages of everyone who sees it
 * — `extra` too: an expert just removed — read it again (the live streams, server/live/).
 */
export async function touched(ctx: ProjectContext, row: ProjectRef, people?: readonly string[], extra: readonly string[] = []) {
  const { deps } = ctx;
  if (!deps.live) return;
  // A convenience for open pages: the change is committed, and never fails for it (Tell logs its own failures).
  const everyone = people ?? (await participants(ctx, row).catch(() => []));
  await deps.live([...everyone, ...extra], { what: 'project', projectId: row.id });
}

/**
 * Queues the e-mails of a change (after it was committed): the caller's answer waits for the
 * queue, not for the mail server, so an OK means the e-mails are on their way. A queue that
 * fails is logged by `notify`, never the change's failure.
 */
export async function announce(
  ctx: ProjectContext,
  kind: ProjectNoticeKind,
  actor: Actor,
  project: { id: number; title: string },
  recipients: string[],
  extra: NoticeExtra = {},
) {
  const others = [...new Set(recipients.map(canonicalIdentity))].filter((r) => r !== canonicalIdentity(actor.userName));
  if (others.length === 0) return;
  await ctx.deps.notify({ kind, project, actor: { userName: actor.userName, name: displayName(actor) }, recipients: others, ...extra });
}

/** The notices as the service offers them (the conversation tells its changes with them). */
export function createProjectNotices(ctx: ProjectContext) {
  return {
    participants: (row: ProjectRef): Promise<string[]> => participants(ctx, row),
    announce: (
      kind: ProjectNoticeKind,
      actor: Actor,
      project: { id: number; title: string },
      recipients: string[],
      extra: NoticeExtra = {},
    ): Promise<void> => announce(ctx, kind, actor, project, recipients, extra),
    touched: (row: ProjectRef, people?: readonly string[], extra: readonly string[] = []): Promise<void> =>
      touched(ctx, row, people, extra),
  };
}

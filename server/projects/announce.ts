// How a change of a project is told, once it is committed: a notice for an audience (which of
// the project's people hear of it: audience.ts; never the one who acted) and the open pages that
// read it again. Both are queued and fanned out off the request path, a batch at a time, to whoever
// may see the project when they are told (server/fan-out/, docs/decisions/052).
import type { ProjectRow } from '../db/schema.ts';
import { displayName, type Actor } from './access.ts';
import type { Audience } from './audience.ts';
import type { ProjectContext } from './context.ts';
import type { ProjectNoticeInput, ProjectNoticeKind } from './notices.ts';

type ProjectRef = Pick<ProjectRow, 'id'>;
/** What a notice says besides its kind, project, actor and audience. */
type NoticeExtra = Pick<ProjectNoticeInput, 'from' | 'to' | 'milestone' | 'excerpt' | 'document' | 'expert' | 'version' | 'hold'>;

/**
 * The project changed (after the change was committed): the open pages of everyone who sees it
 * read it again (the live streams, server/live/) — and those of `extra` now: an expert just
 * removed, whose page finds it gone.
 */
export async function touched(ctx: ProjectContext, row: ProjectRef, extra: readonly string[] = []) {
  const { deps } = ctx;
  await deps.touch?.(row.id);
  if (extra.length > 0) await deps.live?.(extra, { what: 'project', projectId: row.id });
}

/**
 * Queues the notice of a change (after it was committed): the caller's answer waits for one
 * insert, not for its recipients, so an OK means the notice is on its way. A queue that fails
 * is logged by `notify`, never the change's failure.
 */
export async function announce(
  ctx: ProjectContext,
  kind: ProjectNoticeKind,
  actor: Actor,
  project: { id: number; title: string },
  audience: Audience,
  extra: NoticeExtra = {},
) {
  await ctx.deps.notify({
    kind,
    project: { id: project.id, title: project.title },
    actor: { userName: actor.userName, name: displayName(actor) },
    audience,
    ...extra,
  });
}

/** The notices as the service offers them (the conversation tells its changes with them). */
export function createProjectNotices(ctx: ProjectContext) {
  return {
    announce: (
      kind: ProjectNoticeKind,
      actor: Actor,
      project: { id: number; title: string },
      audience: Audience,
      extra: NoticeExtra = {},
    ): Promise<void> => announce(ctx, kind, actor, project, audience, extra),
    touched: (row: ProjectRef, extra: readonly string[] = []): Promise<void> => touched(ctx, row, extra),
  };
}

// What a project's documents read (the PDFs of server/pdf/, and the history of its page): its
// history a page at a time, the display names of the people it names, and the snapshot a
// document is made from.
import { canonicalIdentity } from '../../shared/identity.ts';
import { cursorPageOf, pageSizeOf } from '../../shared/paging.ts';
import type { EventPage, Project, ProjectEvent, ProjectState } from '../../shared/projects.ts';
import { projectFor, type Actor } from './access.ts';
import type { ProjectContext } from './context.ts';
import { projectDetail } from './detail.ts';

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

/** The `limit` newest events of a project older than event `before` (all when null), newest first. */
async function eventRows(ctx: ProjectContext, id: number, before: number | null, limit: number): Promise<ProjectEvent[]> {
  let query = ctx.k.selectFrom('project_events').selectAll().where('project_id', '=', id);
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

export function createProjectSnapshots(ctx: ProjectContext) {
  const { db, k } = ctx;

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
    const rows = await eventRows(ctx, id, before, pageSize + 1);
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
      projectDetail(ctx, actor, row, standing, newest),
      newest > 0 ? eventRows(ctx, id, null, newest).then((rows) => rows.reverse()) : Promise.resolve([]),
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

  return { history, namesOf, snapshot };
}

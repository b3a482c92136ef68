// Who may see a project: its owner, its assigned experts and admins. Everyone
// else is told it does not exist (404), whatever they ask of it: the page, the API, a document.
// Decided from the user as they are now (the session's current user) on every read and write.
import { sameIdentity } from '../../shared/identity.ts';
import { idOf } from '../../shared/paging.ts';
import { hasRole, type SessionUser } from '../../shared/user.ts';
import { ownsProjects, type Standing } from '../../shared/projects.ts';
import type { Db } from '../db/index.ts';
import type { ProjectRow } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';

/** The caller: the signed-in user as the session knows them now. */
export type Actor = Pick<SessionUser, 'userName' | 'role' | 'name' | 'lastName'>;

export function displayName(actor: Pick<SessionUser, 'name' | 'lastName' | 'userName'>): string {
  return `${actor.name} ${actor.lastName}`.trim() || actor.userName;
}

export function projectNotFound(): ApiError {
  return new ApiError(404, 'not_found', 'No such project');
}

/** A project id from a URL: a positive integer that fits the column, else no such project. */
export function projectId(raw: unknown): number {
  const id = idOf(typeof raw === 'string' ? raw : '');
  if (id === null) throw projectNotFound();
  return id;
}

/**
 * The project and how the actor stands to it, or 404. Admin first: an admin who also owns a
 * project (a role change) acts on it as an admin. Names are compared as stored, in their
 * canonical form (shared/identity.ts): the session's user name and the project's owner are
 * both the database's, so a look-alike spelling never matches (issue 23, L1).
 */
export async function projectFor(db: Db, actor: Actor, id: number): Promise<{ row: ProjectRow; standing: Standing }> {
  const row = await db.k.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw projectNotFound();
  if (hasRole(actor, 'ADMIN')) return { row, standing: 'admin' };
  if (ownsProjects(actor) && sameIdentity(row.owner, actor.userName)) return { row, standing: 'owner' };
  if (hasRole(actor, 'CONS')) {
    const assigned = await db.k
      .selectFrom('project_experts')
      .select('user_name')
      .where('project_id', '=', id)
      .where('user_name', '=', actor.userName)
      .executeTakeFirst();
    if (assigned) return { row, standing: 'expert' };
  }
  throw projectNotFound();
}

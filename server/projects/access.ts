// Who may see a project: the people of the company that owns it (its manager and members), its
// assigned experts and admins. Everyone else is told it does not exist (404), whatever they ask
// of it: the page, the API, a document. Decided from the user as they are now (the session's
// current user) and from who is in the company now (company_members), on every read and write.
import { canonicalIdentity } from '../../shared/identity.ts';
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
 * The project and how the actor stands to it, or 404. Admin first: an admin who also belongs to
 * a company (a role change) acts on it as an admin. A client or organisation user stands in it
 * as their company's manager or member when the project is their company's, read in the same
 * query. Names are compared in their canonical form (shared/identity.ts), so a look-alike
 * spelling never matches (docs/decisions/029).
 */
export async function projectFor(
  db: Db,
  actor: Actor,
  id: number,
): Promise<{ row: ProjectRow & { company_name: string | null }; standing: Standing }> {
  const found = await db.k
    .selectFrom('projects as p')
    .leftJoin('company_members as m', (join) =>
      join.onRef('m.company_id', '=', 'p.company_id').on('m.user_name', '=', canonicalIdentity(actor.userName)),
    )
    .leftJoin('companies as c', 'c.id', 'p.company_id')
    .selectAll('p')
    .select(['m.role as company_role', 'c.name as company_name'])
    .where('p.id', '=', id)
    .executeTakeFirst();
  if (!found) throw projectNotFound();
  const { company_role: companyRole, ...row } = found;
  if (hasRole(actor, 'ADMIN')) return { row, standing: 'admin' };
  if (ownsProjects(actor) && companyRole) return { row, standing: companyRole };
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

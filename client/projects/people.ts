// The people of a project's page by the names it knows them by: milestones and documents carry
// only a user name (who ticked, who uploaded), which readers should not have to decode.
import { isDeletedUser } from '../../shared/account.ts';
import { canonicalIdentity } from '../../shared/identity.ts';
import type { Project } from '../../shared/projects.ts';

/**
 * A user name → the person's name on this project (`names`: the server's, for the people its
 * documents and milestones name; the owner and experts as the project records them), else the
 * user name; a deleted account's traces → `deletedLabel` ("Deleted user" in the reader's language).
 */
export function projectNames(
  project: Project,
  names: Readonly<Record<string, string>>,
  deletedLabel: string,
): (userName: string) => string {
  const known = new Map(Object.entries(names));
  // The project's own record wins: the names the owner and the experts have on it.
  for (const person of [project.owner, ...project.experts]) known.set(canonicalIdentity(person.userName), person.name);
  return (userName) => (isDeletedUser(userName) ? deletedLabel : known.get(canonicalIdentity(userName)) || userName);
}

// The people of a project's page by the names it knows them by: milestones and documents carry
// only a user name (who ticked, who uploaded), which readers should not have to decode.
import { isDeletedUser } from '../../shared/account.ts';
import type { MessagePage, Project } from '../../shared/projects.ts';

/**
 * A user name → the person's name on this project (owner, experts, history, messages), else the
 * user name; a deleted account's traces → `deletedLabel` ("Deleted user" in the reader's language).
 */
export function projectNames(project: Project, messages: MessagePage | null, deletedLabel: string): (userName: string) => string {
  const names = new Map<string, string>();
  for (const e of project.events) if (e.actorName) names.set(e.actor.toLowerCase(), e.actorName);
  for (const m of messages?.items ?? []) names.set(m.author.userName.toLowerCase(), m.author.name);
  // The project's own record wins: the names the owner and the experts have on it.
  for (const person of [project.owner, ...project.experts]) names.set(person.userName.toLowerCase(), person.name);
  return (userName) => (isDeletedUser(userName) ? deletedLabel : names.get(userName.toLowerCase()) || userName);
}

// The projects of the private area (docs/specification.md §17): briefs, proposals, the state machine,
// experts, milestones and the history — every rule enforced here, for the API and the pages
// alike, with the caller as they are now. Conversation and documents: conversation.ts.
//
// This module composes the service from its parts, which share one context (context.ts: the
// database, the clock, the caches, the limits and the callbacks of the composition):
//   - the read model: lists.ts (lists, the dashboards' waiting list, the calendar feed),
//     detail.ts (a project's page), unread.ts (the navbar's badge), queries.ts (what they share);
//   - snapshot.ts: what the documents read (the history, the names it mentions, the PDF's snapshot);
//   - transitions.ts: briefs and the state machine's moves with their checks;
//   - team.ts: the experts; milestones.ts: the milestones;
//   - announce.ts and audience.ts: who hears of a change and how, once it is committed (notices, live pages).
import { createProjectNotices } from './announce.ts';
import { admit, projectContext, type Admitted, type ProjectDeps } from './context.ts';
import { createProjectDetail } from './detail.ts';
import { createProjectLists } from './lists.ts';
import { createMilestones } from './milestones.ts';
import { createProjectSnapshots } from './snapshot.ts';
import { createTeam } from './team.ts';
import { createTransitions } from './transitions.ts';
import { createUnreadCounts } from './unread.ts';

export { MILESTONE_COLLAPSE_MS, UNREAD_CACHE_MS, type ProjectDeps, type ProjectLimits } from './context.ts';
export type { ListQuery } from './lists.ts';
export type { ProjectSnapshot } from './snapshot.ts';

export function createProjects(deps: ProjectDeps) {
  const ctx = projectContext(deps);
  const { list, waiting, calendar } = createProjectLists(ctx);
  const { get, openMilestoneCount } = createProjectDetail(ctx);
  const { history, namesOf, snapshot } = createProjectSnapshots(ctx);
  const { create, act } = createTransitions(ctx);
  const { assignExpert, removeExpert } = createTeam(ctx);
  const { addMilestone, setMilestoneDone } = createMilestones(ctx);
  const { unreadTotal, forgetUnread } = createUnreadCounts(ctx);
  const { announce, touched } = createProjectNotices(ctx);

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
    announce,
    touched,
    /** Counts one action of the user against its limit; a 429 with Retry-After past it (nothing is done). */
    admit: (kind: Admitted, userName: string): Promise<void> => admit(ctx, kind, userName),
  };
}

export type Projects = ReturnType<typeof createProjects>;

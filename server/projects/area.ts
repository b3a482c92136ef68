// A role area's projects as its dashboard shows them (/client, /organization, /expert, and the
// admin's pipeline): what waits for the user first, then a page of their projects, filtered by
// the URL's query (`?status=&practice=&q=&page=`).
import type { AreaProjects } from '../../shared/page-data.ts';
import { SEARCH_MAX_LENGTH } from '../../shared/paging.ts';
import { isPractice, isProjectState } from '../../shared/projects.ts';
import { pageNumber } from '../http/paging.ts';
import type { Actor } from './access.ts';
import type { ProjectServices } from './index.ts';

/** How many projects the "waiting for you" list shows at most. */
const WAITING_SHOWN = 10;

export async function areaProjects(projects: ProjectServices, actor: Actor, query: URLSearchParams): Promise<AreaProjects> {
  const status = query.get('status');
  const practice = query.get('practice');
  const q = (query.get('q') ?? '').trim().slice(0, SEARCH_MAX_LENGTH);
  const filter = { status: isProjectState(status) ? status : null, practice: isPractice(practice) ? practice : null, q };
  const list = await projects.projects.list(actor, {
    status: filter.status ?? undefined,
    practice: filter.practice ?? undefined,
    q: filter.q || undefined,
    page: pageNumber(query),
  });
  // Most users' projects fit on one page: what waits for them is then among these rows.
  const allShown = !filter.status && !filter.practice && !filter.q && list.page === 1 && list.total <= list.items.length;
  const waiting = allShown
    ? list.items.filter((p) => p.waiting).slice(0, WAITING_SHOWN)
    : await projects.projects.waiting(actor, WAITING_SHOWN);
  return { waiting, projects: list, filter };
}

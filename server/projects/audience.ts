// Who hears of a change of a project: its people as access.ts decides who may see it, read when
// the notice is told rather than when the change was made (docs/decisions/052). A person is told
// only while they could open the project: a company's manager or member with a client's or
// organisation's role, an assigned expert who is still an expert, an administrator — each with an
// enabled account whose invitation was accepted (an address a client typed and nobody confirmed
// hears nothing). People known only to an external API (no row in `users`) are told as before:
// the site cannot tell their state. Read a page at a time, each group by user name, so that a
// company of thousands costs as many small queries as it has pages.
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';

/** Which of a project's people a notice is for. */
export type Audience = {
  /** The people of the project's company: its manager and members. */
  company?: boolean;
  /** Its assigned experts: all of them, or only these among them. */
  experts?: boolean | readonly string[];
  /** The site's administrators. */
  admins?: boolean;
};

/** Everyone who sees the project. */
export const EVERYONE: Audience = { company: true, experts: true, admins: true };

/** The groups, in the order a fan-out walks them. */
const GROUPS = ['company', 'experts', 'admins'] as const;

/** Where a walk through an audience stands: the group (an index of GROUPS) and the last user name read in it. */
export type AudienceCursor = { group: number; after: string };

export const AUDIENCE_START: AudienceCursor = { group: 0, after: '' };

type K = Db['k'];
type Project = { id: number; company_id: number | null };

/** A person of the group `u` (their users row, left-joined) may be told: no row (an external API's), or one that may sign in with a role of `roles`. */
function mayBeTold(roles: readonly string[]) {
  return sql<boolean>`(u.user_name IS NULL OR (u.role IN (${sql.join(roles)}) AND u.disabled = 0 AND u.invited_at IS NULL))`;
}

/** One group's people after `after`, by user name, at most `limit`; `except` (the actor) left out. */
async function groupPage(
  k: K,
  group: (typeof GROUPS)[number],
  project: Project,
  audience: Audience,
  page: { after: string; limit: number; except: string | null },
): Promise<string[]> {
  const { after, limit, except } = page;
  let rows: { name: string }[];
  if (group === 'admins') {
    rows = await k
      .selectFrom('users')
      .select('user_name as name')
      .where('role', '=', 'ADMIN')
      .where('disabled', '=', 0)
      .where('invited_at', 'is', null)
      .where('user_name', '>', after)
      .$if(except !== null, (q) => q.where('user_name', '!=', except!))
      .orderBy('user_name')
      .limit(limit)
      .execute();
  } else if (group === 'company') {
    rows = await k
      .selectFrom('company_members as p')
      .leftJoin('users as u', 'u.user_name', 'p.user_name')
      .select('p.user_name as name')
      .where('p.company_id', '=', project.company_id ?? -1)
      .where('p.user_name', '>', after)
      .where(mayBeTold(['CLI', 'ORG']))
      .$if(except !== null, (q) => q.where('p.user_name', '!=', except!))
      .orderBy('p.user_name')
      .limit(limit)
      .execute();
  } else {
    const only = Array.isArray(audience.experts) ? (audience.experts as readonly string[]) : null;
    rows = await k
      .selectFrom('project_experts as p')
      .leftJoin('users as u', 'u.user_name', 'p.user_name')
      .select('p.user_name as name')
      .where('p.project_id', '=', project.id)
      .$if(only !== null, (q) => q.where('p.user_name', 'in', only!))
      .where('p.user_name', '>', after)
      .where(mayBeTold(['CONS']))
      .$if(except !== null, (q) => q.where('p.user_name', '!=', except!))
      .orderBy('p.user_name')
      .limit(limit)
      .execute();
  }
  return rows.map((row) => row.name);
}

function wants(audience: Audience, group: (typeof GROUPS)[number], project: Project): boolean {
  if (group === 'company') return Boolean(audience.company) && project.company_id !== null;
  if (group === 'experts') return Array.isArray(audience.experts) ? audience.experts.length > 0 : Boolean(audience.experts);
  return Boolean(audience.admins);
}

/**
 * The next page of the audience from `cursor`: at most `limit` user names (canonical, as the
 * tables keep them), and where the next page starts (null: none is left). A page is one group's.
 */
export async function audiencePage(
  k: K,
  project: Project,
  audience: Audience,
  cursor: AudienceCursor,
  limit: number,
  except: string | null = null,
): Promise<{ names: string[]; next: AudienceCursor | null }> {
  for (let group = cursor.group, after = cursor.after; group < GROUPS.length; group++, after = '') {
    if (!wants(audience, GROUPS[group]!, project)) continue;
    const names = await groupPage(k, GROUPS[group]!, project, audience, { after, limit, except });
    if (names.length === 0) continue;
    if (names.length === limit) return { names, next: { group, after: names.at(-1)! } };
    return { names, next: group + 1 < GROUPS.length ? { group: group + 1, after: '' } : null };
  }
  return { names: [], next: null };
}

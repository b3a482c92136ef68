// The read model's unread counts: the navbar's badge, the messages a user has not read over every
// project they see, kept a few seconds per user in this process (UNREAD_CACHE_MS) and forgotten
// at once by what the user reads or writes here.
import { sql } from 'kysely';
import { canonicalIdentity } from '../../shared/identity.ts';
import { UNREAD_BADGE_MAX } from '../../shared/projects.ts';
import type { Actor } from './access.ts';
import { UNREAD_CACHE_MS, type ProjectContext } from './context.ts';
import { visible } from './queries.ts';

export function createUnreadCounts(ctx: ProjectContext) {
  const { k, unreadCache } = ctx;

  /** Messages the actor has not read over every project they see, up to UNREAD_BADGE_MAX (the navbar's badge). */
  async function unreadTotal(actor: Actor): Promise<number> {
    const key = canonicalIdentity(actor.userName);
    const cached = unreadCache.get(key);
    if (cached?.fresh) return cached.value;
    const q = visible(k, actor);
    if (!q) return 0;
    // Counted by the database up to the badge's maximum: one row, and the reading stops there
    // (an admin sees every project, and may have read none of their messages).
    const unread = q
      .innerJoin('project_messages as m', 'm.project_id', 'p.id')
      .where('m.author', '!=', actor.userName)
      .where('m.id', '>', (eb) =>
        eb.fn.coalesce(
          eb
            .selectFrom('project_reads as r')
            .select('r.last_read_id')
            .whereRef('r.project_id', '=', 'p.id')
            .where('r.user_name', '=', actor.userName),
          sql<number>`0`,
        ),
      )
      .select(sql<number>`1`.as('one'))
      .limit(UNREAD_BADGE_MAX);
    const row = await k
      .selectFrom(unread.as('u'))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const value = Number(row.total);
    unreadCache.set(key, value, UNREAD_CACHE_MS);
    return value;
  }

  /** The user read or wrote something: their badge is counted again on the next page. */
  function forgetUnread(userName: string) {
    unreadCache.delete(canonicalIdentity(userName));
  }

  return { unreadTotal, forgetUnread };
}

// The experts' profiles: practices, a short bio, a day rate and availability.
// Each expert keeps their own; admins read them to choose whom to assign.
import { sql } from 'kysely';
import { PAGE_NUMBER_MAX, pageSizeOf } from '../../shared/paging.ts';
import { PRACTICES, type Availability, type Expertise, type ExpertPage, type Practice } from '../../shared/projects.ts';
import { hasRole } from '../../shared/user.ts';
import type { Db } from '../db/index.ts';
import { createReadCache } from '../db/read-cache.ts';
import type { ExpertiseTable } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { displayName, type Actor } from './access.ts';
import type { ExpertiseInput } from './schemas.ts';

function practicesOf(json: string): Practice[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? PRACTICES.filter((p) => parsed.includes(p)) : [];
  } catch {
    return [];
  }
}

/** A profile as stored; a site user who has not written theirs yet has no `updated_at`. */
function toExpertise(row: Omit<ExpertiseTable, 'updated_at'> & { updated_at: string | null }): Expertise {
  return {
    userName: row.user_name,
    name: row.name,
    practices: practicesOf(row.practices),
    bio: row.bio,
    dayRate: row.day_rate === null ? null : Number(row.day_rate),
    availability: row.availability as Availability,
    busyUntil: row.busy_until,
    updatedAt: row.updated_at,
  };
}

/** Which experts an admin asks for: a practice, only the available ones, a name, and a page. */
export type ExpertQuery = {
  practice?: Practice | undefined;
  available?: boolean | undefined;
  /** Part of the user name or the name, whatever the case. */
  q?: string | undefined;
  /** Ranks the experts of this practice first, then the available ones (a project's candidates). */
  rankFor?: Practice | undefined;
  /** Leaves out the experts already assigned to this project. */
  notOn?: number | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
};

function requireExpert(actor: Actor) {
  if (!hasRole(actor, 'CONS')) throw new ApiError(403, 'forbidden', 'Only experts have a profile of expertise');
}

export function createExpertise(deps: { db: Db; now?: () => Date }) {
  const { k } = deps.db;
  const now = () => (deps.now ?? (() => new Date()))();
  // The expert's area shows their profile on every load (db/read-cache.ts).
  const profiles = createReadCache<Expertise>(deps.db, { tables: ['expertise'] });

  async function mine(actor: Actor): Promise<Expertise> {
    requireExpert(actor);
    // Without a row, the profile is named after the user as they are now: their name is in the key.
    return profiles.get(JSON.stringify([actor.userName, displayName(actor)]), async () => {
      const row = await k.selectFrom('expertise').selectAll().where('user_name', '=', actor.userName).executeTakeFirst();
      if (row) return toExpertise(row);
      return {
        userName: actor.userName,
        name: displayName(actor),
        practices: [],
        bio: '',
        dayRate: null,
        availability: 'available',
        busyUntil: null,
        updatedAt: null,
      };
    });
  }

  async function save(actor: Actor, input: ExpertiseInput): Promise<Expertise> {
    requireExpert(actor);
    const row: ExpertiseTable = {
      user_name: actor.userName,
      name: displayName(actor),
      practices: JSON.stringify(PRACTICES.filter((p) => input.practices.includes(p))),
      bio: input.bio,
      day_rate: input.dayRate,
      availability: input.availability,
      busy_until: input.availability === 'busy' ? (input.busyUntil ?? null) : null,
      updated_at: now().toISOString(),
    };
    await k
      .insertInto('expertise')
      .values(row)
      .onConflict((oc) => oc.column('user_name').doUpdateSet({ ...row, user_name: undefined }))
      .execute();
    return toExpertise(row);
  }

  /**
   * A page of the experts an admin may assign: every enabled CONS user of the site with their
   * profile (empty when not written yet), and the profiles of experts known only through an
   * external API — filtered, ranked and paged by the database, so that a page costs the same
   * however many experts there are.
   */
  async function experts(actor: Actor, query: ExpertQuery = {}): Promise<ExpertPage> {
    if (!hasRole(actor, 'ADMIN')) throw new ApiError(403, 'forbidden', 'Only administrators list experts');
    const page = Math.min(Math.max(1, Math.floor(query.page ?? 1)), PAGE_NUMBER_MAX);
    const pageSize = pageSizeOf('experts', query.pageSize);
    const today = now().toISOString().slice(0, 10);
    const site = k
      .selectFrom('users')
      .leftJoin('expertise', 'expertise.user_name', 'users.user_name')
      .select([
        'users.user_name as user_name',
        sql<string>`users.name || ' ' || users.last_name`.as('name'),
        sql<string>`coalesce(expertise.practices, '[]')`.as('practices'),
        sql<string>`coalesce(expertise.bio, '')`.as('bio'),
        sql<number | null>`expertise.day_rate`.as('day_rate'),
        sql<string>`coalesce(expertise.availability, 'available')`.as('availability'),
        sql<string | null>`expertise.busy_until`.as('busy_until'),
        sql<string | null>`expertise.updated_at`.as('updated_at'),
      ])
      .where('users.role', '=', 'CONS')
      .where('users.disabled', '=', 0);
    // Profiles of people who are not the site's users (an external API's experts).
    const external = k
      .selectFrom('expertise')
      .select([
        'user_name',
        'name',
        'practices',
        'bio',
        sql<number | null>`day_rate`.as('day_rate'),
        'availability',
        sql<string | null>`busy_until`.as('busy_until'),
        sql<string | null>`updated_at`.as('updated_at'),
      ])
      .where('user_name', 'not in', k.selectFrom('users').select('user_name'));
    const available = sql<boolean>`(x.availability = 'available' or (x.busy_until is not null and x.busy_until < ${today}))`;
    let q = k.selectFrom(site.unionAll(external).as('x'));
    // Practices are stored as a JSON array of known names: '["data","digital"]'.
    if (query.practice) q = q.where(sql<boolean>`x.practices like ${`%"${query.practice}"%`}`);
    if (query.available) q = q.where(available);
    const text = query.q?.trim().toLowerCase();
    if (text) {
      const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) =>
        eb.or([eb(sql`lower(x.user_name)`, 'like', sql`${like} ESCAPE '\\'`), eb(sql`lower(x.name)`, 'like', sql`${like} ESCAPE '\\'`)]),
      );
    }
    if (query.notOn !== undefined) {
      q = q.where('x.user_name', 'not in', k.selectFrom('project_experts').select('user_name').where('project_id', '=', query.notOn));
    }
    let ordered = q.selectAll('x').select(sql<number>`count(*) over ()`.as('total_rows'));
    // The project page's candidates: the project's practice first, then who is available.
    if (query.rankFor) {
      ordered = ordered
        .orderBy(sql`case when x.practices like ${`%"${query.rankFor}"%`} then 0 else 2 end + case when ${available} then 0 else 1 end`)
        .orderBy(sql`lower(x.name)`);
    }
    const rows = await ordered
      .orderBy('x.user_name')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    const total = rows[0] ? Number(rows[0].total_rows) : page > 1 ? (await experts(actor, { ...query, page: 1, pageSize: 1 })).total : 0;
    return {
      items: rows.map((row) => toExpertise({ ...row, name: row.name.trim() })),
      total,
      page,
      pageSize,
    };
  }

  return { mine, save, experts };
}

export type ExpertiseService = ReturnType<typeof createExpertise>;

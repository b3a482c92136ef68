// The experts' profiles (DESIGN.md §8): practices, a short bio, a day rate and availability.
// Each expert keeps their own; admins read them to choose whom to assign.
import { sql } from 'kysely';
import { PRACTICES, type Availability, type Expertise, type Practice } from '../../shared/projects.ts';
import { hasRole } from '../../shared/user.ts';
import type { Db } from '../db/index.ts';
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

function toExpertise(row: ExpertiseTable): Expertise {
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

function requireExpert(actor: Actor) {
  if (!hasRole(actor, 'CONS')) throw new ApiError(403, 'forbidden', 'Only experts have a profile of expertise');
}

export function createExpertise(deps: { db: Db; now?: () => Date }) {
  const { k } = deps.db;
  const now = () => (deps.now ?? (() => new Date()))();

  async function mine(actor: Actor): Promise<Expertise> {
    requireExpert(actor);
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
   * The experts an admin may assign, filtered by practice and availability: every enabled CONS
   * user of the site with their profile (empty when not written yet), and the profiles of
   * experts known only through an external API.
   */
  async function experts(
    actor: Actor,
    filter: { practice?: Practice | undefined; available?: boolean | undefined } = {},
  ): Promise<Expertise[]> {
    if (!hasRole(actor, 'ADMIN')) throw new ApiError(403, 'forbidden', 'Only administrators list experts');
    const users = await k
      .selectFrom('users')
      .leftJoin('expertise', 'expertise.user_name', 'users.user_name')
      .select([
        'users.user_name as userName',
        sql<string>`users.name || ' ' || users.last_name`.as('fullName'),
        'expertise.practices',
        'expertise.bio',
        'expertise.day_rate',
        'expertise.availability',
        'expertise.busy_until',
        'expertise.updated_at',
      ])
      .where('users.role', '=', 'CONS')
      .where('users.disabled', '=', 0)
      .orderBy('users.user_name')
      .limit(500)
      .execute();
    // Profiles of people who are not the site's users (an external API's experts).
    const others = await k
      .selectFrom('expertise')
      .selectAll()
      .where('user_name', 'not in', k.selectFrom('users').select('user_name'))
      .orderBy('user_name')
      .limit(500)
      .execute();
    const all: Expertise[] = [
      ...users.map((u) => ({
        userName: u.userName,
        name: u.fullName.trim(),
        practices: practicesOf(u.practices ?? '[]'),
        bio: u.bio ?? '',
        dayRate: u.day_rate === null || u.day_rate === undefined ? null : Number(u.day_rate),
        availability: (u.availability ?? 'available') as Availability,
        busyUntil: u.busy_until ?? null,
        updatedAt: u.updated_at ?? null,
      })),
      ...others.map(toExpertise),
    ];
    const today = now().toISOString().slice(0, 10);
    return all.filter(
      (e) =>
        (!filter.practice || e.practices.includes(filter.practice)) &&
        (!filter.available || e.availability === 'available' || (e.busyUntil !== null && e.busyUntil < today)),
    );
  }

  return { mine, save, experts };
}

export type ExpertiseService = ReturnType<typeof createExpertise>;

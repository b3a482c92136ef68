// Companies and their people (docs/decisions/041). Every CLI/ORG user belongs to exactly
// one company (the primary key of company_members), as its manager or a member; the projects a
// member submits belong to the company. Who belongs where is read from the database on every
// decision (server/projects/access.ts): a removal ends access at once on every instance.
//
// A user who has no company yet (created before companies existed by a path that wrote the row
// itself, given a project-owning role later, or known only to an external API) gets one of their
// own, named after them, the first time it matters (ensureMembership): nobody is left without.
import { sql } from 'kysely';
import { canonicalIdentity } from '../../shared/identity.ts';
import { COMPANY_NAME_MAX_LENGTH, type CompanyMember, type CompanyRole, type Membership } from '../../shared/company.ts';
import { containsPattern, pageSizeOf, PAGE_NUMBER_MAX } from '../../shared/paging.ts';
import { ownsProjects } from '../../shared/projects.ts';
import type { SessionUser } from '../../shared/user.ts';
import { singleLine } from '../../shared/validation.ts';
import type { Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';

type Person = Pick<SessionUser, 'userName' | 'role' | 'name' | 'lastName'>;
type K = Db['k'];

const now = () => new Date().toISOString();

export function companyNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return 'validation.required';
  if (trimmed.length > COMPANY_NAME_MAX_LENGTH) return 'validation.tooLong';
  return null;
}

function checkedName(given: string): string {
  // One plain line, however it came (shared/validation.ts): the schemas made it so already.
  const name = singleLine(given);
  const problem = companyNameProblem(name);
  if (problem) {
    throw new ApiError(422, 'invalid_request', `The company's name must have 1 to ${COMPANY_NAME_MAX_LENGTH} characters`, {
      name: problem,
    });
  }
  return name.trim();
}

/** The user's company and role in it, or null. */
export async function membershipOf(k: K, userName: string): Promise<Membership | null> {
  const row = await k
    .selectFrom('company_members as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .select(['m.company_id', 'm.role', 'c.name', 'c.kind'])
    .where('m.user_name', '=', canonicalIdentity(userName))
    .executeTakeFirst();
  return row ? { companyId: row.company_id, companyName: row.name, kind: row.kind, role: row.role } : null;
}

/**
 * The company whose branding is the user's (the admin edits it through any of its people): a
 * client's or organisation's, given one of their own if they have none yet; null for the other roles.
 */
export async function brandedCompanyOf(db: Db, userName: string): Promise<number | null> {
  const known = await membershipOf(db.k, userName);
  if (known) return known.companyId;
  const user = await db.k
    .selectFrom('users')
    .select(['user_name', 'role', 'name', 'last_name'])
    .where('user_name', '=', canonicalIdentity(userName))
    .executeTakeFirst();
  if (!user) return null;
  const membership = await ensureMembership(db, { userName: user.user_name, role: user.role, name: user.name, lastName: user.last_name });
  return membership?.companyId ?? null;
}

/** A new company, empty. */
export async function createCompany(k: K, name: string, kind: 'CLI' | 'ORG'): Promise<number> {
  const row = await k
    .insertInto('companies')
    .values({ name: checkedName(name), kind, created_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Puts the user in the company (leaving the one they were in), as `role`. */
export async function placeMember(k: K, userName: string, companyId: number, role: CompanyRole): Promise<void> {
  const user = canonicalIdentity(userName);
  await k.deleteFrom('company_members').where('user_name', '=', user).execute();
  await k.insertInto('company_members').values({ user_name: user, company_id: companyId, role, joined_at: now() }).execute();
}

/** The name a company of one person takes: their name, else their user name. */
export function ownName(person: Pick<Person, 'userName' | 'name' | 'lastName'>): string {
  return `${person.name} ${person.lastName}`.trim().slice(0, COMPANY_NAME_MAX_LENGTH) || person.userName;
}

/**
 * The user's company; for a CLI/ORG user without one, a company of their own (they manage it).
 * Null for the other roles. Two first requests racing create one company: the membership's
 * primary key lets one in, the other's empty company is dropped.
 */
export async function ensureMembership(db: Db, person: Person): Promise<Membership | null> {
  if (!ownsProjects(person)) return null;
  const known = await membershipOf(db.k, person.userName);
  if (known && known.kind === person.role) return known;
  await db.k.transaction().execute(async (trx) => {
    const id = await createCompany(trx, ownName(person), person.role as 'CLI' | 'ORG');
    if (known) await leave(trx, person.userName);
    const inserted = await trx
      .insertInto('company_members')
      .values({ user_name: canonicalIdentity(person.userName), company_id: id, role: 'manager', joined_at: now() })
      .onConflict((oc) => oc.column('user_name').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) await trx.deleteFrom('companies').where('id', '=', id).execute();
  });
  return membershipOf(db.k, person.userName);
}

/**
 * Takes the user out of their company. A company never stays without a manager while it has
 * members: if they were its last manager, its longest-standing member becomes manager.
 */
export async function leave(k: K, userName: string): Promise<void> {
  const user = canonicalIdentity(userName);
  const row = await k.selectFrom('company_members').select(['company_id', 'role']).where('user_name', '=', user).executeTakeFirst();
  if (!row) return;
  await k.deleteFrom('company_members').where('user_name', '=', user).execute();
  if (row.role !== 'manager') return;
  await promoteIfLeaderless(k, row.company_id);
}

async function promoteIfLeaderless(k: K, companyId: number): Promise<void> {
  const manager = await k
    .selectFrom('company_members')
    .select('user_name')
    .where('company_id', '=', companyId)
    .where('role', '=', 'manager')
    .executeTakeFirst();
  if (manager) return;
  const next = await k
    .selectFrom('company_members')
    .select('user_name')
    .where('company_id', '=', companyId)
    .orderBy('joined_at')
    .orderBy('user_name')
    .executeTakeFirst();
  if (next) await k.updateTable('company_members').set({ role: 'manager' }).where('user_name', '=', next.user_name).execute();
}

/** The company of `userName` as an expression (a project written straight into the table names its owner's). */
export function companyIdOf(k: K, userName: string) {
  return k.selectFrom('company_members').select('company_id').where('user_name', '=', canonicalIdentity(userName));
}

/**
 * After a bulk load that wrote users and projects straight into their tables (the scale bench's
 * seed): every CLI/ORG user without a company gets one of their own, which they manage, and every
 * project without a company goes to its owner's, as migration 17 did for the data before it.
 */
export async function settleCompanies(db: Db): Promise<void> {
  const homeless = await db.k
    .selectFrom('users')
    .select(['user_name', 'name', 'last_name', 'role'])
    .where('role', 'in', ['CLI', 'ORG'])
    .where('user_name', 'not in', db.k.selectFrom('company_members').select('user_name'))
    .execute();
  await db.k.transaction().execute(async (trx) => {
    for (const user of homeless) {
      const id = await createCompany(
        trx,
        ownName({ userName: user.user_name, name: user.name, lastName: user.last_name }),
        user.role as 'CLI' | 'ORG',
      );
      await placeMember(trx, user.user_name, id, 'manager');
    }
    await sql`UPDATE projects SET company_id = (SELECT m.company_id FROM company_members m WHERE m.user_name = projects.owner)
              WHERE company_id IS NULL`.execute(trx);
  });
}

/**
 * A page of a company's people, managers first, then by name. `withEmail`: for its managers and
 * admins. `pending`: with the invitees who have not chosen a password yet — for admins only: the
 * company's own people see a colleague once they have, so that a manager's invitation to an
 * address that has an account (which adds nobody) looks like any other (docs/decisions/049).
 */
export async function membersOf(
  db: Db,
  companyId: number,
  options: { page?: number | undefined; pageSize?: number | undefined; withEmail: boolean; pending: boolean },
): Promise<{ items: CompanyMember[]; total: number; page: number; pageSize: number }> {
  const page = Math.min(PAGE_NUMBER_MAX, Math.max(1, options.page ?? 1));
  const pageSize = pageSizeOf('members', options.pageSize);
  const [rows, count] = await Promise.all([
    db.k
      .selectFrom('company_members as m')
      .leftJoin('users as u', 'u.user_name', 'm.user_name')
      .select(['m.user_name', 'm.role', 'm.joined_at', 'u.name', 'u.last_name', 'u.email', 'u.invited_at'])
      .where('m.company_id', '=', companyId)
      .$if(!options.pending, (q) => q.where('u.invited_at', 'is', null))
      .orderBy(sql`CASE WHEN m.role = 'manager' THEN 0 ELSE 1 END`)
      .orderBy('u.last_name')
      .orderBy('u.name')
      .orderBy('m.user_name')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db.k
      .selectFrom('company_members as m')
      .leftJoin('users as u', 'u.user_name', 'm.user_name')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('m.company_id', '=', companyId)
      .$if(!options.pending, (q) => q.where('u.invited_at', 'is', null))
      .executeTakeFirstOrThrow(),
  ]);
  const items = rows.map((r): CompanyMember => ({
    userName: r.user_name,
    name: r.name ?? '',
    lastName: r.last_name ?? '',
    role: r.role,
    joinedAt: r.joined_at,
    invited: r.invited_at != null,
    ...(options.withEmail ? { email: r.email ?? null } : {}),
  }));
  return { items, total: Number(count.n), page, pageSize };
}

function notInCompany(userName: string): ApiError {
  return new ApiError(404, 'member_not_found', `${JSON.stringify(userName)} is not in your company`);
}

/** The colleague's membership in the manager's company, or 404 (someone of another company is nobody here). */
async function colleague(k: K, manager: Membership, userName: string) {
  const row = await k
    .selectFrom('company_members')
    .select(['user_name', 'role'])
    .where('user_name', '=', canonicalIdentity(userName))
    .where('company_id', '=', manager.companyId)
    .executeTakeFirst();
  if (!row) throw notInCompany(userName);
  return row;
}

export function requireManager(membership: Membership | null): Membership {
  if (!membership) throw new ApiError(404, 'not_found', 'You belong to no company');
  if (membership.role !== 'manager') {
    throw new ApiError(403, 'forbidden', "Only your company's manager may change who is in it");
  }
  return membership;
}

/**
 * A manager takes a colleague out of the company: from this request on, on every instance, the
 * company's projects are no project of theirs (access is read from here on each request). They
 * keep their account, in a company of their own, empty — unless they never accepted their
 * invitation: then the account, which they never used, goes with its link (`erasePending`, in
 * the same transaction), so that the link creates nothing (docs/decisions/052). Answers which.
 */
export async function removeColleague(
  db: Db,
  manager: Person & { membership: Membership },
  userName: string,
  erasePending: (trx: K, userName: string) => Promise<void>,
): Promise<'removed' | 'invitation_withdrawn'> {
  if (canonicalIdentity(userName) === canonicalIdentity(manager.userName)) {
    throw new ApiError(409, 'self_removal', 'You cannot remove yourself: hand the manager role over first, then ask the new manager');
  }
  return db.k.transaction().execute(async (trx) => {
    const row = await colleague(trx, manager.membership, userName);
    // Locked (PostgreSQL) until the end: an acceptance of the invitation waits for this, and then finds no account.
    const user = await trx
      .selectFrom('users')
      .select(['name', 'last_name', 'role', 'invited_at'])
      .where('user_name', '=', row.user_name)
      .$if(db.engine === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (user?.invited_at) {
      await erasePending(trx, row.user_name);
      return 'invitation_withdrawn';
    }
    const kind = (user?.role === 'ORG' || user?.role === 'CLI' ? user.role : manager.membership.kind) as 'CLI' | 'ORG';
    const own = await createCompany(
      trx,
      ownName({ userName: row.user_name, name: user?.name ?? '', lastName: user?.last_name ?? '' }),
      kind,
    );
    await placeMember(trx, row.user_name, own, 'manager');
    return 'removed';
  });
}

/** A manager makes a colleague the manager and becomes a member (one step, never leaderless). */
export async function handOver(db: Db, manager: Person & { membership: Membership }, userName: string): Promise<void> {
  if (canonicalIdentity(userName) === canonicalIdentity(manager.userName)) {
    throw new ApiError(409, 'already_manager', 'You are the manager already');
  }
  await db.k.transaction().execute(async (trx) => {
    const row = await colleague(trx, manager.membership, userName);
    const invited = await trx.selectFrom('users').select('invited_at').where('user_name', '=', row.user_name).executeTakeFirst();
    if (invited?.invited_at) {
      throw new ApiError(409, 'invitation_pending', `${row.user_name} has not accepted the invitation yet: hand over once they have`);
    }
    await trx.updateTable('company_members').set({ role: 'manager' }).where('user_name', '=', row.user_name).execute();
    await trx.updateTable('company_members').set({ role: 'member' }).where('user_name', '=', canonicalIdentity(manager.userName)).execute();
  });
}

export async function renameCompany(db: Db, membership: Membership, name: string): Promise<void> {
  await db.k
    .updateTable('companies')
    .set({ name: checkedName(name) })
    .where('id', '=', membership.companyId)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// The admin's side.

export type CompanySummary = { id: number; name: string; kind: string; members: number; managers: string[] };

/** A page of companies by name (a search in their names), each with its size and managers. */
export async function listCompanies(
  db: Db,
  options: { q?: string | undefined; page?: number | undefined; pageSize?: number | undefined },
): Promise<{ items: CompanySummary[]; total: number; page: number; pageSize: number }> {
  const page = Math.min(PAGE_NUMBER_MAX, Math.max(1, options.page ?? 1));
  const pageSize = pageSizeOf('companies', options.pageSize);
  const q = options.q?.trim() ?? '';
  const like = containsPattern(q);
  let base = db.k.selectFrom('companies as c');
  if (q) base = base.where(sql`lower(c.name)`, 'like', sql`${like} ESCAPE '\\'`);
  const [rows, count] = await Promise.all([
    base
      .select(['c.id', 'c.name', 'c.kind'])
      .select((eb) =>
        eb
          .selectFrom('company_members as m')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('m.company_id', '=', 'c.id')
          .as('members'),
      )
      .orderBy('c.name')
      .orderBy('c.id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const ids = rows.map((r) => r.id);
  const managers =
    ids.length === 0
      ? []
      : await db.k
          .selectFrom('company_members')
          .select(['company_id', 'user_name'])
          .where('company_id', 'in', ids)
          .where('role', '=', 'manager')
          .orderBy('user_name')
          .execute();
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      kind: r.kind,
      members: Number(r.members ?? 0),
      managers: managers.filter((m) => m.company_id === r.id).map((m) => m.user_name),
    })),
    total: Number(count.n),
    page,
    pageSize,
  };
}

/**
 * An admin puts a user in a company (an existing one, or a new one named `newName`) as `role`.
 * The company's kind must be the user's role: a client's people are clients.
 */
export async function moveUser(
  db: Db,
  userName: string,
  target: { companyId: number } | { newName: string },
  role: CompanyRole,
): Promise<Membership> {
  await db.k.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['user_name', 'role'])
      .where('user_name', '=', canonicalIdentity(userName))
      .executeTakeFirst();
    if (!user) throw new ApiError(404, 'user_not_found', `No user named ${JSON.stringify(userName)}`);
    if (user.role !== 'CLI' && user.role !== 'ORG') {
      throw new ApiError(
        409,
        'not_a_company_role',
        `${user.user_name} is ${user.role}: only clients and organisations belong to a company`,
      );
    }
    let companyId: number;
    if ('companyId' in target) {
      const company = await trx.selectFrom('companies').select(['id', 'kind']).where('id', '=', target.companyId).executeTakeFirst();
      if (!company) throw new ApiError(404, 'company_not_found', `No company ${target.companyId}`);
      if (company.kind !== user.role) {
        throw new ApiError(409, 'company_kind', `${user.user_name} is ${user.role} and company ${company.id} is for ${company.kind} users`);
      }
      companyId = company.id;
    } else companyId = await createCompany(trx, target.newName, user.role);
    const before = await trx
      .selectFrom('company_members')
      .select(['company_id', 'role'])
      .where('user_name', '=', user.user_name)
      .executeTakeFirst();
    await placeMember(trx, user.user_name, companyId, role);
    if (before && (before.company_id !== companyId || role !== 'manager')) await promoteIfLeaderless(trx, before.company_id);
    await promoteIfLeaderless(trx, companyId);
  });
  return (await membershipOf(db.k, userName))!;
}

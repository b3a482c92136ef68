// Users of the site's database: the operations behind the built-in API, the login form and
// the ops command line, on either engine. Inputs arrive validated (zod at the edge); these
// enforce the rules. User names and e-mails are stored in their canonical form (NFKC, lower
// case: shared/identity.ts) and every name given here is put in that form before it is looked
// up, so the database compares canonical forms only.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { isDeletedUser } from '../../shared/account.ts';
import { canonicalIdentity, identityProblem } from '../../shared/identity.ts';
import { containsPattern, PAGE_NUMBER_MAX, pageSizeOf, SEARCH_COUNT_MAX } from '../../shared/paging.ts';
import { isRole, isScope, SCOPES, type Role, type SessionUser } from '../../shared/user.ts';
import {
  isEmailAddress,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordProblem,
  USER_NAME_PATTERN,
  USER_NAME_RULE,
} from '../../shared/validation.ts';
import type { Db } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.ts';
import type { CompanyRole } from '../../shared/company.ts';
import { createCompany, ensureMembership, leave, ownName, placeMember } from '../companies/companies.ts';
import { ownsProjects } from '../../shared/projects.ts';

export type User = SessionUser & {
  email: string | null;
  /** Seconds since epoch; tokens issued earlier are refused. */
  passwordChangedAt: number;
  disabled: boolean;
  /** Invited by an admin and no password chosen yet. */
  invited: boolean;
  createdAt: string;
  updatedAt: string;
};

function toUser(row: UserRow): User {
  return {
    userName: row.user_name,
    email: row.email,
    name: row.name,
    lastName: row.last_name,
    role: row.role as Role,
    avatar: row.avatar,
    scope: JSON.parse(row.scopes) as string[],
    disabled: Number(row.disabled) === 1,
    passwordChangedAt: Number(row.password_changed_at),
    invited: row.invited_at != null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A token issued before the user's last password change no longer counts. */
export function tokenPredatesPassword(user: User, issuedAt: number | undefined): boolean {
  return user.passwordChangedAt > 0 && (issuedAt ?? 0) < user.passwordChangedAt;
}

/** The user as an admin sees it (no password data). */
export function publicUser(user: User): Omit<User, 'passwordChangedAt'> {
  const { passwordChangedAt: _hidden, ...rest } = user;
  return rest;
}

export function sessionUserOf(user: User): SessionUser {
  return { name: user.name, lastName: user.lastName, userName: user.userName, role: user.role, avatar: user.avatar, scope: user.scope };
}

const passwordMessages: Record<string, string> = {
  'validation.passwordTooShort': `The password must have at least ${PASSWORD_MIN_LENGTH} characters`,
  'validation.passwordTooLong': `The password must have at most ${PASSWORD_MAX_LENGTH} characters`,
  'validation.passwordIsUserName': 'The password must not be the user name',
};

function checkPassword(password: string, userName: string, field = 'password') {
  const problem = passwordProblem(password, userName);
  if (problem) throw new ApiError(422, 'invalid_password', passwordMessages[problem] ?? problem, { [field]: problem });
}

const now = () => new Date().toISOString();

export async function findUser(db: Db, userName: string): Promise<User | null> {
  const row = await db.k.selectFrom('users').selectAll().where('user_name', '=', canonicalIdentity(userName)).executeTakeFirst();
  return row ? toUser(row) : null;
}

async function requireUser(db: Db, userName: string): Promise<User> {
  const user = await findUser(db, userName);
  if (!user) throw new ApiError(404, 'user_not_found', `No user named ${JSON.stringify(userName)}`);
  return user;
}

export type NewUser = {
  userName: string;
  password: string;
  role: Role;
  name: string;
  lastName: string;
  email?: string | null | undefined;
  scope?: string[] | undefined;
  /** Invited (server/account-links/): the password is a random one nobody knows until the user chooses theirs. */
  invited?: boolean | undefined;
  /** A client's or organisation's company to join (a manager's invitation); else one of their own. */
  company?: { id: number; role: CompanyRole } | undefined;
  /** The name of the new company of their own (an admin's "invite as client"); else their name. */
  companyName?: string | undefined;
};

const FIELD_WORDS = { userName: 'user name', email: 'e-mail address' } as const;

/** 409: the name is another user's, maybe written another way (`existing`: the stored form). */
function taken(field: 'userName' | 'email', value: string, existing = value): ApiError {
  const same = existing === value ? '' : ` (it reads as ${JSON.stringify(existing)}, which is)`;
  return new ApiError(409, `${field}_taken`, `The ${FIELD_WORDS[field]} ${JSON.stringify(value)} is already in use${same}`, {
    [field]: `validation.${field}Taken`,
  });
}

/**
 * The canonical form of a new user name or e-mail address, or 422 when it could pass for
 * another (shared/identity.ts names the character): the API and the ops CLI both come here.
 */
export function newIdentity(field: 'userName' | 'email', value: string): string {
  const problem = identityProblem(value.trim());
  if (problem) {
    throw new ApiError(422, 'look_alike', `The ${FIELD_WORDS[field]} ${JSON.stringify(value)} ${problem}`, {
      [field]: 'validation.lookAlike',
    });
  }
  return canonicalIdentity(value);
}

export async function createUser(db: Db, input: NewUser): Promise<User> {
  const userName = newIdentity('userName', input.userName);
  // What deleted accounts leave behind is theirs (shared/account.ts): nobody may sign in as it.
  if (isDeletedUser(userName)) throw taken('userName', input.userName);
  // The API's rule, for the ops CLI too.
  if (!USER_NAME_PATTERN.test(userName)) {
    throw new ApiError(400, 'invalid_request', `Invalid request: userName ${JSON.stringify(input.userName)} must be ${USER_NAME_RULE}`, {
      userName: 'validation.userNamePattern',
    });
  }
  checkPassword(input.password, userName);
  const email = input.email == null ? null : newIdentity('email', input.email);
  // The same rule as every other door (API, contact form): the ops CLI comes through here.
  if (email !== null && !isEmailAddress(email)) {
    throw new ApiError(400, 'invalid_request', `Invalid request: email ${JSON.stringify(input.email)} is not one e-mail address`, {
      email: 'validation.invalidEmail',
    });
  }
  const clash = await db.k
    .selectFrom('users')
    .select(['user_name', 'email'])
    .where((eb) => eb.or([eb('user_name', '=', userName), ...(email ? [eb('email', '=', email)] : [])]))
    .executeTakeFirst();
  if (clash) {
    throw clash.user_name === userName ? taken('userName', input.userName, clash.user_name) : taken('email', input.email!, clash.email!);
  }
  const hash = await hashPassword(input.password);
  const at = now();
  try {
    await db.k.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({
          user_name: userName,
          email,
          name: input.name,
          last_name: input.lastName,
          role: input.role,
          avatar: null,
          scopes: JSON.stringify(input.scope ?? []),
          password_hash: hash,
          disabled: 0,
          password_changed_at: 0,
          created_at: at,
          updated_at: at,
          invited_at: input.invited ? at : null,
        })
        .execute();
      // A client or organisation user belongs to a company from the start (docs/decisions/041).
      if (input.role === 'CLI' || input.role === 'ORG') {
        const own = input.companyName?.trim() || ownName({ userName, name: input.name, lastName: input.lastName });
        const company = input.company ?? { id: await createCompany(trx, own, input.role), role: 'manager' as const };
        await placeMember(trx, userName, company.id, company.role);
      }
    });
  } catch (error) {
    // Two creations racing past the check above: the unique index decides.
    if (await findUser(db, userName)) throw taken('userName', input.userName, userName);
    throw error;
  }
  return requireUser(db, userName);
}

/**
 * The user for these credentials, or null. Unknown user, wrong password and disabled account
 * are indistinguishable to the caller and take the same time.
 */
export async function authenticate(db: Db, identifier: string, password: string): Promise<User | null> {
  const wanted = canonicalIdentity(identifier);
  // A user name wins over an e-mail address that happens to be written the same.
  const rows = await db.k
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('user_name', '=', wanted), eb('email', '=', wanted)]))
    .limit(2)
    .execute();
  const row = rows.find((r) => r.user_name === wanted) ?? rows[0];
  const ok = await verifyPassword(password, row?.password_hash ?? (await dummyPasswordHash()));
  if (!row || !ok || Number(row.disabled) === 1) return null;
  return toUser(row);
}

export async function updateProfile(db: Db, userName: string, changes: { name: string; lastName: string }): Promise<User> {
  await requireUser(db, userName);
  await db.k
    .updateTable('users')
    .set({ name: changes.name, last_name: changes.lastName, updated_at: now() })
    .where('user_name', '=', canonicalIdentity(userName))
    .execute();
  return requireUser(db, userName);
}

export async function setAvatar(db: Db, userName: string, avatar: string | null): Promise<User> {
  return (await replaceAvatar(db, userName, avatar)).user;
}

/**
 * Sets the avatar and answers the one it replaced, in one transaction that locks the row:
 * two uploads racing each get the other's file to delete, so none is left behind.
 */
export async function replaceAvatar(db: Db, userName: string, avatar: string | null): Promise<{ user: User; previous: string | null }> {
  const previous = await db.k.transaction().execute(async (trx) => {
    const row = await lockedUser(db, trx, userName);
    await trx.updateTable('users').set({ avatar, updated_at: now() }).where('user_name', '=', canonicalIdentity(userName)).execute();
    return row.avatar;
  });
  return { user: await requireUser(db, userName), previous };
}

/** The user's row inside a transaction, locked against a concurrent update (PostgreSQL: FOR UPDATE). */
async function lockedUser(db: Db, trx: Db['k'], userName: string): Promise<UserRow> {
  let query = trx.selectFrom('users').selectAll().where('user_name', '=', canonicalIdentity(userName));
  if (db.engine === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new ApiError(404, 'user_not_found', `No user named ${JSON.stringify(userName)}`);
  return row;
}

export const WRONG_CURRENT_PASSWORD = 'wrong_current_password';

export function wrongCurrentPassword(): ApiError {
  return new ApiError(422, WRONG_CURRENT_PASSWORD, 'The current password is not correct', {
    currentPassword: 'validation.wrongCurrentPassword',
  });
}

/** Throws wrong_current_password unless `password` is the user's (422), or 401 for a gone user. */
export async function verifyCurrentPassword(db: Db, userName: string, password: string): Promise<void> {
  const row = await db.k.selectFrom('users').selectAll().where('user_name', '=', canonicalIdentity(userName)).executeTakeFirst();
  if (!row || Number(row.disabled) === 1) throw new ApiError(401, 'unauthorized', 'Sign in again');
  if (!(await verifyPassword(password, row.password_hash))) throw wrongCurrentPassword();
}

/** The current password is judged before the new one: a guess is always answered as a guess. */
export async function changePassword(db: Db, userName: string, currentPassword: string, newPassword: string): Promise<User> {
  await verifyCurrentPassword(db, userName, currentPassword);
  checkPassword(newPassword, userName, 'newPassword');
  return setPassword(db, userName, newPassword);
}

export async function setPassword(db: Db, userName: string, password: string): Promise<User> {
  const user = await requireUser(db, userName);
  checkPassword(password, user.userName);
  await writePasswordHash(db.k, userName, await hashPassword(password));
  return requireUser(db, userName);
}

/**
 * Stores a password already checked and hashed (by `k`, which may be a transaction's). Tokens
 * issued before now stop counting; a password chosen by any door (invitation, reset, ops,
 * admin) ends a pending invitation.
 */
export async function writePasswordHash(k: Db['k'], userName: string, hash: string): Promise<void> {
  await k
    .updateTable('users')
    .set({ password_hash: hash, password_changed_at: Math.floor(Date.now() / 1000), updated_at: now(), invited_at: null })
    .where('user_name', '=', canonicalIdentity(userName))
    .execute();
}

export async function setRole(db: Db, userName: string, role: string): Promise<User> {
  if (!isRole(role)) throw new ApiError(422, 'invalid_role', `Unknown role ${JSON.stringify(role)}: use ADMIN, CLI, ORG or CONS`);
  await requireUser(db, userName);
  await db.k.updateTable('users').set({ role, updated_at: now() }).where('user_name', '=', canonicalIdentity(userName)).execute();
  const user = await requireUser(db, userName);
  // A client or organisation user keeps (or gets) a company of their kind; the other roles belong to none.
  if (ownsProjects({ role })) await ensureMembership(db, user);
  else await leave(db.k, user.userName);
  return user;
}

/**
 * The user's scopes from now on (docs/decisions/053), each once, in the order of SCOPES; an unknown
 * one is refused (422 invalid_scope), naming it. Their sessions see them within a second.
 */
export async function setScopes(db: Db, userName: string, scope: readonly string[]): Promise<User> {
  const unknown = scope.find((s) => !isScope(s));
  if (unknown !== undefined) {
    throw new ApiError(422, 'invalid_scope', `Unknown scope ${JSON.stringify(unknown)}: use ${SCOPES.join(', ')}`);
  }
  await requireUser(db, userName);
  const scopes = SCOPES.filter((s) => scope.includes(s));
  await db.k
    .updateTable('users')
    .set({ scopes: JSON.stringify(scopes), updated_at: now() })
    .where('user_name', '=', canonicalIdentity(userName))
    .execute();
  return requireUser(db, userName);
}

export async function setDisabled(db: Db, userName: string, disabled: boolean): Promise<User> {
  await requireUser(db, userName);
  await db.k
    .updateTable('users')
    .set({ disabled: disabled ? 1 : 0, updated_at: now() })
    .where('user_name', '=', canonicalIdentity(userName))
    .execute();
  return requireUser(db, userName);
}

/** The company a user belongs to, as the admin's list shows it (clients and organisations). */
export type UserCompany = { id: number; name: string; role: CompanyRole };

/** The companies of these users (one query for a page of them), by user name. */
export async function companiesOf(db: Db, userNames: readonly string[]): Promise<Map<string, UserCompany>> {
  if (userNames.length === 0) return new Map();
  const rows = await db.k
    .selectFrom('company_members as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .select(['m.user_name', 'm.role', 'c.id', 'c.name'])
    .where('m.user_name', 'in', userNames.map(canonicalIdentity))
    .execute();
  return new Map(rows.map((r) => [r.user_name, { id: r.id, name: r.name, role: r.role }]));
}

export type UserPage = {
  items: (Omit<User, 'passwordChangedAt'> & { company: UserCompany | null })[];
  /** Every user, or a search's matches up to SEARCH_COUNT_MAX… */
  total: number;
  /** …past which this is true (and `total` is SEARCH_COUNT_MAX). */
  totalCapped: boolean;
  page: number;
  pageSize: number;
};

export async function listUsers(db: Db, options: { q?: string | undefined; page?: number; pageSize?: number } = {}): Promise<UserPage> {
  const page = Math.min(PAGE_NUMBER_MAX, Math.max(1, options.page ?? 1));
  const pageSize = pageSizeOf('users', options.pageSize);
  const q = options.q?.trim() ?? '';
  // A search matches any part of the user name, names or e-mail, whatever the case, on both
  // engines (lower() LIKE lower(); the pattern's own % and _ are escaped).
  const like = containsPattern(q);
  let base = db.k.selectFrom('users');
  if (q) {
    base = base.where((eb) =>
      eb.or(
        (['user_name', 'name', 'last_name', 'email'] as const).map((column) =>
          eb(sql`lower(${sql.ref(column)})`, 'like', sql`${like} ESCAPE '\\'`),
        ),
      ),
    );
  }
  // A search counts one match past its maximum (enough to know there are more); every user is a count of the table.
  const { total } = await (
    q
      ? db.k
          .selectFrom(
            base
              .select(sql<number>`1`.as('one'))
              .limit(SEARCH_COUNT_MAX + 1)
              .as('m'),
          )
          .select((eb) => eb.fn.countAll<number>().as('total'))
      : base.select((eb) => eb.fn.countAll<number>().as('total'))
  ).executeTakeFirstOrThrow();
  // User names are stored in their canonical (lower-case) form: ordered by their unique index.
  const rows = await base
    .selectAll()
    .orderBy('user_name')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const totalCapped = q !== '' && Number(total) > SEARCH_COUNT_MAX;
  const companies = await companiesOf(
    db,
    rows.map((row) => row.user_name),
  );
  return {
    items: rows.map((row) => ({ ...publicUser(toUser(row)), company: companies.get(row.user_name) ?? null })),
    total: totalCapped ? SEARCH_COUNT_MAX : Number(total),
    totalCapped,
    page,
    pageSize,
  };
}

/** A random password for resets and demo users: 20 URL-safe characters. */
export function randomPassword(): string {
  return randomBytes(15).toString('base64url');
}

// Users of the embedded database: the operations behind the built-in API, the login form and
// the ops command line. Inputs arrive validated (zod at the edge); these enforce the rules.
import { randomBytes } from 'node:crypto';
import { isRole, type Role, type SessionUser } from '../../shared/user.ts';
import { isEmailAddress, passwordProblem } from '../../shared/validation.ts';
import type { Db } from '../db/index.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../auth/password.ts';
import { ApiError } from '../http/errors.ts';

type UserRow = {
  id: number;
  user_name: string;
  email: string | null;
  name: string;
  last_name: string;
  role: Role;
  avatar: string | null;
  scopes: string;
  password_hash: string;
  disabled: 0 | 1;
  created_at: string;
  updated_at: string;
  password_changed_at: number;
};

export type User = SessionUser & {
  email: string | null;
  /** Seconds since epoch; tokens issued earlier are refused. */
  passwordChangedAt: number;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
};

function toUser(row: UserRow): User {
  return {
    userName: row.user_name,
    email: row.email,
    name: row.name,
    lastName: row.last_name,
    role: row.role,
    avatar: row.avatar,
    scope: JSON.parse(row.scopes) as string[],
    disabled: row.disabled === 1,
    passwordChangedAt: row.password_changed_at,
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
  'validation.passwordTooShort': 'The password must have at least 10 characters',
  'validation.passwordTooLong': 'The password must have at most 200 characters',
  'validation.passwordIsUserName': 'The password must not be the user name',
};

function checkPassword(password: string, userName: string, field = 'password') {
  const problem = passwordProblem(password, userName);
  if (problem) throw new ApiError(422, 'invalid_password', passwordMessages[problem] ?? problem, { [field]: problem });
}

export function findUser(db: Db, userName: string): User | null {
  const row = db.prepare<[string], UserRow>('SELECT * FROM users WHERE user_name = ?').get(userName);
  return row ? toUser(row) : null;
}

function requireUser(db: Db, userName: string): User {
  const user = findUser(db, userName);
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
};

export async function createUser(db: Db, input: NewUser): Promise<User> {
  checkPassword(input.password, input.userName);
  // The same rule as every other door (API, contact form): the ops CLI comes through here.
  if (input.email != null && !isEmailAddress(input.email)) {
    throw new ApiError(400, 'invalid_request', `Invalid request: email ${JSON.stringify(input.email)} is not one e-mail address`, {
      email: 'validation.invalidEmail',
    });
  }
  const taken = db
    .prepare<[string, string | null], { user_name: string; email: string | null }>(
      'SELECT user_name, email FROM users WHERE user_name = ? OR (email IS NOT NULL AND email = ?)',
    )
    .get(input.userName, input.email ?? null);
  if (taken) {
    const field = taken.user_name.toLowerCase() === input.userName.toLowerCase() ? 'userName' : 'email';
    throw new ApiError(
      409,
      `${field}_taken`,
      `The ${field === 'userName' ? 'user name' : 'email'} ${JSON.stringify(field === 'userName' ? input.userName : input.email)} is already in use`,
      {
        [field]: `validation.${field}Taken`,
      },
    );
  }
  const hash = await hashPassword(input.password);
  db.prepare('INSERT INTO users (user_name, email, name, last_name, role, scopes, password_hash) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    input.userName,
    input.email ?? null,
    input.name,
    input.lastName,
    input.role,
    JSON.stringify(input.scope ?? []),
    hash,
  );
  return requireUser(db, input.userName);
}

/**
 * The user for these credentials, or null. Unknown user, wrong password and disabled account
 * are indistinguishable to the caller and take the same time.
 */
export async function authenticate(db: Db, identifier: string, password: string): Promise<User | null> {
  // An exact user name wins over an e-mail address that happens to look the same.
  const row = db
    .prepare<{ id: string }, UserRow>('SELECT * FROM users WHERE user_name = @id OR email = @id ORDER BY (user_name = @id) DESC LIMIT 1')
    .get({ id: identifier });
  const ok = await verifyPassword(password, row?.password_hash ?? (await dummyPasswordHash()));
  if (!row || !ok || row.disabled) return null;
  return toUser(row);
}

export function updateProfile(db: Db, userName: string, changes: { name: string; lastName: string }): User {
  requireUser(db, userName);
  db.prepare("UPDATE users SET name = ?, last_name = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE user_name = ?").run(
    changes.name,
    changes.lastName,
    userName,
  );
  return requireUser(db, userName);
}

export function setAvatar(db: Db, userName: string, avatar: string | null): User {
  return replaceAvatar(db, userName, avatar).user;
}

/**
 * Sets the avatar and answers the one it replaced, read and written in one synchronous step:
 * two uploads racing each get the other's file to delete, so none is left behind.
 */
export function replaceAvatar(db: Db, userName: string, avatar: string | null): { user: User; previous: string | null } {
  const previous = requireUser(db, userName).avatar;
  db.prepare("UPDATE users SET avatar = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE user_name = ?").run(avatar, userName);
  return { user: requireUser(db, userName), previous };
}

export const WRONG_CURRENT_PASSWORD = 'wrong_current_password';

export function wrongCurrentPassword(): ApiError {
  return new ApiError(422, WRONG_CURRENT_PASSWORD, 'The current password is not correct', {
    currentPassword: 'validation.wrongCurrentPassword',
  });
}

/** Throws wrong_current_password unless `password` is the user's (422), or 401 for a gone user. */
export async function verifyCurrentPassword(db: Db, userName: string, password: string): Promise<void> {
  const row = db.prepare<[string], UserRow>('SELECT * FROM users WHERE user_name = ?').get(userName);
  if (!row || row.disabled) throw new ApiError(401, 'unauthorized', 'Sign in again');
  if (!(await verifyPassword(password, row.password_hash))) throw wrongCurrentPassword();
}

/** The current password is judged before the new one: a guess is always answered as a guess. */
export async function changePassword(db: Db, userName: string, currentPassword: string, newPassword: string): Promise<User> {
  await verifyCurrentPassword(db, userName, currentPassword);
  checkPassword(newPassword, userName, 'newPassword');
  return setPassword(db, userName, newPassword);
}

export async function setPassword(db: Db, userName: string, password: string): Promise<User> {
  const user = requireUser(db, userName);
  checkPassword(password, user.userName);
  const hash = await hashPassword(password);
  db.prepare(
    "UPDATE users SET password_hash = ?, password_changed_at = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE user_name = ?",
  ).run(hash, Math.floor(Date.now() / 1000), userName);
  return requireUser(db, userName);
}

export function setRole(db: Db, userName: string, role: string): User {
  if (!isRole(role)) throw new ApiError(422, 'invalid_role', `Unknown role ${JSON.stringify(role)}: use ADMIN, CLI, ORG or CONS`);
  requireUser(db, userName);
  db.prepare("UPDATE users SET role = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE user_name = ?").run(role, userName);
  return requireUser(db, userName);
}

export function setDisabled(db: Db, userName: string, disabled: boolean): User {
  requireUser(db, userName);
  db.prepare("UPDATE users SET disabled = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE user_name = ?").run(
    disabled ? 1 : 0,
    userName,
  );
  return requireUser(db, userName);
}

export type UserPage = { items: Omit<User, 'passwordChangedAt'>[]; total: number; page: number; pageSize: number };

export function listUsers(db: Db, options: { q?: string | undefined; page?: number; pageSize?: number } = {}): UserPage {
  const page = Math.max(1, options.page ?? 1);
  const pageSize = Math.min(100, Math.max(1, options.pageSize ?? 20));
  const q = options.q?.trim() ?? '';
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = q
    ? "WHERE user_name LIKE @like ESCAPE '\\' OR name LIKE @like ESCAPE '\\' OR last_name LIKE @like ESCAPE '\\' OR email LIKE @like ESCAPE '\\'"
    : '';
  const params = q ? { like } : {};
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM users ${where}`).get(params) as { n: number }).n;
  const rows = db
    .prepare(`SELECT * FROM users ${where} ORDER BY user_name COLLATE NOCASE LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: pageSize, offset: (page - 1) * pageSize }) as UserRow[];
  return { items: rows.map((row) => publicUser(toUser(row))), total, page, pageSize };
}

/** A random password for resets and demo users: 20 URL-safe characters. */
export function randomPassword(): string {
  return randomBytes(15).toString('base64url');
}

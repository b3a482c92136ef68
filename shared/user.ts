// The user as the site knows it: held in the sealed session, shown in the navbar.

export const ROLES = ['ADMIN', 'CLI', 'ORG', 'CONS'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The roles whose navbar an admin (or the CMS) may brand, in their areas (shared/branding.ts). */
export const BRANDABLE_ROLES = ['CLI', 'ORG'] as const satisfies readonly Role[];

/** Whether a user of this role may have a branding (the API answers 409 not_brandable for the others). */
export function isBrandable(role: string): boolean {
  return (BRANDABLE_ROLES as readonly string[]).includes(role);
}

export type SessionUser = {
  name: string;
  lastName: string;
  userName: string;
  /** A string, not `Role`: an external API may send roles this site does not know. */
  role: string;
  avatar: string | null;
  scope: string[];
};

/** A role's own area: the base name of its route. */
export type Area = 'admin' | 'client' | 'organization' | 'expert';

/**
 * Each role's own area, where the navbar's area link and the home page's call to
 * action take the user. ADMIN's is the console, but ADMIN is confined to none (the role guard
 * lets ADMIN pass everywhere); CLI, ORG and CONS are confined to theirs (see confinedArea).
 */
export const ROLE_AREA: Readonly<Record<string, Area>> = {
  ADMIN: 'admin',
  CLI: 'client',
  ORG: 'organization',
  CONS: 'expert',
};

/**
 * The role's area; undefined for a role the site does not know. Own keys only: an external
 * API may send any string as a role, and "constructor" must not find Object's.
 */
export function roleArea(role: string): Area | undefined {
  return Object.hasOwn(ROLE_AREA, role) ? ROLE_AREA[role] : undefined;
}

/** The area a role is confined to (role guard, home, after login): every role's but ADMIN's. */
export function confinedArea(role: string): Area | undefined {
  return hasRole({ role }, 'ADMIN') ? undefined : roleArea(role);
}

/**
 * The one role check of the site: the pages' isAdmin guard, the API's admin routes, the PDF
 * reports and the backend all ask it (each with the user as they are now).
 */
export function hasRole(user: Pick<SessionUser, 'role'> | null | undefined, role: Role): boolean {
  return user?.role === role;
}

/**
 * The scopes the site knows (docs/decisions/053; the specification leaves their values open): each
 * lets a user who is not ADMIN read one of the administrators' records on the server. ADMIN
 * holds them all by its role. A token or a user may carry others: they grant nothing here.
 */
export const SCOPES = ['reports:read', 'inbox:read', 'audit:read'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Whether the user's `scope` key lists `scope` (the specification's permission check by scope). */
export function hasScope(user: Pick<SessionUser, 'scope'> | null | undefined, scope: Scope): boolean {
  return Boolean(user && Array.isArray(user.scope) && user.scope.includes(scope));
}

/**
 * The one permission check of what a scope gates: ADMIN by its role, anyone else by the scope
 * their user carries now (the built-in API's user as the database has it, an external API's
 * token's). The server asks it; the browser only shows what follows from it.
 */
export function isPermitted(user: Pick<SessionUser, 'role' | 'scope'> | null | undefined, scope: Scope): boolean {
  return hasRole(user, 'ADMIN') || hasScope(user, scope);
}

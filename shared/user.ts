// The user as the site knows it (seed-spec §3): held in the sealed session, shown in the navbar.

export const ROLES = ['ADMIN', 'CLI', 'ORG', 'CONS'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
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

/** seed-spec §6: each non-admin role is confined to its own area. */
export const ROLE_AREA: Readonly<Record<string, 'client' | 'organization' | 'expert'>> = {
  CLI: 'client',
  ORG: 'organization',
  CONS: 'expert',
};

/** seed-spec §6: a permission check by the user's `scope` key. */
export function hasScope(user: Pick<SessionUser, 'scope'> | null | undefined, scope: string): boolean {
  return Boolean(user && Array.isArray(user.scope) && user.scope.includes(scope));
}

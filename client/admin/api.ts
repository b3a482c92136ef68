// Every call the admin console makes to the built-in API (/api/admin/...), typed, with one
// error shape. The session cookie authenticates them; the server checks the role again.
import { isCompanyRole, type CompanyRole } from '../../shared/company.ts';
import type { Locale } from '../../shared/locales.ts';
import type { AdminUser, UserList } from '../../shared/page-data.ts';
import type { Role } from '../../shared/user.ts';

/** What a failed call reports: the API's `{error: {code, message, fields?}}`, or ours. */
export type ApiFailure = {
  status: number;
  code: string;
  message: string;
  fields?: Record<string, string>;
  /** Seconds to wait (the answer's Retry-After), on a 429 or 503. */
  retryAfter?: number;
};
export type ApiAnswer<T> = { ok: true; value: T } | { ok: false; error: ApiFailure };

/**
 * An invitation as the server answers it: the address it went to, or — when the site cannot send
 * e-mail — the link itself, for the admin to pass on (shown once).
 */
export type Invitation = { expiresAt: string; sentTo?: string | undefined; link?: string | undefined };
/** A user as the admin endpoints answer it; `password` only when the server generated one, `invitation` when one was sent. */
export type UserWithPassword = { user: AdminUser; password?: string | undefined; invitation?: Invitation | undefined };
export type NewUserInput = {
  userName: string;
  email?: string;
  name: string;
  lastName: string;
  role: Role;
  password?: string;
  /** No password: the user chooses theirs from an e-mailed link. */
  invite?: boolean;
  /** The language of the invitation. */
  locale?: Locale;
  /** A client's or organisation's new company, by its name (else one named after them). */
  companyName?: string;
};

// ---------------------------------------------------------------------------------------------
// The one request function.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The API's `{error: {code, message, fields?}}`, or a generic failure for anything else. */
function readFailure(status: number, body: unknown): ApiFailure {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string') {
    const { code, message, fields } = body.error;
    const failure: ApiFailure = { status, code, message: typeof message === 'string' ? message : code };
    if (isRecord(fields)) {
      const problems: Record<string, string> = {};
      for (const [field, problem] of Object.entries(fields)) if (typeof problem === 'string') problems[field] = problem;
      failure.fields = problems;
    }
    return failure;
  }
  const code = status === 503 || status === 502 ? 'api_unavailable' : status === 401 ? 'unauthorized' : 'internal';
  return { status, code, message: `HTTP ${status}` };
}

/** One API call; a Blob (an uploaded file) goes raw with its own type, anything else as JSON. */
export async function callApi<T>(path: string, read: (body: unknown) => T | null, method = 'GET', body?: unknown): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (body instanceof Blob) {
    headers['Content-Type'] = body.type || 'application/octet-stream';
    init.body = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    return { ok: false, error: { status: 0, code: 'network', message: 'Network error' } };
  }
  const answer: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const failure = readFailure(response.status, answer);
    const retryAfter = Number(response.headers.get('Retry-After'));
    if (Number.isInteger(retryAfter) && retryAfter > 0) failure.retryAfter = retryAfter;
    return { ok: false, error: failure };
  }
  const value = read(answer);
  if (value === null) return { ok: false, error: { status: response.status, code: 'internal', message: 'Unexpected answer from the API' } };
  return { ok: true, value };
}

// ---------------------------------------------------------------------------------------------
// Users: /api/admin/users

/** An AdminUser read from untrusted JSON, or null when the shape is wrong. */
function readAdminUser(value: unknown): AdminUser | null {
  if (!isRecord(value)) return null;
  const { userName, name, lastName, role, email, disabled, avatar, scope, createdAt, updatedAt, invited, company } = value;
  if (typeof userName !== 'string' || typeof name !== 'string' || typeof lastName !== 'string') return null;
  if (typeof role !== 'string' || typeof disabled !== 'boolean') return null;
  return {
    userName,
    name,
    lastName,
    role,
    disabled,
    email: typeof email === 'string' ? email : null,
    avatar: typeof avatar === 'string' ? avatar : null,
    scope: Array.isArray(scope) ? scope.filter((s): s is string => typeof s === 'string') : [],
    createdAt: typeof createdAt === 'string' ? createdAt : '',
    updatedAt: typeof updatedAt === 'string' ? updatedAt : '',
    invited: invited === true,
    company: readCompany(company),
  };
}

/** A user's company from untrusted JSON, or null. */
function readCompany(value: unknown): AdminUser['company'] {
  if (!isRecord(value)) return null;
  const { id, name, role } = value;
  if (typeof id !== 'number' || typeof name !== 'string' || !isCompanyRole(role)) return null;
  return { id, name, role };
}

function readUserList(value: unknown): UserList | null {
  if (!isRecord(value) || !Array.isArray(value.items)) return null;
  const { total, page, pageSize } = value;
  if (typeof total !== 'number' || typeof page !== 'number' || typeof pageSize !== 'number') return null;
  const items: AdminUser[] = [];
  for (const item of value.items) {
    const user = readAdminUser(item);
    if (!user) return null;
    items.push(user);
  }
  return { items, total, ...(value.totalCapped === true ? { totalCapped: true } : {}), page, pageSize };
}

/** An invitation read from untrusted JSON (the link is shown as text to copy, an http(s) URL only). */
function readInvitation(value: unknown): Invitation | undefined {
  if (!isRecord(value) || typeof value.expiresAt !== 'string') return undefined;
  const { sentTo, link } = value;
  return {
    expiresAt: value.expiresAt,
    sentTo: typeof sentTo === 'string' ? sentTo : undefined,
    link: typeof link === 'string' && /^https?:\/\//.test(link) ? link : undefined,
  };
}

function readUserWithPassword(value: unknown): UserWithPassword | null {
  if (!isRecord(value)) return null;
  const user = readAdminUser(value.user);
  if (!user) return null;
  return {
    user,
    password: typeof value.password === 'string' ? value.password : undefined,
    invitation: readInvitation(value.invitation),
  };
}

const userPath = (userName: string) => `/api/admin/users/${encodeURIComponent(userName)}`;

export function fetchUsers(q: string, page: number, pageSize: number): Promise<ApiAnswer<UserList>> {
  const params = new URLSearchParams({ q, page: String(page), pageSize: String(pageSize) });
  return callApi(`/api/admin/users?${params.toString()}`, readUserList);
}

export function createUser(input: NewUserInput): Promise<ApiAnswer<UserWithPassword>> {
  return callApi('/api/admin/users', readUserWithPassword, 'POST', input);
}

export function updateUser(userName: string, changes: { role?: Role; disabled?: boolean }): Promise<ApiAnswer<UserWithPassword>> {
  return callApi(userPath(userName), readUserWithPassword, 'PATCH', changes);
}

/** A new password generated by the server, answered once. */
export function resetPassword(userName: string): Promise<ApiAnswer<UserWithPassword>> {
  return callApi(`${userPath(userName)}/password`, readUserWithPassword, 'POST', {});
}

/** Where a user is moved: an existing company, or a new one by its name. */
export type CompanyTarget = { companyId: number; name: string } | { newCompany: string };

/** Puts a client or organisation user in a company as its manager or a member. */
export function moveToCompany(userName: string, target: CompanyTarget, role: CompanyRole): Promise<ApiAnswer<UserWithPassword>> {
  const body = 'companyId' in target ? { companyId: target.companyId, role } : { newCompany: target.newCompany, role };
  return callApi(`${userPath(userName)}/company`, readUserWithPassword, 'PUT', body);
}

export type CompanyChoice = { id: number; name: string; kind: string; members: number };

/** Companies whose name contains `q` (the console's company field suggests them). */
export function searchCompanies(q: string): Promise<ApiAnswer<CompanyChoice[]>> {
  const params = new URLSearchParams({ q, pageSize: '10' });
  return callApi(`/api/admin/companies?${params.toString()}`, (value) => {
    if (!isRecord(value) || !Array.isArray(value.items)) return null;
    return value.items.flatMap((item: unknown) =>
      isRecord(item) && typeof item.id === 'number' && typeof item.name === 'string' && typeof item.kind === 'string'
        ? [{ id: item.id, name: item.name, kind: item.kind, members: typeof item.members === 'number' ? item.members : 0 }]
        : [],
    );
  });
}

/** A new invitation link for a user who has not accepted yet (the older one stops working). */
export function resendInvitation(userName: string): Promise<ApiAnswer<UserWithPassword>> {
  return callApi(`${userPath(userName)}/invitation`, readUserWithPassword, 'POST');
}

// ---------------------------------------------------------------------------------------------
// Ending a user's sessions: /api/admin/users/{userName}/sessions (the audit log's calls: audit/audit-api.ts)

/** Every session of the user ends (an admin's own: all but the one in use); how many did. */
export function endSessions(userName: string): Promise<ApiAnswer<UserWithPassword & { ended: number }>> {
  return callApi(
    `${userPath(userName)}/sessions`,
    (value) => {
      const answer = readUserWithPassword(value);
      return answer && isRecord(value) && typeof value.ended === 'number' ? { ...answer, ended: value.ended } : null;
    },
    'DELETE',
  );
}

// What the page server asks of the API, behind one interface: the built-in API's services
// called in-process (embedded), or the external API over HTTP (API_URL). Both answer with
// the same contract (docs/openapi.json) and fail with ApiError.
import { decodeJwt } from 'jose';
import type { UserList } from '../../shared/page-data.ts';
import { isPermitted, type SessionUser } from '../../shared/user.ts';
import type { Db } from '../db/index.ts';
import { createReadCache } from '../db/read-cache.ts';
import { ApiError } from '../http/errors.ts';
import { upstreamFailure, UpstreamError } from '../http/upstream.ts';
import * as users from '../users/users.ts';
import type { ImageUploads } from '../uploads/images.ts';
import type { Sessions } from './session-store.ts';
import { newSessionId, signToken, type TokenClaims, type TokenVerifier } from './tokens.ts';

export type Backend = {
  login(identifier: string, password: string): Promise<{ token: string }>;
  updateProfile(token: string, changes: { name: string; lastName: string }): Promise<{ token: string; user: SessionUser }>;
  setAvatar(token: string, image: Buffer, contentType: string): Promise<{ token: string; user: SessionUser }>;
  /** Checks the current password first (422 wrong_current_password), then the new one. */
  changePassword(token: string, currentPassword: string, newPassword: string): Promise<{ token: string }>;
  /** Checks the signed-in user's password and changes nothing: 422 wrong_current_password if wrong. */
  checkPassword(token: string, password: string): Promise<void>;
  /** A page of users; pageSize as the contract allows (1–100, default 20). */
  listUsers(token: string, query: { q?: string; page?: number; pageSize?: number }): Promise<UserList>;
};

export const INVALID_CREDENTIALS = 'invalid_credentials';
export const WRONG_CURRENT_PASSWORD = users.WRONG_CURRENT_PASSWORD;

export type EmbeddedDeps = {
  db: Db;
  sessions: Sessions;
  key: Uint8Array;
  ttlMinutes: number;
  verify: TokenVerifier;
  uploads: ImageUploads;
};

export function embeddedBackend(deps: EmbeddedDeps): Backend {
  const { db } = deps;
  // The admin console asks its first page of users on every load (db/read-cache.ts); the same for every admin.
  const userLists = createReadCache<UserList>(db, { tables: ['users'] });
  async function currentUser(token: string): Promise<users.User> {
    let claims: TokenClaims;
    try {
      claims = await deps.verify(token);
    } catch {
      throw new ApiError(401, 'unauthorized', 'The token is missing, invalid or expired');
    }
    const user = await deps.sessions.userForToken(token, claims);
    if (!user) throw new ApiError(401, 'unauthorized', 'The token is missing, invalid or expired');
    return user;
  }
  const issue = (user: users.User, sessionId: string) => signToken(users.sessionUserOf(user), deps.key, deps.ttlMinutes, sessionId);
  /**
   * A fresh token of the same session (its claims follow the change; the old one stays valid as
   * long as the session): the row keeps the newest, for the browser's requests.
   */
  async function reissue(token: string, user: users.User): Promise<string> {
    const { sid } = await deps.verify(token);
    const fresh = await issue(user, sid ?? newSessionId());
    await deps.sessions.replaceToken(token, fresh);
    // What this process kept of the user's sessions shows the change at once.
    deps.sessions.forgetUser(user.userName);
    return fresh;
  }

  return {
    async login(identifier, password) {
      const user = await users.authenticate(db, identifier, password);
      if (!user) throw new ApiError(401, INVALID_CREDENTIALS, 'Incorrect user name or password');
      // The token names the session it will be: the caller makes the row (auth/session-store.ts).
      return { token: await issue(user, newSessionId()) };
    },
    async updateProfile(token, changes) {
      const user = await users.updateProfile(db, (await currentUser(token)).userName, changes);
      return { token: await reissue(token, user), user: users.sessionUserOf(user) };
    },
    async setAvatar(token, image) {
      const current = await currentUser(token);
      const url = await deps.uploads.save('avatars', image, {
        owner: current.userName,
        uploader: current.userName,
        replacing: current.avatar,
      });
      let replaced: Awaited<ReturnType<typeof users.replaceAvatar>>;
      try {
        replaced = await users.replaceAvatar(db, current.userName, url);
      } catch (error) {
        await deps.uploads.remove(url);
        throw error;
      }
      await deps.uploads.remove(replaced.previous);
      return { token: await reissue(token, replaced.user), user: users.sessionUserOf(replaced.user) };
    },
    async changePassword(token, currentPassword, newPassword) {
      const user = await users.changePassword(db, (await currentUser(token)).userName, currentPassword, newPassword);
      // The user's other sessions end; this one goes on with a token dated after the change.
      const fresh = await reissue(token, user);
      await deps.sessions.endOthersOf(user.userName, fresh);
      return { token: fresh };
    },
    async checkPassword(token, password) {
      await users.verifyCurrentPassword(db, (await currentUser(token)).userName, password);
    },
    async listUsers(token, query) {
      const user = await currentUser(token);
      // The admin console's list, and the users report of a holder of reports:read (docs/decisions/053).
      if (!isPermitted(user, 'reports:read')) throw new ApiError(403, 'forbidden', 'Only administrators may do this');
      return userLists.get(JSON.stringify([query.q ?? '', query.page ?? 1, query.pageSize ?? null]), () => users.listUsers(db, query));
    },
  };
}

const UPSTREAM_TIMEOUT_MS = 5000;

/** The user name a session's token carries (verified when the session began), as the API wrote it. */
function userNameOf(token: string): string {
  const { userName } = decodeJwt(token);
  if (typeof userName !== 'string' || !userName) throw new ApiError(502, 'bad_token', 'The session token names no user');
  return userName;
}

/**
 * The external API (API_URL), spoken to with the contract of docs/openapi.json; its refusals pass
 * on the codes of `errorCodes`, never its words (http/upstream.ts).
 */
export function httpBackend(apiUrl: string, errorCodes: ReadonlySet<string>, fetchImpl: typeof fetch = fetch): Backend {
  const base = apiUrl.replace(/\/+$/, '');
  async function call<T>(
    method: string,
    path: string,
    options: { token?: string; json?: unknown; body?: Buffer; contentType?: string } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.body) {
      headers['Content-Type'] = options.contentType ?? 'application/octet-stream';
      body = new Uint8Array(options.body);
    }
    // What the log names: the call, without its query.
    const what = `${method} ${path.split('?')[0]}`;
    let response: Response;
    try {
      response = await fetchImpl(base + path, {
        method,
        headers,
        body: body ?? null,
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      throw new UpstreamError(503, 'api_unavailable', `The API at ${base} could not be reached for ${what}`, { status: 0 }, undefined, {
        cause: error,
      });
    }
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      if (response.ok) throw new ApiError(502, 'bad_gateway', `The API answered ${method} ${path} with something that is not JSON`);
    }
    // Its words stay in the log: the site says its own (http/upstream.ts).
    if (!response.ok) throw upstreamFailure(response.status, parsed, what, errorCodes);
    return parsed as T;
  }

  async function freshToken(token: string, answer: { token?: unknown }) {
    return typeof answer.token === 'string' && answer.token ? answer.token : token;
  }

  async function login(identifier: string, password: string): Promise<{ token: string }> {
    try {
      const answer = await call<{ token?: unknown }>('POST', '/login', { json: { identifier, password } });
      if (typeof answer?.token !== 'string' || !answer.token)
        throw new ApiError(502, 'bad_gateway', 'The API answered the login without a token');
      return { token: answer.token };
    } catch (error) {
      // Whatever the upstream says about a refused login, the visitor hears one message.
      if (
        error instanceof ApiError &&
        (error.status === 401 || error.status === 403 || error.status === 404 || error.status === 400 || error.status === 422)
      ) {
        throw new ApiError(401, INVALID_CREDENTIALS, 'Incorrect user name or password');
      }
      throw error;
    }
  }

  return {
    login,
    async updateProfile(token, changes) {
      const answer = await call<{ token?: string; user: SessionUser }>('PATCH', '/me', { token, json: changes });
      return { token: await freshToken(token, answer), user: answer.user };
    },
    async setAvatar(token, image, contentType) {
      const answer = await call<{ token?: string; user: SessionUser }>('PUT', '/me/avatar', { token, body: image, contentType });
      return { token: await freshToken(token, answer), user: answer.user };
    },
    async changePassword(token, currentPassword, newPassword) {
      const answer = await call<{ token?: string }>('POST', '/me/password', { token, json: { currentPassword, newPassword } });
      return { token: await freshToken(token, answer) };
    },
    async checkPassword(token, password) {
      // The contract has no "check my password" (docs/openapi.json): signing in as the token's
      // user is one. It counts against the API's own limits, as the guess it is; its token is dropped.
      // The user name is the one the sign-in's token gave, as the API wrote it (no user-fetch
      // call exists, docs/specification.md §13.1).
      try {
        await login(userNameOf(token), password);
      } catch (error) {
        if (error instanceof ApiError && error.code === INVALID_CREDENTIALS) throw users.wrongCurrentPassword();
        throw error;
      }
    },
    listUsers: (token, query) =>
      call<UserList>(
        'GET',
        `/admin/users?${new URLSearchParams({ q: query.q ?? '', page: String(query.page ?? 1), ...(query.pageSize ? { pageSize: String(query.pageSize) } : {}) })}`,
        { token },
      ),
  };
}

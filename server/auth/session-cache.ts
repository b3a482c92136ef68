// What this process keeps of the sessions it read: each session and its user as they were read,
// for at most SESSION_CACHE_MS; forgotten at once when this process changes them, or when the
// change feed says another instance did. A read begun before something was forgotten is not kept.
import type { SessionUser } from '../../shared/user.ts';
import { canonicalIdentity } from '../../shared/identity.ts';
import { BoundedMap } from '../../shared/bounded-map.ts';
import type { Logger } from '../base/logger.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Db } from '../db/index.ts';
import type { SessionRow } from '../db/schema.ts';
import * as users from '../users/users.ts';
import type { Session } from './session-cookie.ts';
import type { TokenClaims, TokenVerifier } from './tokens.ts';

/** How long a process trusts what it read of a session and its user (another instance's change shows within this). */
export const SESSION_CACHE_MS = 1_000;
/** last_seen_at is written at most this often per session (not on every request). */
const LAST_SEEN_EVERY_MS = 60_000;
/** Sessions a process remembers (what it read, when it last wrote last_seen_at); older ones are read again. */
const SESSIONS_KEPT = 50_000;

export type Cached = { session: Session | null; user: users.User | null; at: number };

export type SessionCacheDeps = {
  db: Db;
  verify: TokenVerifier;
  builtIn: boolean;
  logger: Logger;
  changes: ChangeFeed | undefined;
  now: () => number;
};

/** The session user an external API's token names (its claims are all this site knows). */
export function userOf(claims: TokenClaims): SessionUser {
  return {
    name: claims.name,
    lastName: claims.lastName,
    userName: claims.userName,
    role: claims.role,
    avatar: claims.avatar,
    scope: claims.scope,
  };
}

export function createSessionCache(deps: SessionCacheDeps) {
  const { db, verify, builtIn, logger, changes, now } = deps;
  const { k } = db;
  const cache = new BoundedMap<string, Cached>(SESSIONS_KEPT);
  // Reads of a session under way: the requests that ask meanwhile share one.
  const loading = new Map<string, Promise<Cached>>();
  // Bumped by whatever this process forgets: a read begun before it is not kept.
  let generation = 0;
  const lastSeenWritten = new BoundedMap<string, number>(SESSIONS_KEPT);

  function forget(id: string) {
    generation++;
    cache.delete(id);
    loading.delete(id);
  }
  function dropUser(userName: string) {
    const name = canonicalIdentity(userName);
    generation++;
    loading.clear();
    for (const [id, entry] of cache) if (entry.session?.user.userName === name) cache.delete(id);
  }
  changes?.subscribe('user:', (topic) => dropUser(topic.slice('user:'.length)));
  changes?.subscribe('session:', (topic) => forget(topic.slice('session:'.length)));

  /** The row and its user as they are now: a session counts while both do. */
  async function load(id: string): Promise<Cached> {
    const began = generation;
    const row = await k.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    const result = await judge(row);
    // Ended or changed while it was read: the next request reads it again.
    if (generation === began) {
      cache.set(id, result);
    }
    return result;
  }

  /** The session `id` and its user as this process may trust them: read at most SESSION_CACHE_MS ago. */
  function fresh(id: string): Cached | Promise<Cached> {
    const cached = cache.get(id);
    if (cached && now() - cached.at < SESSION_CACHE_MS) return cached;
    let pending = loading.get(id);
    if (!pending) {
      const started = load(id).finally(() => {
        if (loading.get(id) === started) loading.delete(id);
      });
      loading.set(id, started);
      pending = started;
    }
    return pending;
  }

  async function judge(row: SessionRow | undefined): Promise<Cached> {
    const at = now();
    if (!row || Number(row.expires_at) * 1000 <= at) return { session: null, user: null, at };
    let claims: TokenClaims;
    try {
      claims = await verify(row.api_token);
    } catch {
      return { session: null, user: null, at };
    }
    if (!builtIn)
      return { session: { id: row.id, token: row.api_token, user: userOf(claims), exp: Number(row.expires_at) }, user: null, at };
    const user = await users.findUser(db, row.user_name);
    if (!user || user.disabled || users.tokenPredatesPassword(user, claims.iat)) return { session: null, user: null, at };
    return { session: { id: row.id, token: row.api_token, user: users.sessionUserOf(user), exp: Number(row.expires_at) }, user, at };
  }

  /** Records when the session was last seen, at most every LAST_SEEN_EVERY_MS; a failure is logged. */
  async function touch(id: string): Promise<void> {
    const at = now();
    if (at - (lastSeenWritten.get(id) ?? 0) < LAST_SEEN_EVERY_MS) return;
    lastSeenWritten.set(id, at);
    try {
      await k
        .updateTable('sessions')
        .set({ last_seen_at: new Date(at).toISOString() })
        .where('id', '=', id)
        .execute();
    } catch (error) {
      logger.warn({ err: error }, 'could not record when a session was last seen');
    }
  }

  return { forget, dropUser, fresh, judge, touch };
}

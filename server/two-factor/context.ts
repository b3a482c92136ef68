// What the parts of two-factor authentication share: the database, the sealed secrets, the audit
// log, and what this process read of each user's 2FA (kept CACHE_MS, forgotten when it changes here).
import type { Request } from 'express';
import { canonicalIdentity } from '../../shared/identity.ts';
import { hasRole, type SessionUser } from '../../shared/user.ts';
import { noAudit, type AuditEntry } from '../audit/types.ts';
import { createTtlCache } from '../base/cache.ts';
import type { Db } from '../db/index.ts';
import { keyList } from '../auth/keys.ts';
import { secretBox, type SecretBox } from './secrets.ts';
import type { TwoFactorDeps } from './service.ts';

/** How long this process trusts what it read of a user's 2FA (other instances' changes show within it). */
const CACHE_MS = 1_000;

export type TwoFactorContext = {
  deps: TwoFactorDeps;
  k: Db['k'];
  now: () => number;
  box: SecretBox;
  /** The recovery codes' keys, newest first: new codes under the first, a code under any counts. */
  recoveryKeys: readonly Buffer[];
  /** The limiter's key of an account (its canonical name). */
  key(userName: string): string;
  /** Records an audit entry from the request's address; a failure is logged, never thrown. */
  record(req: Request, entry: AuditEntry): Promise<void>;
  rowOf(userName: string): ReturnType<typeof readRow>;
  isEnabled(userName: string): Promise<boolean>;
  /** Forgets what this process read of the user's 2FA (after changing it). */
  forget(userName: string): void;
  /** An administrator on a site that requires 2FA of administrators. */
  requiredFor(user: Pick<SessionUser, 'role'>): boolean;
};

function readRow(k: Db['k'], userName: string) {
  return k.selectFrom('two_factor').selectAll().where('user_name', '=', userName).executeTakeFirst();
}

export function twoFactorContext(deps: TwoFactorDeps): TwoFactorContext {
  const { db, logger } = deps;
  const { k } = db;
  const now = deps.now ?? Date.now;
  const audit = deps.audit ?? noAudit;
  const enabledCache = createTtlCache<boolean>({ now, maxEntries: 10_000 });
  const key = (userName: string) => canonicalIdentity(userName);

  return {
    deps,
    k,
    now,
    box: secretBox(deps.secretKey),
    recoveryKeys: keyList(deps.recoveryKey),
    key,
    record(req, entry) {
      return audit.record({ ...entry, ip: req.ip ?? null }).catch((error: unknown) => {
        logger.warn({ err: error, action: entry.action }, 'could not record an audit entry');
      });
    },
    async rowOf(userName) {
      return readRow(k, userName);
    },
    async isEnabled(userName) {
      const cached = enabledCache.get(key(userName));
      if (cached?.fresh) return cached.value;
      const row = await k.selectFrom('two_factor').select('enabled_at').where('user_name', '=', userName).executeTakeFirst();
      const enabled = Boolean(row?.enabled_at);
      enabledCache.set(key(userName), enabled, CACHE_MS);
      return enabled;
    },
    forget(userName) {
      enabledCache.delete(key(userName));
    },
    requiredFor(user) {
      return deps.requiredForAdmins && hasRole(user, 'ADMIN');
    },
  };
}

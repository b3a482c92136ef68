// Two-factor authentication as a domain, in the site's database: the secrets sealed and the
// recovery codes keyed with keys of their own from SESSION_SECRETS (newest first, docs/decisions/051); wrong codes counted in the
// login limits' window; a right password of a user with 2FA waits for the code (a challenge, no
// session).
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import type { Audit } from '../audit/types.ts';
import { deriveKeyBytes, deriveKeys } from '../auth/keys.ts';
import type { Db } from '../db/index.ts';
import type { RateLimiter } from '../db/rate-limit.ts';
import { createChallenges } from './challenge.ts';
import { createTwoFactor } from './service.ts';

export type TwoFactorModuleDeps = { config: Config; db: Db; audit: Audit; logger: Logger; passwordLimiter: RateLimiter };

export function twoFactorModule({ config, db, audit, logger, passwordLimiter }: TwoFactorModuleDeps) {
  const key = (purpose: string) => deriveKeyBytes(config.SESSION_SECRETS, purpose);
  const twoFactor = createTwoFactor({
    db,
    secretKey: key('two factor secret v1'),
    recoveryKey: key('two factor recovery codes v1'),
    issuer: config.SITE_NAME,
    requiredForAdmins: config.ADMIN_REQUIRE_2FA,
    limiter: passwordLimiter,
    limits: { perAccount: config.TWO_FACTOR_MAX_FAILURES, perIp: config.LOGIN_MAX_FAILURES_PER_IP },
    audit,
    logger,
  });
  const challenges = createChallenges({ db, sealKey: deriveKeys(config.SESSION_SECRETS, 'two factor challenge v1') });
  return { twoFactor, challenges };
}

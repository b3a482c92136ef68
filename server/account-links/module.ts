// Invitations, forgotten passwords and e-mail changes as a domain: the site's own users only,
// so null with an external API.
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import type { Audit } from '../audit/types.ts';
import type { Sessions } from '../auth/session-store.ts';
import type { Db } from '../db/index.ts';
import { createRateLimiter } from '../db/rate-limit.ts';
import type { Mail } from '../mail/index.ts';
import type { UserLocales } from '../users/user-locales.ts';
import { createAccounts } from './service.ts';

export type AccountLinksModuleDeps = {
  config: Config;
  db: Db;
  mail: Mail;
  sessions: Sessions;
  locales: UserLocales;
  logger: Logger;
  audit: Audit;
  external: boolean;
};

export function accountLinksModule({ config, db, external, ...deps }: AccountLinksModuleDeps) {
  if (external) return null;
  return createAccounts({
    db,
    ...deps,
    origin: config.PUBLIC_URL,
    resetLimits: {
      limiter: createRateLimiter(db, config.PASSWORD_RESET_WINDOW_MINUTES * 60_000),
      perIp: config.PASSWORD_RESET_MAX_PER_IP,
      perAccount: config.PASSWORD_RESET_MAX_PER_ACCOUNT,
    },
    emailChangeLimits: {
      limiter: createRateLimiter(db, config.EMAIL_CHANGE_WINDOW_MINUTES * 60_000),
      perAccount: config.EMAIL_CHANGE_MAX_PER_ACCOUNT,
      perAddress: config.EMAIL_CHANGE_MAX_PER_ADDRESS,
    },
    invitationLimits: {
      limiter: createRateLimiter(db, 3_600_000),
      perAdmin: config.INVITATION_RESENDS_PER_HOUR,
      perUser: config.INVITATION_RESENDS_PER_USER_PER_HOUR,
    },
  });
}

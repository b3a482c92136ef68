// The user's own account and their company as a domain: sessions, their data, the deletion of
// the account; who is in which company, the manager's invitations and removals; and the forms
// of My Profile that change them.
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import type { Accounts } from '../account-links/service.ts';
import type { Audit } from '../audit/types.ts';
import type { Backend } from '../auth/backend.ts';
import type { CurrentPasswordGuard } from '../auth/login.ts';
import type { Sessions } from '../auth/session-store.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Db } from '../db/index.ts';
import { createRateLimiter } from '../db/rate-limit.ts';
import type { FailWith, FormFailure } from '../http/form-answers.ts';
import { createCompanyForms } from './company-forms.ts';
import { createCompanyService } from './company-service.ts';
import { accountDataDownload } from './download.ts';
import { createAccount } from './index.ts';
import { createProfileForms } from './profile-forms.ts';

export type MyAccountModuleDeps = {
  config: Config;
  db: Db;
  changes: ChangeFeed;
  sessions: Sessions;
  backend: Backend;
  accounts: Accounts | null;
  currentPasswordGuard: CurrentPasswordGuard;
  audit: Audit;
  logger: Logger;
  external: boolean;
};

export function myAccountModule({
  config,
  db,
  changes,
  sessions,
  backend,
  accounts,
  currentPasswordGuard,
  audit,
  logger,
  external,
}: MyAccountModuleDeps) {
  const companies = createCompanyService({
    db,
    accounts,
    audit,
    invitations: { limiter: createRateLimiter(db, 3_600_000), perHour: config.COMPANY_INVITATIONS_PER_HOUR },
  });
  const account = createAccount({ db, sessions, builtIn: !external, changes, logger });
  // Everything the site holds about the signed-in user, as JSON (my-account/download.ts).
  const dataDownload = accountDataDownload({
    db,
    builtIn: !external,
    siteName: config.SITE_NAME,
    logger,
    audit,
    limiter: createRateLimiter(db, 3_600_000),
    maxConcurrent: config.EXPORTS_MAX_CONCURRENT,
    stallMs: config.DOWNLOAD_STALL_SECONDS * 1000,
    deadlineMs: config.EXPORT_DEADLINE_SECONDS * 1000,
    exportsPerHour: config.DATA_EXPORTS_PER_HOUR,
  });
  return {
    companies,
    account,
    dataDownload,
    forms: (fail: FormFailure, failWith: FailWith) => ({
      profile: createProfileForms({ sessions, deletions: account.deletions, backend, currentPasswordGuard, audit, fail, failWith }),
      company: createCompanyForms({ companies, fail, failWith }),
    }),
  };
}

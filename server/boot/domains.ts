// Phase 3, domains: each folder that owns a domain builds itself from what it is given
// (server/<domain>/module.ts); this file only orders them and hands each what the earlier ones
// made. What crosses domains — a project's notices reaching the notification centre and the
// e-mail, through the fan-out — is wired here, where all three are known.
import { accountLinksModule } from '../account-links/module.ts';
import { authModule } from '../auth/module.ts';
import { calendarModule } from '../calendar-feed/module.ts';
import { contactModule } from '../contact/module.ts';
import { createRateLimiter } from '../db/rate-limit.ts';
import { jobsModule } from '../jobs/module.ts';
import { liveModule } from '../live/module.ts';
import { fanOutModule } from '../fan-out/module.ts';
import { createMail } from '../mail/index.ts';
import { myAccountModule } from '../my-account/module.ts';
import { notificationsModule } from '../notifications/module.ts';
import { projectsModule } from '../projects/module.ts';
import { searchModule } from '../search/module.ts';
import { twoFactorModule } from '../two-factor/module.ts';
import { imageUploads } from '../uploads/images.ts';
import { embeddedBranding } from '../user-branding/embedded.ts';
import { BRANDING_TIMEOUT_MS, withBrandingTimeout } from '../user-branding/timeout.ts';
import { userLocales } from '../users/user-locales.ts';
import type { Base } from './base.ts';
import type { Data } from './data.ts';
import type { AppDeps } from './deps.ts';

export function bootDomains(deps: AppDeps, base: Base, data: Data) {
  const { config, logger, brand, cms, mediaHosts } = base;
  const { db, changes, audit } = data;
  const uploads = imageUploads({
    db,
    limiter: createRateLimiter(db, 60_000),
    limits: { perMinute: config.UPLOADS_PER_MINUTE, quotaBytes: config.UPLOAD_QUOTA_MB * 1024 * 1024 },
  });
  const auth = authModule({ config, db, changes, logger, uploads, errorCodes: base.errorCodes, fetch: deps.fetch });
  const brandingStore = embeddedBranding(db, { defaultColor: brand.colors.primary, changes, logger });
  const branding = withBrandingTimeout(
    deps.branding ?? cms?.branding ?? brandingStore,
    BRANDING_TIMEOUT_MS,
    logger,
    mediaHosts,
    brand.colors.primary,
  );
  // Every e-mail goes through the outbox; the job runner polls it (one loop per instance), or the
  // outbox polls itself when the runner does not (tests).
  const jobsPoll = deps.jobs?.poll !== false;
  const mail = createMail({ db, config, logger, brand, i18n: base.i18n, poll: !jobsPoll, ...deps.mail });
  const contact = contactModule({ config, db, logger, mail });
  // The language of a user's e-mails is the locale they last used.
  const locales = userLocales(db, logger);
  const { tell, notifications } = notificationsModule({ config, db, changes, logger });
  // A project's notices are queued with the change and told a batch at a time, off the request path (docs/decisions/052).
  const { fanOut, projectNotices } = fanOutModule({ db, mail, notifications, tell, logger, options: deps.fanOut });
  const projects = projectsModule({ config, db, audit, logger, ...projectNotices, live: tell });
  const jobs = jobsModule({ config, db, mail, notifications, fanOut, logger, now: deps.jobs?.now });
  if (jobsPoll) jobs.start();
  const liveStreams = liveModule({
    config,
    changes,
    sessions: auth.sessions,
    notifications,
    forgetUnread: (userName) => projects.projects.forgetUnread(userName),
    logger,
  });
  const external = auth.external;
  const accounts = accountLinksModule({ config, db, mail, sessions: auth.sessions, locales, logger, audit, external });
  const myAccount = myAccountModule({ config, db, changes, ...auth, accounts, audit, logger });
  const twoFactor = twoFactorModule({ config, db, audit, logger, passwordLimiter: auth.passwordLimiter });
  // The public content, searchable; indexed again when the CMS says it changed.
  const search = searchModule({ db, content: base.content, logger, fromCms: Boolean(cms) && !deps.content });
  search.subscribe(changes);
  const calendar = calendarModule({ config, db, projects: projects.projects, translate: base.translate, logger, external });
  return {
    uploads,
    auth,
    brandingStore,
    branding,
    contact,
    mail,
    locales,
    notifications,
    fanOut,
    projects,
    jobs,
    liveStreams,
    accounts,
    myAccount,
    twoFactor,
    calendar,
    search,
  };
}

export type Domains = ReturnType<typeof bootDomains>;

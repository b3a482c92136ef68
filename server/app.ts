// The Express application, composed in the order a request meets it. Read top to bottom to
// know where a request goes.
import compression from 'compression';
import cluster from 'node:cluster';
import express from 'express';
import helmet from 'helmet';
import { join } from 'node:path';
import type { i18n } from 'i18next';
import { LOCALE_CODES, type Locale } from '../shared/locales.ts';
import type { Translate } from '../shared/translate.ts';
import { localeForms, localePath, ROUTES } from '../shared/routes.ts';
import { imageUploads, moveUploadsIntoDatabase } from './uploads/images.ts';
import { embeddedBranding, type BrandingSource } from './user-branding/embedded.ts';
import { BRANDING_TIMEOUT_MS, withBrandingTimeout } from './user-branding/timeout.ts';
import { loadBrand, type Brand } from './brand/brand.ts';
import { mountBrand } from './brand/routes.ts';
import { companyOf } from './brand/company.ts';
import { createApiProxy } from './api/proxy.ts';
import { createApiRouter } from './api/router.ts';
import { createConversation } from './projects/conversation.ts';
import { createDocumentUploads } from './projects/document-upload.ts';
import { documentQuotas } from './projects/document-quotas.ts';
import { createExpertise } from './projects/expertise.ts';
import { createProjects } from './projects/service.ts';
import { projectPath } from '../shared/projects.ts';
import { createDocumentDownloads, documentDownload, DOWNLOAD_PATH } from './projects/download.ts';
import { createAuditLog } from './audit/log.ts';
import { embeddedBackend, httpBackend } from './auth/backend.ts';
import { logoutHandler, roleHome } from './auth/forms.ts';
import { createSessions } from './auth/session-store.ts';
import { deriveKey } from './auth/keys.ts';
import { createCurrentPasswordGuard, createLoginGuard, type PasswordLimits } from './auth/login.ts';
import { createRateLimiter } from './db/rate-limit.ts';
import { createDeviceCookies } from './auth/device-cookie.ts';
import { createSessionCodec, sessionMiddleware } from './auth/session-cookie.ts';
import { bridgeSessionToBearer } from './auth/bearer-bridge.ts';
import { hmacVerifier, jwksVerifier, keyFromSecret, TOKEN_ISSUER, unverifiedDecoder, type TokenVerifier } from './auth/tokens.ts';
import { createChangeFeed } from './db/changes.ts';
import { databaseFile, openDatabase, type Db } from './db/index.ts';
import { createFormTokens } from './contact/form-token.ts';
import { contactMessages } from './contact/messages.ts';
import { analyticsAllowed, analyticsTags, ANALYTICS_HOSTS, consentHandler } from './http/consent.ts';
import { themeHandler, themeOf } from './http/theme.ts';
import { standingConsent } from '../shared/consent.ts';
import { STYLEGUIDE_PATH, styleguideHandler } from './dev/styleguide.tsx';
import { errorHandler } from './http/error-handler.ts';
import { checkReadiness, liveness, readiness } from './http/health.ts';
import type { Metrics } from './metrics/metrics.ts';
import { nonceOf, requestContext } from './http/request-context.ts';
import { contentSecurityPolicy } from './http/csp.ts';
import { requireSameOrigin } from './http/same-origin.ts';
import { mountServiceWorker } from './sw/routes.ts';
import type { PdfRenderer } from './pdf/renderer.ts';
import { pdfRoutes } from './pdf/routes.ts';
import { userLocales } from './users/user-locales.ts';
import { accountPages } from './account-links/pages.ts';
import { readLinkCookie, takeTokenFromUrl } from './account-links/link-cookie.ts';
import { LINK_PAGES, createAccounts } from './account-links/service.ts';
import type { Audit } from './audit/types.ts';
import { findUser } from './users/users.ts';
import type { Config } from './base/config.ts';
import { createStrapiBranding } from './cms/branding.ts';
import { cmsClientOptions, createStrapiClient } from './cms/client.ts';
import { createStrapiContent } from './cms/content.ts';
import { createCmsProxy } from './cms/proxy.ts';
import { createStrapiDrafts } from './cms/drafts.ts';
import { listenForCmsChanges } from './cms/invalidation.ts';
import { cmsWebhook, WEBHOOK_PATH } from './cms/webhook.ts';
import { createPreviewCookie } from './preview/cookie.ts';
import { exitPreview, previewMode, PREVIEW_EXIT_PATH, PREVIEW_PATH, startPreview, type PreviewSetup } from './preview/routes.ts';
import { loadEmbeddedContent } from './content/embedded.ts';
import { withCompany } from './content/placeholders.ts';
import { createContentImages } from './content/images.ts';
import { contentImageFiles } from './http/content-images.ts';
import type { ContentSource } from './content/source.ts';
import { hashedAssets, publicFiles } from './http/static-assets.ts';
import { i18nMiddleware, messagesOf, projectI18n, rememberingTranslate } from './i18n/index.ts';
import { rootLocaleRedirect } from './i18n/root-redirect.ts';
import { createLogger, type Logger } from './base/logger.ts';
import { createMail, type MailDeps } from './mail/index.ts';
import { PATHS } from './base/paths.ts';
import { readManifest, type ClientManifest } from './render/manifest.ts';
import { createRenderCache, renderKey } from './render/render-cache.ts';
import { lastResortPage, renderPage } from './render/render-page.tsx';
import { createPageHandlers, formBodyParsers } from './render/page-handlers.ts';
import { loadPageModules, type PageServices } from './render/page-module.ts';
import { createFailWith, formFailure, type RenderWithForm } from './http/form-answers.ts';
import { createContactForm } from './contact/form.ts';
import { createProjectForms } from './projects/forms.ts';
import { createProfileForms } from './my-account/profile-forms.ts';
import { createCompanyService } from './my-account/company-service.ts';
import { createCompanyForms } from './my-account/company-forms.ts';
import { createAccountLinkForms } from './account-links/forms.ts';
import { createTwoFactorForms } from './two-factor/forms.ts';
import type { SessionUser } from '../shared/user.ts';
import type { ResolveDeps } from './render/resolve.ts';
import { robotsTxt, sitemapXml } from './seo/sitemap.ts';
import { feedRoutes } from './seo/feeds.ts';
import { jsonLdOf } from './seo/json-ld.ts';
import { createAccount } from './my-account/index.ts';
import { accountDataDownload } from './my-account/download.ts';
import { createChallenges } from './two-factor/challenge.ts';
import { adminSetupGate } from './two-factor/gate.ts';
import { createTwoFactor } from './two-factor/service.ts';
import { createLiveStreams, LIVE_SHARE_OF_CONNECTIONS } from './live/streams.ts';
import { liveTeller } from './live/topics.ts';
import { createNotifications } from './notifications/notifications.ts';
import { createCalendarFeeds } from './calendar-feed/feeds.ts';
import { createCalendarForms } from './calendar-feed/forms.ts';
import { createJobs } from './jobs/runner.ts';
import { dailyJobHandlers } from './jobs/daily.ts';
import { unsubscribeRoutes } from './mail/unsubscribe.ts';
import { standalonePage } from './sw/routes.ts';
import { UNSUBSCRIBE_PATH } from '../shared/mail-preferences.ts';
import { CALENDAR_PATH } from '../shared/calendar.ts';
import { LIVE_PATH } from '../shared/notifications.ts';

export type AppDeps = {
  config: Config;
  logger?: Logger;
  content?: ContentSource;
  manifest?: ClientManifest;
  i18n?: i18n;
  /** The database; by default DATA_DIR/site.db. */
  db?: Db;
  /** For the external API mode in tests. */
  fetch?: typeof fetch;
  /** The e-mail module's transport and timing (tests); by default SMTP_URL, or the log outside production. */
  mail?: Omit<MailDeps, 'db' | 'config' | 'logger' | 'i18n'>;
  /** Where branding comes from; by default the database (or the CMS when CMS_URL is set). */
  branding?: BrandingSource;
  /** Lays out the PDF documents (tests); by default a layout thread of the app's own. */
  pdfRenderer?: PdfRenderer;
  /** Where security-relevant actions are recorded; by default nowhere (server/audit/types.ts). */
  audit?: Audit;
  /** The company's identity; by default read from brand/ (a bad brand.json stops the start). */
  brand?: Brand;
  /** Where brand/ is, when `brand` is not given (tests); by default the project's. */
  brandDir?: string;
  /** The job runner's clock and whether it polls (tests run it with `jobs.tick()`); by default it polls. */
  jobs?: { now?: () => number; poll?: boolean };
};

export async function createApp(deps: AppDeps) {
  const { config } = deps;
  const logger = deps.logger ?? createLogger(config.LOG_LEVEL);
  // First: a mistake in brand/ stops the start before anything is opened.
  const brand = deps.brand ?? loadBrand(deps.brandDir);
  // The company as the legal pages and the structured data name it (SITE_NAME and brand.json).
  const company = companyOf(brand, config.SITE_NAME);
  const isProduction = config.NODE_ENV === 'production';
  // Content and branding: a real Strapi when CMS_URL is set, else the embedded defaults.
  // Images on the CMS's upload provider's hosts are shown (and allowed by the CSP) only then.
  const mediaHosts = config.CMS_URL ? config.CMS_MEDIA_HOSTS : [];
  const cms = config.CMS_URL
    ? {
        // Branding sits on the first paint: 1.5 s at most. Content may take a little longer.
        branding: createStrapiBranding({
          client: createStrapiClient(cmsClientOptions(config, logger, 1500)),
          defaultColor: brand.colors.primary,
          ttlMs: config.CMS_CACHE_SECONDS * 1000,
          mediaHosts,
          logger,
        }),
        content: createStrapiContent({
          client: createStrapiClient(cmsClientOptions(config, logger, 5000)),
          ttlMs: config.CMS_CACHE_SECONDS * 1000,
          mediaHosts,
          logger,
        }),
        // The preview's drafts: their own token and client, never cached (server/cms/drafts.ts).
        drafts:
          config.CMS_PREVIEW_SECRET && config.CMS_PREVIEW_TOKEN
            ? createStrapiDrafts({
                client: createStrapiClient({
                  url: config.CMS_URL,
                  timeoutMs: 5000,
                  logger,
                  token: config.CMS_PREVIEW_TOKEN,
                  tokenName: 'CMS_PREVIEW_TOKEN',
                }),
                mediaHosts,
                logger,
              })
            : null,
      }
    : null;
  // The embedded posts' images: the build's renditions, or originals measured now (content/images.ts).
  const contentImages = createContentImages();
  const [source, i18n] = await Promise.all([
    deps.content ?? cms?.content ?? loadEmbeddedContent(PATHS.content, undefined, contentImages),
    deps.i18n ?? projectI18n(),
  ]);
  // Whatever the source, its `{{company.legalName}}`… say what brand.json and SITE_NAME say.
  const content = withCompany(source, company);
  const manifest = deps.manifest ?? readManifest(PATHS.manifest);
  const db =
    deps.db ??
    (await openDatabase({
      url: config.DATABASE_URL,
      file: databaseFile(config.DATA_DIR),
      poolMax: config.DATABASE_POOL_MAX,
      onPoolError: (error) => logger.warn({ err: error }, 'a database connection failed'),
    }));
  // Files of an install from before uploads lived in the database move in (once).
  if (!deps.db) await moveUploadsIntoDatabase(db, config.DATA_DIR, logger);
  // What the instances tell each other so that their caches agree (NOTIFY, or a change counter).
  const changes = await createChangeFeed(db, { logger });
  // What an editor publishes shows at once: the CMS's webhook is told to every instance, each of
  // which makes its own CMS caches stale (server/cms/invalidation.ts).
  if (cms) listenForCmsChanges(changes, { content: cms.content, branding: cms.branding }, logger);
  // Who did what to whom and when (server/audit/): the one audit every part of the site records
  // through; entries older than a year go at start and once a day.
  const auditLog = createAuditLog({ db, logger });
  auditLog.startPruning();
  // A test may listen to what is recorded instead.
  const audit: Audit = deps.audit ?? auditLog;

  // Auth: the API's token key (built-in) or verifier (external), the session's seal, the
  // backend the forms talk to, the shared login limits.
  const apiKey = keyFromSecret(config.API_JWT_SECRET ?? deriveKey(config.SESSION_SECRET, 'api token v1'));
  const external = config.API_URL !== undefined;
  const verify: TokenVerifier = !external
    ? hmacVerifier(apiKey, TOKEN_ISSUER)
    : config.API_JWKS_URL
      ? jwksVerifier(config.API_JWKS_URL)
      : config.API_JWT_SECRET
        ? hmacVerifier(apiKey)
        : unverifiedDecoder();
  const uploads = imageUploads({
    db,
    limiter: createRateLimiter(db, 60_000),
    limits: { perMinute: config.UPLOADS_PER_MINUTE, quotaBytes: config.UPLOAD_QUOTA_MB * 1024 * 1024 },
  });
  const codec = createSessionCodec(config.SESSION_SECRET);
  // Every sign-in is a session row; every private answer asks it who the user is now.
  const sessions = createSessions({ db, codec, verify, builtIn: !external, ttlMinutes: config.TOKEN_TTL_MINUTES, logger, changes });
  const backend = external
    ? httpBackend(config.API_URL!, deps.fetch)
    : embeddedBackend({ db, sessions, key: apiKey, ttlMinutes: config.TOKEN_TTL_MINUTES, verify, uploads });
  const brandingStore = embeddedBranding(db, { defaultColor: brand.colors.primary, changes, logger });
  const branding = withBrandingTimeout(
    deps.branding ?? cms?.branding ?? brandingStore,
    BRANDING_TIMEOUT_MS,
    logger,
    mediaHosts,
    brand.colors.primary,
  );
  const formTokens = createFormTokens(deriveKey(config.SESSION_SECRET, 'contact form v1'));
  const contactStore = contactMessages(db);
  // Every e-mail of the site goes through the outbox (server/mail/); the language of a user's
  // e-mails is the locale they last used.
  // The outbox is polled by the job runner below (one loop per instance), or by itself when the
  // runner does not poll (tests).
  const jobsPoll = deps.jobs?.poll !== false;
  const mail = createMail({ db, config, logger, brand, i18n, poll: !jobsPoll, ...deps.mail });
  const locales = userLocales(db, logger);
  // The notification centre (server/notifications/): every project notice, per recipient; what
  // changes is told to the users' live streams on every instance. Old ones go once a day.
  const tell = liveTeller(changes, logger);
  const notifications = createNotifications({ db, tell, logger });
  notifications.startPruning(config.NOTIFICATIONS_KEEP_DAYS);
  // The private area's projects: always in the site's own database, for the
  // built-in API and the pages alike (docs/decisions/013-projects.md).
  const projects = createProjects({
    db,
    audit,
    timeZone: config.JOBS_TIME_ZONE,
    limits: {
      limiter: createRateLimiter(db, 60_000),
      briefsPerHour: config.PROJECT_BRIEFS_PER_HOUR,
      messagesPerMinute: config.PROJECT_MESSAGES_PER_MINUTE,
      uploadsPerMinute: config.PROJECT_UPLOADS_PER_MINUTE,
      milestoneChangesPerMinute: config.PROJECT_MILESTONE_CHANGES_PER_MINUTE,
      stateChangesPerHour: config.PROJECT_STATE_CHANGES_PER_HOUR,
    },
    milestoneCollapseMs: config.PROJECT_MILESTONE_COLLAPSE_MINUTES * 60_000,
    // A held notice withdrawn: its e-mails not yet sent, and its notifications not yet read.
    withdraw: async (ref) => {
      await notifications.withdraw(ref).catch((error: unknown) => logger.error({ err: error, ref }, 'notifications not withdrawn'));
      return mail.withdraw(ref);
    },
    // After the change is committed: a notification per recipient, then their e-mails; either
    // failing is logged, never the action's failure.
    notify: async (notice) => {
      await notifications
        .record(notice)
        .catch((error: unknown) =>
          logger.error({ err: error, project: notice.project.id, kind: notice.kind }, 'project notice: notifications not written'),
        );
      await mail
        .notifyProject({ ...notice, path: (role, locale) => projectPath(role, notice.project.id, locale) ?? localePath('index', locale) })
        .catch((error: unknown) =>
          logger.error({ err: error, project: notice.project.id, kind: notice.kind }, 'project notice not queued'),
        );
    },
    live: tell,
  });
  // The jobs (server/jobs/): each day from DIGEST_HOUR, the milestone reminders and the e-mail
  // digests; every poll, the outbox. Claimed once across instances, retried with backoff.
  const jobs = createJobs({
    db,
    logger,
    hour: config.DIGEST_HOUR,
    timeZone: config.JOBS_TIME_ZONE,
    handlers: dailyJobHandlers({
      db,
      mail,
      notifications,
      logger,
      collapseMinutes: config.PROJECT_MILESTONE_COLLAPSE_MINUTES,
      now: deps.jobs?.now,
    }),
    outbox: () => mail.poll(),
    ...(deps.jobs?.now ? { now: deps.jobs.now } : {}),
  });
  if (jobsPoll) jobs.start();
  // Live updates (server/live/): one event stream per signed-in tab, fed by the change feed.
  const liveStreams = createLiveStreams({
    changes,
    sessions,
    notifications,
    forgetUnread: (userName) => projects.forgetUnread(userName),
    limits: {
      perUser: config.LIVE_STREAMS_PER_USER,
      // Never every connection: a fifth of HTTP_MAX_CONNECTIONS stays for pages and the API.
      perProcess: Math.min(config.LIVE_STREAMS_MAX, Math.floor(config.HTTP_MAX_CONNECTIONS * LIVE_SHARE_OF_CONNECTIONS)),
      heartbeatMs: config.LIVE_HEARTBEAT_SECONDS * 1000,
      maxAgeMs: config.LIVE_STREAM_MAX_MINUTES * 60_000,
    },
    logger,
  });
  // Invitations, forgotten passwords, e-mail changes (server/account-links/): the site's own users
  // only, so not with an external API.
  const accounts = external
    ? null
    : createAccounts({
        db,
        mail,
        sessions,
        locales,
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
        logger,
        audit,
      });
  // Documents count against byte quotas per user and per project, in the database (docs/decisions/031).
  const conversation = createConversation({ db, projects, quotas: documentQuotas(config), audit });
  // Uploads of documents, API and page form together: a few read at once, each in the chunks it is stored in.
  const documentUploads = createDocumentUploads({
    conversation,
    maxConcurrent: config.UPLOADS_MAX_CONCURRENT,
    waitSeconds: config.UPLOADS_WAIT_SECONDS,
  });
  // Companies: who is in which, the manager's invitations and removals (server/companies/).
  const companies = createCompanyService({
    db,
    accounts,
    audit,
    invitations: { limiter: createRateLimiter(db, 3_600_000), perHour: config.COMPANY_INVITATIONS_PER_HOUR },
  });
  // The user's own account: their sessions, their data, the deletion of the account (server/my-account/).
  const account = createAccount({ db, sessions, builtIn: !external, changes, logger });
  const expertise = createExpertise({ db });
  // Password guesses, on the login and change-password forms and the API (docs/decisions/009).
  const passwordLimiter = createRateLimiter(db, config.LOGIN_WINDOW_MINUTES * 60_000);
  const passwordLimits: PasswordLimits = {
    perIdentifierIp: config.LOGIN_MAX_FAILURES_PER_IDENTIFIER_IP,
    perIp: config.LOGIN_MAX_FAILURES_PER_IP,
    slowdownAfter: config.LOGIN_SLOWDOWN_FAILURES_PER_IDENTIFIER,
    slowdownSeconds: config.LOGIN_SLOWDOWN_SECONDS,
    perAccountPasswordChange: config.PASSWORD_CHANGE_MAX_FAILURES_PER_ACCOUNT,
  };
  // A browser that signed in as an identifier is exempt from what others' failures do to it (L4).
  const loginGuard = createLoginGuard(
    passwordLimiter,
    passwordLimits,
    createDeviceCookies(deriveKey(config.SESSION_SECRET, 'device cookie v1')),
  );
  const currentPasswordGuard = createCurrentPasswordGuard(passwordLimiter, passwordLimits);
  // Two-factor authentication (server/two-factor/), in the site's database: the secrets sealed
  // and the recovery codes keyed with keys of their own from SESSION_SECRET; wrong codes counted
  // in the login limits' window; a right password of a user with 2FA waits for the code
  // (a challenge, no session).
  const twoFactor = createTwoFactor({
    db,
    secretKey: Buffer.from(deriveKey(config.SESSION_SECRET, 'two factor secret v1'), 'base64url'),
    recoveryKey: Buffer.from(deriveKey(config.SESSION_SECRET, 'two factor recovery codes v1'), 'base64url'),
    issuer: config.SITE_NAME,
    requiredForAdmins: config.ADMIN_REQUIRE_2FA,
    limiter: passwordLimiter,
    limits: { perAccount: config.TWO_FACTOR_MAX_FAILURES, perIp: config.LOGIN_MAX_FAILURES_PER_IP },
    audit,
    logger,
  });
  const secondFactor = createChallenges({ db, sealKey: deriveKey(config.SESSION_SECRET, 'two factor challenge v1') });
  if (config.sessionSecretGenerated) {
    logger.warn('SESSION_SECRET is not set: using a random one for this process (sessions end when it restarts)');
  }
  // Made once: a fixed translator and the messages serialised for the page, per locale.
  const translators = Object.fromEntries(LOCALE_CODES.map((l) => [l, rememberingTranslate(i18n.getFixedT(l))])) as Record<
    Locale,
    Translate
  >;
  const messagesDigest = Object.fromEntries(LOCALE_CODES.map((l) => [l, renderKey(JSON.stringify(messagesOf(i18n, l)))])) as Record<
    Locale,
    string
  >;
  const renderCache = config.RENDER_CACHE_MB > 0 ? createRenderCache({ maxBytes: config.RENDER_CACHE_MB * 1024 * 1024 }) : undefined;
  // The private calendar addresses (server/calendar-feed/feeds.ts): the site's own users only, so not
  // with an external API (whose users' current state the site cannot read without a session).
  const calendarFeeds = external
    ? null
    : createCalendarFeeds({
        db,
        key: Buffer.from(deriveKey(config.SESSION_SECRET, 'calendar feed v1'), 'base64url'),
        origin: config.PUBLIC_URL,
        siteName: config.SITE_NAME,
        projects,
        translator: (locale) => translators[locale],
        limiter: createRateLimiter(db, 3_600_000),
        readsPerHour: config.CALENDAR_READS_PER_HOUR,
        logger,
      });
  // The pages load their messages from the build's hashed files: a build without them cannot serve.
  const messageUrls = Object.fromEntries(
    LOCALE_CODES.map((l) => {
      const url = manifest.messages[l];
      if (!url) throw new Error(`The build has no messages for "${l}" (dist/client/manifest.json): run npm run build`);
      return [l, url];
    }),
  ) as Record<Locale, string>;

  // The Content-Security-Policy helmet sends (http/csp.ts, docs/decisions/003 and 026).
  const csp = contentSecurityPolicy({
    upgradeInsecureRequests: isProduction,
    analyticsHosts: ANALYTICS_HOSTS,
    mediaHosts,
    ...(config.CMS_URL ? { cmsOrigin: new URL(config.CMS_URL).origin } : {}),
  });

  // Draft preview (server/preview/): with a CMS, its preview secret and a token that reads drafts.
  const preview: PreviewSetup | null =
    cms?.drafts && config.CMS_PREVIEW_SECRET
      ? {
          secret: config.CMS_PREVIEW_SECRET,
          cookie: createPreviewCookie({
            sessionSecret: config.SESSION_SECRET,
            previewSecret: config.CMS_PREVIEW_SECRET,
            production: isProduction,
          }),
          drafts: cms.drafts,
          contentSecurityPolicy: helmet.contentSecurityPolicy(csp),
          translate: (locale) => translators[locale],
          stylesheets: manifest.entry.css,
          logger,
        }
      : null;

  // The pages' forms answer a refusal as JSON, or (no JavaScript) with the page again, which the
  // page handlers below render (bound late: they are made with the services made here).
  const renderWithForm: RenderWithForm = (req, res, form, status) => pages.renderWithForm(req, res, form, status);
  const fail = formFailure(renderWithForm);
  const failWith = createFailWith(fail, logger);
  const signedIn = (user: SessionUser, locale: Locale) => locales.signedIn(user.userName, locale);
  const projectServices = { projects, conversation, expertise };
  // What the pages' loaders and actions use (server/pages/, server/render/page-module.ts).
  const services: PageServices = {
    content,
    backend,
    sessions,
    logger,
    audit,
    formTokens,
    projects: projectServices,
    auditLog,
    inbox: contactStore,
    account,
    companies,
    notifications,
    mailPreferences: { store: mail.preferences, digestHour: config.DIGEST_HOUR, timeZone: config.JOBS_TIME_ZONE },
    ...(calendarFeeds ? { calendarFeeds } : {}),
    accountPages: accounts ? accountPages(accounts) : undefined,
    twoFactor,
    loginGuard,
    currentPasswordGuard,
    signedIn,
    forms: {
      contact: createContactForm({
        store: contactStore,
        limiter: createRateLimiter(db, config.CONTACT_WINDOW_MINUTES * 60_000),
        maxPerIp: config.CONTACT_MAX_PER_IP,
        tokens: formTokens,
        notify: mail.canSend ? (message) => mail.notifyContact(message) : null,
        logger,
        fail,
      }),
      projects: createProjectForms({ services: projectServices, uploads: documentUploads, fail, logger }),
      profile: createProfileForms({ sessions, deletions: account.deletions, backend, currentPasswordGuard, audit, fail, failWith }),
      company: createCompanyForms({ companies, fail, failWith }),
      ...(calendarFeeds ? { calendar: createCalendarForms({ feeds: calendarFeeds, failWith }) } : {}),
      links: accounts ? createAccountLinkForms({ accounts, backend, sessions, currentPasswordGuard, fail, logger, signedIn }) : null,
      twoFactor: createTwoFactorForms({
        service: twoFactor,
        challenges: secondFactor,
        verify,
        audit,
        sessions,
        backend,
        currentPasswordGuard,
        fail,
        failWith,
        renderWithForm,
        logger,
        signedIn,
        homeOf: roleHome,
      }),
    },
  };
  const resolveDeps: ResolveDeps = {
    pages: await loadPageModules(),
    services,
    ...(preview ? { previewContent: withCompany(preview.drafts.content, company) } : {}),
    branding,
    unread: (user) => projects.unreadTotal(user),
    notificationsUnread: (user) => notifications.unread(user.userName),
    origin: config.PUBLIC_URL,
    siteName: config.SITE_NAME,
    translator: (locale) => translators[locale],
    onError: (error, url) => logger.error({ err: error, url }, 'page failed'),
  };

  // Downloads are sent a chunk at a time and ended when their client stalls; documents are
  // capped per user, shared by the pages and the API (docs/decisions/028).
  const stallMs = config.DOWNLOAD_STALL_SECONDS * 1000;
  const documentDownloads = createDocumentDownloads({ perUser: config.DOWNLOADS_PER_USER, stallMs, logger });

  // Set on SIGTERM: finish what is running, tell clients and balancers to go elsewhere.
  let draining = false;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('etag', false);

  // What /readyz reports, and /metrics with it.
  const readinessDeps = { db, cmsUrl: config.CMS_URL, draining: () => draining };
  // -1. Metrics (server/metrics/), only when ops asked for them: every request counted and timed.
  //     prom-client is loaded only then: a site without metrics does not pay for it at start.
  const metricsOn = config.METRICS_TOKEN !== undefined || config.METRICS_PORT !== undefined;
  const metricsServe = metricsOn ? await import('./metrics/serve.ts') : null;
  const metrics: Metrics | null = metricsOn
    ? (await import('./metrics/metrics.ts')).createMetrics({ db, renderCache, readiness: () => checkReadiness(readinessDeps) })
    : null;
  if (metrics) app.use(metrics.record);

  // 0. What every request carries (http/request-context.ts): an id (kept from a trusted proxy's
  //    X-Request-Id when well-formed) and one log line (method, path — never the query —,
  //    status, duration); a fresh nonce for every script the page carries; its cookies and the
  //    visitor's consent, hence whether the page may load analytics (the ids are configured and
  //    the visitor consented). Both are decided here, before helmet writes the policy.
  const analyticsIds = {
    ...(config.ANALYTICS_GTM_ID ? { gtm: config.ANALYTICS_GTM_ID } : {}),
    ...(config.ANALYTICS_GA_ID ? { ga: config.ANALYTICS_GA_ID } : {}),
  };
  // None configured: the cookie banner only informs (issue 25).
  const analyticsConfigured = Boolean(analyticsIds.gtm || analyticsIds.ga);
  app.use(
    requestContext({
      logger,
      analyticsAllowed: (consent) => analyticsAllowed(analyticsIds, consent),
      draining: () => draining,
      // Express compiled TRUST_PROXY into this function (the peer is hop 0).
      trustedPeer: (address) => address !== undefined && (app.get('trust proxy fn') as (a: string, i: number) => boolean)(address, 0),
    }),
  );

  // 1. The security headers, the strict Content-Security-Policy among them with the nonce
  //    above: scripts only from us and only with the nonce, no inline styles, no framing;
  //    analytics hosts only when the page may load analytics (docs/decisions/003).
  app.use(
    helmet({
      contentSecurityPolicy: csp,
      // Same-origin form posts must carry a real Origin header (docs/decisions/004-csrf.md).
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: isProduction ? { maxAge: 31536000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    }),
  );

  // 2. Compression for everything dynamic (hashed assets are small and cached for a year).
  //    Downloads say no-transform and skip it (downloads/stream.ts).
  app.use(compression());

  // 3. Liveness, and readiness (the database answers and the process is not draining; a CMS
  //    that is away makes it "degraded", not unready). /metrics for a Bearer of METRICS_TOKEN: in a
  //    worker of a cluster, the sum of all workers, asked of the primary (metrics/serve.ts).
  app.get('/healthz', liveness());
  app.get('/readyz', readiness(readinessDeps));
  if (metrics && metricsServe && config.METRICS_TOKEN !== undefined) {
    const text = cluster.isWorker ? metricsServe.metricsFromPrimary() : metrics.text;
    app.get(metricsServe.METRICS_PATH, metricsServe.metricsHandler({ token: config.METRICS_TOKEN, text, logger }));
  }

  // 4. Static files: hashed build assets are immutable; public/ files get a short cache.
  //    The posts' images: only the names the content knows (http/content-images.ts).
  app.use('/assets/content', contentImageFiles(contentImages));
  app.use('/assets', ...hashedAssets(join(PATHS.clientBuild, 'assets')));
  app.use(publicFiles(PATHS.public));
  //    The brand's logos and favicon, and the web manifest of each language (brand/routes.ts).
  mountBrand(app, { brand, siteName: config.SITE_NAME, siteShortName: config.SITE_SHORT_NAME ?? config.SITE_NAME });
  // The service worker (scope /) and the offline fallback pages it shows.
  mountServiceWorker(app, { manifest, workerFile: join(PATHS.clientBuild, 'sw.js'), siteName: config.SITE_NAME, brand, logger, i18n });
  app.get('/robots.txt', (_req, res) => {
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robotsTxt(config.PUBLIC_URL));
  });
  // 4b. Strapi's webhook (no cookies, no Origin: authenticated by its own secret, so before the
  //     CSRF check): what was published shows at once on every instance (cms/webhook.ts).
  // 4c. One-click unsubscribe links of the notices (RFC 8058): mail programs post them without
  //     cookies or Origin, so before the CSRF check; the signed token is the authority.
  app.use(
    UNSUBSCRIBE_PATH,
    unsubscribeRoutes({
      db,
      key: mail.unsubscribeKey,
      preferences: mail.preferences,
      page: (locale, nonce, body) => standalonePage({ manifest, locale, siteName: config.SITE_NAME, brand, nonce, ...body }),
      i18n,
      logger,
    }),
  );
  app.post(WEBHOOK_PATH, cmsWebhook({ secret: config.CMS_URL ? (config.CMS_WEBHOOK_SECRET ?? null) : null, changes, logger }));
  app.get('/sitemap.xml', async (_req, res) => {
    res
      .type('application/xml')
      .set('Cache-Control', 'public, max-age=3600')
      .send(await sitemapXml(config.PUBLIC_URL, content));
  });
  // The blog's RSS and Atom feeds per language (seo/feeds.ts).
  app.use(feedRoutes({ content, origin: config.PUBLIC_URL, siteName: config.SITE_NAME, translator: (locale) => translators[locale] }));

  // 5. The session (a bad or expired one is cleared), then the CSRF check for
  //    every state-changing request.
  app.use(sessionMiddleware(codec, (id) => sessions.current(id)));
  app.use(readLinkCookie());
  app.use(requireSameOrigin(config.PUBLIC_URL));
  // 5b. A sign-in waiting for its second factor; ADMIN_REQUIRE_2FA's set-up gate (server/two-factor/).
  app.use(secondFactor.middleware, adminSetupGate(twoFactor));
  // 5c. Draft preview: the preview cookie turns drafts on (never stored, framed only by the CMS);
  //     /preview starts it, /preview/exit ends it (server/preview/).
  app.use(previewMode(preview));
  app.get(PREVIEW_PATH, startPreview(preview));
  app.post(PREVIEW_EXIT_PATH, ...exitPreview(preview));

  // 6. The API: built-in on SQLite, or the external one through a proxy. Browsers authenticate
  //    with the session cookie, which becomes the Bearer token here; never a token in JS.
  if (config.API_URL) {
    app.use('/api', await createApiProxy(config.API_URL, logger));
  } else {
    app.use(
      '/api',
      bridgeSessionToBearer(),
      createApiRouter({
        db,
        sessions,
        backend,
        verify,
        loginGuard,
        currentPasswordGuard,
        logger,
        branding: brandingStore,
        brandingInCms: config.CMS_URL !== undefined,
        contact: contactStore,
        uploads,
        downloads: documentDownloads,
        projects,
        conversation,
        documentUploads,
        expertise,
        audit,
        auditLog,
        deletions: account.deletions,
        twoFactor,
        accounts,
        companies,
        notifications,
        mailPreferences: mail.preferences,
      }),
    );
  }

  // 6b. CMS media and public reads through our origin, so that the CSP stays 'self'.
  //     Its own token (CMS_TOKEN) is added server-side; never the visitor's cookies or Authorization.
  if (config.CMS_URL) {
    app.use('/cms', await createCmsProxy({ url: config.CMS_URL, logger, ...(config.CMS_TOKEN ? { token: config.CMS_TOKEN } : {}) }));
  }

  // 7. The request's language (i18next-http-middleware's detector, whitelisted codes only), and the
  //    bare root's redirect to it.
  app.use(i18nMiddleware(i18n, { localeCookie: config.LOCALE_COOKIE }));
  app.get('/', rootLocaleRedirect({ cookieEnabled: config.LOCALE_COOKIE }));
  // 7b. A link from an e-mail: its token leaves the address bar for a cookie (account-links/link-cookie.ts).
  const linkPages = ROUTES.filter((route) => Object.values(LINK_PAGES).includes(route.base)).map((route) => route.fullPath);
  app.get(linkPages, takeTokenFromUrl());

  // How a page is resolved and streamed (render/page-handlers.ts), with this app's options.
  const pages = createPageHandlers({
    resolve: resolveDeps,
    signedInPage: (user, locale) => locales.seen(user.userName, locale),
    render: (req, res, payload) =>
      renderPage(res, payload, {
        manifest,
        translators: (locale) => translators[locale],
        siteName: config.SITE_NAME,
        brand,
        nonce: nonceOf(res),
        messages: messagesOf(i18n, payload.locale),
        messagesDigest: messagesDigest[payload.locale],
        // A preview's markup is nobody else's: never kept (nor served from the cache).
        renderCache: payload.preview ? undefined : renderCache,
        messageUrls,
        consent: { current: standingConsent(res.locals.consent ?? null, analyticsConfigured), analyticsConfigured },
        localeCookie: config.LOCALE_COOKIE,
        // Decided once with the policy (request-context.ts): the tags come exactly when their hosts are allowed.
        headExtra: res.locals.analytics ? analyticsTags(analyticsIds, nonceOf(res)) : '',
        exposeErrors: !isProduction,
        theme: themeOf(req),
        jsonLd: (page) =>
          jsonLdOf(page, {
            origin: config.PUBLIC_URL,
            siteName: config.SITE_NAME,
            brand,
            company,
            translator: (locale) => translators[locale],
          }),
        onError: (error) => logger.error({ err: error, path: req.path, reqId: res.locals.requestId }, 'render failed'),
      }),
  });

  // 8. Page data for client navigations: the same resolution as a page load.
  app.get('/_data', pages.pageData);

  // 9. Logout (a POST in any locale form), and the forms posted to their page: each page's
  //    action (server/pages/), in all its forms (a POST anywhere else is a 405 below).
  app.post(localeForms('/logout'), logoutHandler({ sessions, audit, logger }));
  app.post(pages.actionPaths, ...formBodyParsers(), pages.pageAction);
  app.post(localeForms('/consent'), ...consentHandler());
  app.post(localeForms('/theme'), ...themeHandler());
  // The design system's styleguide, in development only (dev/styleguide.tsx; a 404 page in production).
  if (!isProduction) {
    app.get(
      STYLEGUIDE_PATH,
      styleguideHandler({ manifest, siteName: config.SITE_NAME, brand: brand.page, messages: (locale) => messagesOf(i18n, locale) }),
    );
  }
  // 9a. The live stream of a signed-in tab (server/live/streams.ts): never cached, never compressed.
  app.get(LIVE_PATH, liveStreams.handler);

  // 9a'. A user's private calendar address (no session: the address is the key).
  if (calendarFeeds) app.get(CALENDAR_PATH, calendarFeeds.handler);

  // 9b. A project's documents, for its participants (projects/download.ts).
  app.get(DOWNLOAD_PATH, documentDownload(conversation, documentDownloads));

  // 9c. Everything the site holds about the signed-in user, as JSON (my-account/download.ts).
  const myData = accountDataDownload({
    db,
    builtIn: !external,
    siteName: config.SITE_NAME,
    logger,
    audit,
    limiter: createRateLimiter(db, 3_600_000),
    maxConcurrent: config.EXPORTS_MAX_CONCURRENT,
    stallMs,
    exportsPerHour: config.DATA_EXPORTS_PER_HOUR,
  });
  app.get(myData.paths, myData.handler);

  // 10. PDF documents of the private area (a project's: its participants only, else the 404 page).
  const pdf = pdfRoutes({
    backend,
    contact: contactStore,
    projects,
    siteName: config.SITE_NAME,
    brand,
    logger,
    userRecord: async (userName) => (config.API_URL ? null : findUser(db, userName)),
    brandColor: async (userName) => (await branding(userName))?.color ?? null,
    ...(deps.pdfRenderer ? { renderer: deps.pdfRenderer } : {}),
    i18n,
    jobsPerUser: config.PDF_JOBS_PER_USER,
    stallMs,
    audit,
  });
  app.get(pdf.paths, pdf.handler);

  // 11. Every page: match, guard, load, then stream (a middleware rather than a '/{*splat}'
  //     route, whose wildcard Express would decode into a parameter nobody reads).
  app.use(pages.page);

  // 12. Anything else (e.g. a POST to a page that takes none).
  app.use((req, res) => {
    res.status(405).set('Allow', 'GET, HEAD').type('text/plain').send(`Method ${req.method} not allowed on ${req.path}`);
  });

  // 13. Errors: a clean answer, never a stack trace in production.
  app.use(errorHandler({ logger, isProduction, lastResortPage }));

  /** Releases what the app holds (graceful shutdown): timers and the database. */
  async function close(): Promise<void> {
    await jobs.stop();
    notifications.stop();
    liveStreams.close();
    await mail.stop();
    await pdf.close();
    await auditLog.stop();
    await changes.close();
    await db.close();
  }

  function drain() {
    draining = true;
    // Open streams end now: their browsers reconnect, to an instance that is not leaving.
    liveStreams.drain();
  }

  return {
    app,
    logger,
    content,
    i18n,
    manifest,
    db,
    contactStore,
    mail,
    renderCache,
    sessions,
    accounts,
    metrics,
    close,
    drain,
    audit: auditLog,
    notifications,
    liveStreams,
    jobs,
  };
}

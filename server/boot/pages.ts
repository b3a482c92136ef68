// Phase 4a, the pages: the services and forms the pages' loaders and actions are given
// (server/render/page-module.ts), and how a resolved page is rendered and streamed.
import helmet from 'helmet';
import type { Locale } from '../../shared/locales.ts';
import { hasRole, type SessionUser } from '../../shared/user.ts';
import { standingConsent } from '../../shared/consent.ts';
import { accountPages } from '../account-links/pages.ts';
import { createAccountLinkForms } from '../account-links/forms.ts';
import { roleHome } from '../auth/forms.ts';
import { withCompany } from '../content/placeholders.ts';
import { analyticsTags } from '../http/consent.ts';
import { createFailWith, formFailure, type RenderWithForm } from '../http/form-answers.ts';
import { nonceOf } from '../http/request-context.ts';
import { themeOf } from '../http/theme.ts';
import { messagesOf } from '../i18n/index.ts';
import { createPreviewCookie } from '../preview/cookie.ts';
import type { PreviewSetup } from '../preview/routes.ts';
import { createPageHandlers } from '../render/page-handlers.ts';
import { loadPageModules } from '../render/page-module.ts';
import { createRenderCache } from '../render/render-cache.ts';
import { renderPage } from '../render/render-page.tsx';
import { jsonLdOf } from '../seo/json-ld.ts';
import { createTwoFactorForms } from '../two-factor/forms.ts';
import type { Base } from './base.ts';
import type { Data } from './data.ts';
import type { Domains } from './domains.ts';
import type { Policy } from './policy.ts';

/** What the pages' loaders and actions use, with each domain's forms; `renderWithForm` is bound late (the page handlers are made from these). */
function pageServices(base: Base, data: Data, d: Domains, renderWithForm: RenderWithForm) {
  const { config, logger, content } = base;
  const { audit, auditLog } = data;
  const { sessions, backend, loginGuard, currentPasswordGuard, verify } = d.auth;
  const fail = formFailure(renderWithForm);
  const failWith = createFailWith(fail, logger);
  const signedIn = (user: SessionUser, locale: Locale) => d.locales.signedIn(user.userName, locale);
  const { twoFactor, challenges } = d.twoFactor;
  return {
    content,
    search: d.search,
    backend,
    sessions,
    logger,
    audit,
    formTokens: d.contact.formTokens,
    projects: d.projects.services,
    auditLog,
    inbox: d.contact.inbox,
    /** What the admin console's home warns of: a job whose last run failed, e-mail stuck in the outbox. */
    operations: { failedJobs: () => d.jobs.lastRunFailed(), stuckMail: () => d.mail.stuck() },
    account: d.myAccount.account,
    companies: d.myAccount.companies,
    notifications: d.notifications,
    mailPreferences: { store: d.mail.preferences, digestHour: config.DIGEST_HOUR, timeZone: config.JOBS_TIME_ZONE },
    ...(d.calendar ? { calendarFeeds: d.calendar.feeds } : {}),
    accountPages: d.accounts ? accountPages(d.accounts) : undefined,
    twoFactor,
    loginGuard,
    currentPasswordGuard,
    signedIn,
    forms: {
      contact: d.contact.form(d.mail.canSend ? (message) => d.mail.notifyContact(message) : null, fail),
      projects: d.projects.forms(fail),
      ...d.myAccount.forms(fail, failWith),
      ...(d.calendar ? { calendar: d.calendar.forms(failWith) } : {}),
      links: d.accounts
        ? createAccountLinkForms({ accounts: d.accounts, backend, sessions, currentPasswordGuard, fail, logger, signedIn })
        : null,
      twoFactor: createTwoFactorForms({
        service: twoFactor,
        challenges,
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
}

/**
 * What the pages' loaders and actions may ask for: exactly what pageServices makes (each page
 * names the part it uses, `Pick<PageServices, 'content' | 'projects'>`).
 */
export type PageServices = ReturnType<typeof pageServices>;

/** Draft preview (server/preview/): with a CMS, its preview secret and a token that reads drafts. */
export function previewSetup(base: Base, policy: Policy): PreviewSetup | null {
  const { config, cms } = base;
  if (!cms?.drafts || !config.CMS_PREVIEW_SECRET) return null;
  return {
    secret: config.CMS_PREVIEW_SECRET,
    cookie: createPreviewCookie({
      sessionSecrets: config.SESSION_SECRETS,
      previewSecret: config.CMS_PREVIEW_SECRET,
      production: base.isProduction,
    }),
    drafts: cms.drafts,
    contentSecurityPolicy: helmet.contentSecurityPolicy(policy.csp),
    translate: base.translate,
    stylesheets: base.manifest.entry.css,
    logger: base.logger,
  };
}

/** How a page is resolved and streamed (render/page-handlers.ts), with this site's options. */
export async function pageHandlers(base: Base, data: Data, d: Domains, policy: Policy, preview: PreviewSetup | null) {
  const { config, logger, manifest, brand, i18n, translate } = base;
  const renderCache = config.RENDER_CACHE_MB > 0 ? createRenderCache({ maxBytes: config.RENDER_CACHE_MB * 1024 * 1024 }) : undefined;
  // The pages' forms answer a refusal as JSON, or (no JavaScript) with the page again.
  const renderWithForm: RenderWithForm = (req, res, form, status) => pages.renderWithForm(req, res, form, status);
  const pages = createPageHandlers({
    resolve: {
      pages: await loadPageModules<PageServices>(),
      services: pageServices(base, data, d, renderWithForm),
      ...(preview ? { previewContent: withCompany(preview.drafts.content, base.company) } : {}),
      branding: d.branding,
      unread: (user) => d.projects.projects.unreadTotal(user),
      // An admin's badge counts the new contact messages too.
      leads: async (user) => (hasRole(user, 'ADMIN') ? d.contact.store.newLeads() : 0),
      notificationsUnread: (user) => d.notifications.unread(user.userName),
      origin: config.PUBLIC_URL,
      siteName: config.SITE_NAME,
      translator: translate,
      onError: (error, url) => logger.error({ err: error, url }, 'page failed'),
    },
    signedInPage: (user, locale) => d.locales.seen(user.userName, locale),
    render: (req, res, payload) =>
      renderPage(res, payload, {
        manifest,
        translators: translate,
        siteName: config.SITE_NAME,
        brand,
        nonce: nonceOf(res),
        messages: messagesOf(i18n, payload.locale),
        messagesDigest: base.messagesDigest[payload.locale],
        // A preview's markup is nobody else's: never kept (nor served from the cache).
        renderCache: payload.preview ? undefined : renderCache,
        messageUrls: base.messageUrls,
        consent: {
          current: standingConsent(res.locals.consent ?? null, policy.analyticsConfigured),
          analyticsConfigured: policy.analyticsConfigured,
        },
        localeCookie: config.LOCALE_COOKIE,
        // Decided once with the policy (request-context.ts): the tags come exactly when their hosts are allowed.
        headExtra: res.locals.analytics ? analyticsTags(policy.analyticsIds, nonceOf(res)) : '',
        exposeErrors: !base.isProduction,
        theme: themeOf(req),
        jsonLd: (page) =>
          jsonLdOf(page, { origin: config.PUBLIC_URL, siteName: config.SITE_NAME, brand, company: base.company, translator: translate }),
        onError: (error) => logger.error({ err: error, path: req.path, reqId: res.locals.requestId }, 'render failed'),
      }),
  });
  return { pages, renderCache };
}

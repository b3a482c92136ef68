// A page of the site is three files: its entry in the route table (shared/routes.ts), its server
// module server/pages/<page>.ts, and its component client/pages/<page>.tsx. The server module
// exports what React Router's data model calls a route's `loader` (the page's data, and its own
// existence check: throw notFound()) and `action` (the page's forms, posted to the page's own
// URL, answered as JSON with JavaScript and as a 303 or the page again without it). Both get the
// app's services, made once at start (server/app.ts). docs/decisions/025.
import type { Notifications } from '../notifications/notifications.ts';
import type { MailPreferencesStore } from '../mail/preferences.ts';
import type { CalendarFeeds } from '../calendar-feed/feeds.ts';
import type { createCalendarForms } from '../calendar-feed/forms.ts';
import type { CompanyForms } from '../my-account/company-forms.ts';
import type { CompanyService } from '../my-account/company-service.ts';
import type { NextFunction, Request, Response } from 'express';
import type { Locale } from '../../shared/locales.ts';
import type { PostSummary } from '../../shared/page-data.ts';
import { PAGE_KEYS, type PageKey, type Route, type RouteParams } from '../../shared/routes.ts';
import type { Translate } from '../../shared/translate.ts';
import type { AccountServices } from '../my-account/index.ts';
import type { ProfileForms } from '../my-account/profile-forms.ts';
import type { AccountPages } from '../account-links/pages.ts';
import type { AccountLinkForms } from '../account-links/forms.ts';
import type { AuditReader } from '../audit/log.ts';
import type { Audit } from '../audit/types.ts';
import type { Backend } from '../auth/backend.ts';
import type { CurrentPasswordGuard, LoginGuard } from '../auth/login.ts';
import type { Session } from '../auth/session-cookie.ts';
import type { Sessions } from '../auth/session-store.ts';
import type { ContactForm } from '../contact/form.ts';
import type { ContactStore } from '../contact/messages.ts';
import type { FormTokens } from '../contact/form-token.ts';
import type { ContentSource } from '../content/source.ts';
import { ApiError } from '../http/errors.ts';
import type { FailWith, FormFailure } from '../http/form-answers.ts';
import type { Logger } from '../base/logger.ts';
import type { ProjectForms } from '../projects/forms.ts';
import type { ProjectServices } from '../projects/index.ts';
import type { TwoFactorForms } from '../two-factor/forms.ts';
import type { TwoFactor } from '../two-factor/service.ts';
import type { SessionUser } from '../../shared/user.ts';

/** What the pages' loaders and actions may use: the app's services, made once at start. */
export type PageServices = {
  content: ContentSource;
  backend: Backend;
  sessions: Sessions;
  logger: Logger;
  audit: Audit;
  formTokens: FormTokens;
  projects: ProjectServices;
  /** The audit log, read by the admin console. */
  auditLog?: AuditReader | undefined;
  /** The contact inbox's counts, for the admin console's home. */
  inbox?: Pick<ContactStore, 'count'> | undefined;
  /** The user's own account: sessions, deletion request (server/my-account/). */
  account?: AccountServices | undefined;
  /** Companies and their people (server/companies/). */
  companies?: CompanyService | undefined;
  /** The notification centre (server/notifications/). */
  notifications?: Notifications | undefined;
  /** What each user is e-mailed about, and when the daily digest goes (server/mail/preferences.ts). */
  mailPreferences?: { store: MailPreferencesStore; digestHour: number; timeZone: string } | undefined;
  /** The users' private calendar addresses (built-in API only; server/calendar-feed/feeds.ts). */
  calendarFeeds?: CalendarFeeds | undefined;
  /** The single-use link pages and the profile's e-mail section (built-in API only). */
  accountPages?: AccountPages | undefined;
  twoFactor?: TwoFactor | undefined;
  loginGuard: LoginGuard;
  currentPasswordGuard: CurrentPasswordGuard;
  /** A user signed in on a form in this locale (the language of their e-mails). */
  signedIn?: ((user: SessionUser, locale: Locale) => Promise<void>) | undefined;
  /** The forms of the site's domains, for the pages' actions (each page picks its own). */
  forms: {
    contact: ContactForm;
    projects: ProjectForms;
    profile: ProfileForms;
    /** The profile's team forms (clients and organisations). */
    company: CompanyForms;
    /** The profile's calendar address forms (built-in API only). */
    calendar?: ReturnType<typeof createCalendarForms> | undefined;
    /** Invitations, forgotten passwords, e-mail changes: built-in API only. */
    links: AccountLinkForms | null;
    twoFactor: TwoFactorForms | null;
  };
};

export type LoaderArgs = {
  route: Route;
  params: RouteParams;
  locale: Locale;
  /** The URL's query (filters and pages of lists). */
  query: URLSearchParams;
  /** The page's language's messages (titles of lists). */
  t: Translate;
  /** Present on private pages (the auth guard ran first). */
  session: Session | null;
  /** The request carries a sign-in waiting for its second factor (the code page). */
  secondFactorPending: boolean;
  /** The token of the single-use link the visitor opened (server/account-links/link-cookie.ts), if any. */
  linkToken: string | null;
  /** The app's services; `content` reads drafts when the request is a CMS preview. */
  services: PageServices;
};

/** What a page's head takes from its data, instead of the route's defaults. */
export type PageMeta = {
  title?: string;
  description?: string;
  /** Instead of the route's (a spent link's page: 410). */
  status?: number;
  /** The languages the page exists in, with its params in each (a post's translations); by default every language, same params. */
  alternates?: Partial<Record<Locale, RouteParams>>;
  /** The canonical URL's query (a list's page: `?page=2`). */
  canonicalQuery?: string;
  /** A list's previous and next pages (queries of the same path). */
  prev?: string;
  next?: string;
  /** `noindex` (search results). */
  robots?: string;
  /** The post the page is (its social tags and JSON-LD describe an article). */
  article?: PostSummary;
};

export type LoaderResult<D> = { data: D; meta?: PageMeta };
export type PageLoader<D = unknown> = (args: LoaderArgs) => Promise<LoaderResult<D>>;

export type ActionArgs = {
  req: Request;
  res: Response;
  /** No action here after all (a form of the built-in API with an external one): the 405 answer. */
  next: NextFunction;
  route: Route;
  /** Present: the actions of private pages run only with a session (else: sign in again). */
  session: Session | null;
  services: PageServices;
  /** Answers a refused form: JSON with JavaScript, the page again with the error without it. */
  fail: FormFailure;
  /** Maps an error to the form's answer (a refusal shown in the form, anything else logged). */
  failWith: FailWith;
};
export type PageAction = (args: ActionArgs) => Promise<void>;

/** A page's server module: server/pages/<page>.ts. */
export type PageModule = { loader?: PageLoader; action?: PageAction };

/** A page without data. */
export const noData: PageLoader<null> = async () => ({ data: null });

/**
 * Every page's server module, by page. Loaded once at start (the bundle holds them all: esbuild
 * follows the pattern of the import), so that a request looks its page up in a Map.
 */
export async function loadPageModules(): Promise<ReadonlyMap<PageKey, PageModule>> {
  const entries = await Promise.all(
    PAGE_KEYS.map(async (page) => {
      const module = (await import(`../pages/${page}.ts`)) as PageModule;
      if (module.loader !== undefined && typeof module.loader !== 'function')
        throw new Error(`server/pages/${page}.ts: loader is not a function`);
      if (module.action !== undefined && typeof module.action !== 'function')
        throw new Error(`server/pages/${page}.ts: action is not a function`);
      return [page, module] as const;
    }),
  );
  return new Map(entries);
}

/** The session of a private page's loader (the auth guard ran first: none is the API's 401). */
export function requireSession(args: Pick<LoaderArgs, 'session'>): Session {
  if (!args.session) throw new ApiError(401, 'unauthorized', 'Sign in first');
  return args.session;
}

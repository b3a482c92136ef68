// A page of the site is three files: its entry in the route table (shared/routes.ts), its server
// module server/pages/<page>.ts, and its component client/pages/<page>.tsx. The server module
// exports what React Router's data model calls a route's `loader` (the page's data, and its own
// existence check: throw notFound()) and `action` (the page's forms, posted to the page's own
// URL, answered as JSON with JavaScript and as a 303 or the page again without it). Both get the
// services they ask for, made once at start (server/boot/pages.ts). docs/decisions/025 and 046.
import type { NextFunction, Request, Response } from 'express';
import type { Locale } from '../../shared/locales.ts';
import type { PostSummary } from '../../shared/page-data.ts';
import { PAGE_KEYS, type PageKey, type Route, type RouteParams } from '../../shared/routes.ts';
import type { Translate } from '../../shared/translate.ts';
import type { Session } from '../auth/session-cookie.ts';
import type { ContentSource } from '../content/source.ts';
import { ApiError } from '../http/errors.ts';
import type { FailWith, FormFailure } from '../http/form-answers.ts';
import type { Logger } from '../base/logger.ts';

/**
 * What the page machinery itself needs of the services: the content (swapped for the drafts in a
 * preview) and the log. Each page asks for what it uses besides, with its own type
 * (`PageLoader<Data, Pick<PageServices, 'content'>>`): the services are made by the boot
 * (server/boot/pages.ts, whose `PageServices` is what it makes, not a list kept here).
 */
export type RenderServices = { content: ContentSource; logger: Logger };

export type LoaderArgs<S = RenderServices> = {
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
  /** A private page sent the visitor to sign in and remembered itself (the auth.redirect cookie): the login says so. */
  returnPending: boolean;
  /** The services the page asked for; `content` reads drafts when the request is a CMS preview. */
  services: S;
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
export type PageLoader<D = unknown, S = RenderServices> = (args: LoaderArgs<S>) => Promise<LoaderResult<D>>;

export type ActionArgs<S = RenderServices> = {
  req: Request;
  res: Response;
  /** No action here after all (a form of the built-in API with an external one): the 405 answer. */
  next: NextFunction;
  route: Route;
  /** Present: the actions of private pages run only with a session (else: sign in again). */
  session: Session | null;
  services: S;
  /** Answers a refused form: JSON with JavaScript, the page again with the error without it. */
  fail: FormFailure;
  /** Maps an error to the form's answer (a refusal shown in the form, anything else logged). */
  failWith: FailWith;
};
export type PageAction<S = RenderServices> = (args: ActionArgs<S>) => Promise<void>;

/** A page's server module: server/pages/<page>.ts. */
export type PageModule<S = RenderServices> = { loader?: PageLoader<unknown, S>; action?: PageAction<S> };

/** A page without data. */
export const noData: PageLoader<null> = async () => ({ data: null });

/**
 * Every page's server module, by page. Loaded once at start (the bundle holds them all: esbuild
 * follows the pattern of the import), so that a request looks its page up in a Map.
 */
export async function loadPageModules<S extends RenderServices>(): Promise<ReadonlyMap<PageKey, PageModule<S>>> {
  const entries = await Promise.all(
    PAGE_KEYS.map(async (page) => {
      const module = (await import(`../pages/${page}.ts`)) as PageModule<S>;
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

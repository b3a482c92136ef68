// Server-side data of each page. A loader may throw an HttpError (e.g. 404 for an unknown
// blog slug: seed-spec §5, "a page may define its own route check; failure yields 404").
import type { Locale } from '../../shared/locales.ts';
import type { PageDataMap } from '../../shared/page-data.ts';
import { LEGAL_PAGES, type LegalPageKey, type PageKey, type Route, type RouteParams } from '../../shared/routes.ts';
import type { ContentSource } from '../content/source.ts';
import type { Backend } from '../auth/backend.ts';
import type { Session } from '../auth/session.ts';
import type { FormTokens } from '../contact/form-token.ts';
import { ApiError, notFound } from '../http/errors.ts';

export type LoaderContext = {
  route: Route;
  params: RouteParams;
  locale: Locale;
  content: ContentSource;
  backend: Backend;
  /** Present on private pages (the auth guard ran first). */
  session: Session | null;
  formTokens: FormTokens;
};

function legalPageOf(base: string): LegalPageKey {
  const page = LEGAL_PAGES.find((p) => p === base);
  if (!page) throw notFound();
  return page;
}

function sessionOf(ctx: LoaderContext): Session {
  if (!ctx.session) throw new ApiError(401, 'unauthorized', 'Sign in first');
  return ctx.session;
}

export type PageMeta = { title?: string; description?: string };

type Loader<K extends PageKey> = (ctx: LoaderContext) => Promise<{ data: PageDataMap[K]; meta?: PageMeta }>;

const none = async () => ({ data: null });

/** The loader of a page, for callers that only pass its data along (the page type is checked above). */
export function loaderOf(page: PageKey): (ctx: LoaderContext) => Promise<{ data: PageDataMap[PageKey]; meta?: PageMeta }> {
  return PAGE_LOADERS[page];
}

export const PAGE_LOADERS: { [K in PageKey]: Loader<K> } = {
  home: none,
  login: none,
  changePassword: none,
  profile: async (ctx) => ({ data: { user: await ctx.backend.me(sessionOf(ctx).token) } }),
  contact: async (ctx) => ({ data: { formToken: ctx.formTokens.issue() } }),
  admin: async (ctx) => ({ data: { users: await ctx.backend.listUsers(sessionOf(ctx).token, { page: 1 }) } }),
  client: none,
  organization: none,
  expert: none,
  notFound: none,
  blog: async ({ content, locale }) => ({ data: { posts: await content.listPosts(locale) } }),
  blogPost: async ({ content, locale, params }) => {
    const post = await content.getPost(params.slug ?? '', locale);
    if (!post) throw notFound();
    return { data: { post }, meta: { title: post.title, description: post.description } };
  },
  legal: async ({ content, locale, route }) => {
    const document = await content.getLegal(legalPageOf(route.base), locale);
    if (!document) throw notFound();
    return { data: { document }, meta: { title: document.title, description: document.description } };
  },
};

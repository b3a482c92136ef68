// Server-side data of each page. A loader may throw an HttpError (e.g. 404 for an unknown
// blog slug: seed-spec §5, "a page may define its own route check; failure yields 404").
import type { Locale } from '../../shared/locales.ts';
import { HOME_LIMITS } from '../../shared/home.ts';
import type { HomeData, PageDataMap, PostSummary } from '../../shared/page-data.ts';
import { LEGAL_PAGES, type LegalPageKey, type PageKey, type Route, type RouteParams } from '../../shared/routes.ts';
import type { ContentSource } from '../content/source.ts';
import { AUDIT_PAGE_SIZE, type AuditView } from '../../shared/audit.ts';
import type { AuditReader } from '../audit/log.ts';
import { auditQueryOfUrl } from '../audit/query.ts';
import { AUDIT_ACTIONS } from '../audit/types.ts';
import type { Backend } from '../auth/backend.ts';
import type { Session } from '../auth/session.ts';
import type { FormTokens } from '../contact/form-token.ts';
import { ApiError, notFound, PageRedirect } from '../http/errors.ts';
import { blogList } from '../../shared/blog.ts';
import { LOCALE_CODES } from '../../shared/locales.ts';
import { localePath } from '../../shared/routes.ts';
import type { Translate } from '../../shared/translate.ts';
import type { AreaProjects } from '../../shared/page-data.ts';
import { isPractice, isProjectState } from '../../shared/projects.ts';
import { hasRole } from '../../shared/user.ts';
import { projectId, type Actor } from '../projects/access.ts';
import type { ProjectServices } from '../projects/index.ts';
import type { AccountServices } from '../account/index.ts';
import type { TwoFactor } from '../two-factor/service.ts';
import type { AccountPages } from '../accounts/pages.ts';
import type { LinkKind } from '../accounts/links.ts';

export type LoaderContext = {
  route: Route;
  params: RouteParams;
  locale: Locale;
  content: ContentSource;
  backend: Backend;
  /** Present on private pages (the auth guard ran first). */
  session: Session | null;
  formTokens: FormTokens;
  /** The URL's query (filters and pages of lists). */
  query: URLSearchParams;
  /** The page's language's messages (titles of lists). */
  t: Translate;
  projects: ProjectServices;
  /** The audit log (the admin console shows its first page); absent, the console shows none. */
  auditLog?: AuditReader;
  /** The user's own account: sessions, deletion request (server/account/). */
  account?: AccountServices | undefined;
  /** Two-factor authentication (the set-up page); absent, the page is not found. */
  twoFactor?: Pick<TwoFactor, 'view'> | undefined;
  /** The request carries a sign-in waiting for its second factor (the code page). */
  secondFactorPending?: boolean | undefined;
  /** The account pages (built-in API only: with an external API the users are not the site's). */
  accounts?: AccountPages | undefined;
  /** The token of the single-use link the visitor opened (server/accounts/link-cookie.ts), if any. */
  linkToken?: string | null | undefined;
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

/** The page number of a list from the URL: a positive integer, else 1. */
function pageOf(query: URLSearchParams): number {
  const page = Number(query.get('page') ?? '1');
  return Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** How many projects the "waiting for you" list shows at most. */
const WAITING_SHOWN = 10;

/** The signed-in user's projects for their area: what waits for them, then the filtered list. */
async function areaProjects(ctx: LoaderContext, actor: Actor): Promise<AreaProjects> {
  const status = ctx.query.get('status');
  const practice = ctx.query.get('practice');
  const q = (ctx.query.get('q') ?? '').trim().slice(0, 100);
  const filter = { status: isProjectState(status) ? status : null, practice: isPractice(practice) ? practice : null, q };
  const projects = await ctx.projects.projects.list(actor, {
    status: filter.status ?? undefined,
    practice: filter.practice ?? undefined,
    q: filter.q || undefined,
    page: pageOf(ctx.query),
  });
  // Most users' projects fit on one page: what waits for them is then among these rows.
  const allShown = !filter.status && !filter.practice && !filter.q && projects.page === 1 && projects.total <= projects.items.length;
  const waiting = allShown
    ? projects.items.filter((p) => p.waiting).slice(0, WAITING_SHOWN)
    : (await ctx.projects.projects.list(actor, { waiting: true, pageSize: WAITING_SHOWN })).items;
  return { waiting, projects, filter };
}

/** A project the page may show: anyone who is not a participant gets the plain 404 page. */
async function projectView(ctx: LoaderContext, actor: Actor) {
  try {
    const id = projectId(ctx.params.id);
    const project = await ctx.projects.projects.get(actor, id);
    // Reading the page reads the thread: its unread count falls.
    const messages = await ctx.projects.conversation.messages(actor, id);
    const candidates = hasRole(actor, 'ADMIN') ? await ctx.projects.expertise.experts(actor) : null;
    return { project: { ...project, unread: 0 }, messages, candidates };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound();
    throw error;
  }
}

/** The admin console's audit: the page and filter of the URL (`auditAction=…&auditPage=2`), or the last page past the end. */
async function auditView(ctx: LoaderContext): Promise<AuditView> {
  const { filter, page } = auditQueryOfUrl(ctx.query);
  const size = { page, pageSize: AUDIT_PAGE_SIZE };
  let list = ctx.auditLog ? await ctx.auditLog.list(filter, size) : { items: [], total: 0, ...size };
  const last = Math.max(1, Math.ceil(list.total / AUDIT_PAGE_SIZE));
  if (ctx.auditLog && page > last) list = await ctx.auditLog.list(filter, { ...size, page: last });
  return { list, filter, actions: AUDIT_ACTIONS };
}

/** A single-use link's page: its form, or why the link does not work (404/410). */
async function linkPage(ctx: LoaderContext, kind: LinkKind) {
  if (!ctx.accounts) throw notFound();
  const { data, status } = await ctx.accounts.linkPage(kind, ctx.linkToken ?? null);
  return { data, meta: { status } };
}

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

type Loader<K extends PageKey> = (ctx: LoaderContext) => Promise<{ data: PageDataMap[K]; meta?: PageMeta }>;

const none = async () => ({ data: null });

/**
 * The home page's figures, logos and case studies. They are extras: when the source cannot give
 * them (the CMS is down, or its Public role may not read them: the source logged why) the page
 * shows its other sections.
 */
async function homeData({ content, locale }: LoaderContext): Promise<HomeData> {
  const [home, caseStudies] = await Promise.all([
    content.getHome(locale).catch(() => null),
    content.listCaseStudies(locale).catch(() => []),
  ]);
  return { content: home, caseStudies: caseStudies.slice(0, HOME_LIMITS.caseStudies) };
}

/** The loader of a page, for callers that only pass its data along (the page type is checked above). */
export function loaderOf(page: PageKey): (ctx: LoaderContext) => Promise<{ data: PageDataMap[PageKey]; meta?: PageMeta }> {
  return PAGE_LOADERS[page];
}

export const PAGE_LOADERS: { [K in PageKey]: Loader<K> } = {
  home: async (ctx) => ({ data: await homeData(ctx) }),
  login: none,
  changePassword: none,
  profile: async (ctx) => {
    const session = sessionOf(ctx);
    const user = await ctx.backend.me(session.token);
    const [account, email] = await Promise.all([
      ctx.account ? ctx.account.profileData(session) : { sessions: [], deletion: null },
      ctx.accounts ? ctx.accounts.emailSettings(user) : null,
    ]);
    return { data: { user, account, email } };
  },
  contact: async (ctx) => ({ data: { formToken: ctx.formTokens.issue() } }),
  admin: async (ctx) => {
    const session = sessionOf(ctx);
    const [users, pipeline, audit] = await Promise.all([
      ctx.backend.listUsers(session.token, { page: 1 }),
      areaProjects(ctx, session.user),
      auditView(ctx),
    ]);
    return { data: { users, pipeline, audit } };
  },
  client: async (ctx) => ({ data: await areaProjects(ctx, sessionOf(ctx).user) }),
  organization: async (ctx) => ({ data: await areaProjects(ctx, sessionOf(ctx).user) }),
  expert: async (ctx) => {
    const actor = sessionOf(ctx).user;
    // An admin may look at the expert area (the role guard lets admins pass): no profile of theirs.
    const [projects, expertise] = await Promise.all([
      areaProjects(ctx, actor),
      hasRole(actor, 'CONS') ? ctx.projects.expertise.mine(actor) : null,
    ]);
    return { data: { ...projects, expertise } };
  },
  projectNew: none,
  project: async (ctx) => {
    const data = await projectView(ctx, sessionOf(ctx).user);
    return { data, meta: { title: data.project.title } };
  },
  notFound: none,
  invitation: (ctx) => linkPage(ctx, 'invitation'),
  forgotPassword: async (ctx) => ({ data: { available: ctx.accounts?.resetAvailable ?? false } }),
  resetPassword: (ctx) => linkPage(ctx, 'password_reset'),
  confirmEmail: (ctx) => linkPage(ctx, 'email_change'),
  blog: async ({ content, locale, params, query, t }) => {
    const tag = params.tag ?? null;
    const page = pageOf(query);
    const list = blogList(await content.listPosts(locale), { page, tag, q: query.get('q') ?? '' });
    if (!list) throw notFound();
    const pageQuery = (n: number) => (n > 1 ? `?page=${n}` : '');
    const named = list.tag ? t('blog.tagTitle', { tag: list.tag.name }) : t('pages.blog.title');
    if (list.q) {
      // Results are not a page of their own for search engines: the blog is.
      return { data: list, meta: { title: t('blog.searchTitle', { q: list.q }), robots: 'noindex, follow' } };
    }
    return {
      data: list,
      meta: {
        title: page > 1 ? t('blog.pageTitle', { title: named, page: String(page) }) : named,
        ...(list.tag ? { description: t('blog.tagDescription', { tag: list.tag.name }) } : {}),
        canonicalQuery: pageQuery(page),
        // A tag, or a page past the first, is this language's alone.
        ...(list.tag || page > 1 ? { alternates: { [locale]: params } } : {}),
        ...(page > 1 ? { prev: pageQuery(page - 1) } : {}),
        ...(page < list.pageCount ? { next: pageQuery(page + 1) } : {}),
      },
    };
  },
  blogPost: async ({ content, locale, params }) => {
    const slug = params.slug ?? '';
    const post = await content.getPost(slug, locale);
    if (post) {
      const alternates = Object.fromEntries(Object.entries(post.translations).map(([l, s]) => [l, { slug: s }]));
      return { data: { post }, meta: { title: post.title, description: post.description, alternates, article: post } };
    }
    // A slug of another language (a link shared before switching): its translation here, else
    // the post in the language it is written in — never its text under this language's URL.
    for (const other of LOCALE_CODES.filter((l) => l !== locale)) {
      const found = (await content.listPosts(other)).find((p) => p.slug === slug);
      const translated = found?.translations[locale];
      if (translated) throw new PageRedirect(localePath('blog-slug', locale, { slug: translated }), 301);
      if (found) throw new PageRedirect(localePath('blog-slug', other, { slug }), 302);
    }
    throw notFound();
  },
  legal: async ({ content, locale, route }) => {
    const document = await content.getLegal(legalPageOf(route.base), locale);
    if (!document) throw notFound();
    return { data: { document }, meta: { title: document.title, description: document.description } };
  },
  twoFactor: async (ctx) => ({ data: { pending: ctx.secondFactorPending ?? false } }),
  twoFactorSetup: async (ctx) => {
    if (!ctx.twoFactor) throw notFound();
    return { data: await ctx.twoFactor.view(sessionOf(ctx).user) };
  },
};

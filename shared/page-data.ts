// What the server hands the client for one page: embedded in the HTML for the first render
// and answered as JSON by /_data for client navigations. Both come from the same code path.
import type { CompanyRole } from './company.ts';
import type { Branding } from './branding.ts';
import type { Locale } from './locales.ts';
import type { LegalPageKey, PageKey, RouteParams } from './routes.ts';
import type { SessionUser } from './user.ts';
import type { Practice } from './practices.ts';
import type { ProjectPage, ProjectState, ProjectSummary } from './projects.ts';
import type { FragmentPart } from './search.ts';

/** A tag of posts in one language: its slug names its page (/blog/tag/<slug>). */
export type Tag = { slug: string; name: string };

/**
 * An image with its real size (no layout shift) and, when the source has them, smaller
 * renditions for `srcset` ("url 480w, url 800w"); `src` is the largest one the page needs.
 */
export type ResponsiveImage = { src: string; width: number; height: number; alt: string; srcset?: string };

export type PostSummary = {
  /** The post's slug in its language (a translation may have another). */
  slug: string;
  title: string;
  description: string;
  date: string;
  /** Last change, when the source knows it (CMS updatedAt, front matter `updated`). */
  updated?: string;
  author: string;
  /** The locale the post is written in: a post is only offered in the languages it is written in. */
  locale: Locale;
  tags: Tag[];
  cover: ResponsiveImage | null;
  /** The post's slug in each language it is written in, its own included (the switcher and hreflang). */
  translations: Partial<Record<Locale, string>>;
};

export type Post = PostSummary & { html: string };

/** One page of the blog: all posts, a tag's, or a search's. */
export type BlogList = {
  /** A search's posts carry the text around the words found (shared/search.ts). */
  posts: (PostSummary & { fragment?: FragmentPart[] })[];
  /** 1-based; pages past the last are not found. */
  page: number;
  pageCount: number;
  total: number;
  /** The tag whose page this is, or null. */
  tag: Tag | null;
  /** The search words ('' when not searching). */
  q: string;
  /** The tags of the language's posts, most used first (the tag cloud). */
  tags: (Tag & { count: number })[];
};

export type LegalDocument = {
  page: LegalPageKey;
  title: string;
  description: string;
  updated: string;
  html: string;
  locale: Locale;
};

/** A figure of the home page: "140+", "independent experts in the network". */
export type HomeFigure = { value: string; label: string };

/** The home page's figures and client logos in one language (a logo's `alt` is the client's name). */
export type HomeContent = {
  figures: HomeFigure[];
  logos: ResponsiveImage[];
  /** Sample content (the site's shipped examples): the page says so. */
  sample: boolean;
};

/** A client's story on the home page: the problem solved, a result, the client's words. */
export type CaseStudy = {
  slug: string;
  locale: Locale;
  title: string;
  client: string;
  sector: string;
  practice: Practice;
  /** The result in one figure ("−45 %", "fewer calls about a request's status"), if any. */
  result: HomeFigure | null;
  quote: string;
  /** Who said it: name and role. */
  quoteBy: string;
  /** The story, sanitised HTML. */
  html: string;
  sample: boolean;
  /** The client's problem in a few sentences (the case study's page opens with it), if written. */
  challenge: string | null;
  /** Further results in figures, shown on the case study's page after `result`. */
  figures: HomeFigure[];
};

/** A step of how a practice's work goes: "Diagnosis", and what happens in it. */
export type PracticeStep = { title: string; text: string };

/** A practice's own page (/practices/<practice>): what it is, how the work goes, typical engagements. */
export type PracticeContent = {
  practice: Practice;
  locale: Locale;
  title: string;
  /** One or two sentences: the page's description and the practice's card. */
  description: string;
  /** What the practice is, sanitised HTML. */
  html: string;
  steps: PracticeStep[];
  /** Typical engagements, one line each ("A CSRD gap analysis in six weeks"). */
  engagements: string[];
  /** The case study shown on the page (its slug); null: the first of the practice's case studies. */
  caseStudy: string | null;
};

/** Who wrote a post, as its page shows them: name, role, a short bio and a photo. */
export type Author = {
  /** The name posts give as their `author`. */
  name: string;
  role: string;
  /** The short bio, sanitised HTML. */
  html: string;
  photo: ResponsiveImage | null;
};

/**
 * The data of a page's loader (server/pages/<page>.ts), for its component: the server module
 * is imported as a type only (`PageProps<LoaderData<typeof loader>>`), never as code.
 */
export type LoaderData<L> = L extends (...args: never[]) => Promise<{ data: infer D }> ? StreamedData<D> : never;

/**
 * A field its loader gives as a promise: it may stream after the page's shell (a promise in the
 * server's render, resolved by React Router's <Await>), and is a value in the browser. A field
 * that failed is null (the failure is logged; the section says it is missing).
 */
export type Streamed<T> = T | Promise<T>;
type StreamedData<D> = D extends object ? { [K in keyof D]: D[K] extends Promise<infer V> ? Streamed<V | null> : D[K] } : D;

/**
 * A page a single-use link opens: its form ('valid'), or why the link does not work —
 * 'missing' (no link was opened), 'unknown' (never issued, replaced by a newer one, or long
 * gone), 'used', 'expired'.
 */
export type LinkState = 'valid' | 'missing' | 'unknown' | 'used' | 'expired';
export type LinkPage = {
  state: LinkState;
  /** The account the link is for (valid links only): password managers file the new password under it. */
  userName?: string;
  /** The address an e-mail change confirms (valid links only). */
  newEmail?: string;
};

/** The profile's e-mail section (built-in API only): the address, one waiting to be confirmed, and whether mail can be sent. */
export type EmailSettings = { current: string | null; pending: string | null; available: boolean };

/** A role area's projects: what waits for the user first, then a page of their projects. */
export type AreaProjects = {
  waiting: ProjectSummary[];
  projects: ProjectPage;
  /** The list's filters, from the URL (`?status=&practice=&q=&page=`). */
  filter: { status: ProjectState | null; practice: Practice | null; q: string };
};

export type AdminUser = SessionUser & {
  email: string | null;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
  /** Invited and not accepted yet (no password chosen); absent from an external API that has no invitations. */
  invited?: boolean;
  /** A client's or organisation's company (docs/decisions/041); null or absent for the other roles. */
  company?: { id: number; name: string; role: CompanyRole } | null;
};
/** What "invite as client" from a contact message fills in the console's new-user form (/admin/users?invite=<id>). */
export type NewUserPrefill = {
  userName: string;
  name: string;
  lastName: string;
  email: string;
  /** The company the sender named: a new company of that name (else one of the person's own). */
  company: string;
  /** The language of the invitation: the one the message was written in. */
  locale: Locale;
};

export type UserList = {
  items: AdminUser[];
  total: number;
  /** A search counted SEARCH_COUNT_MAX matches and stopped: there are more (absent from an external API: `total` is exact). */
  totalCapped?: boolean;
  page: number;
  pageSize: number;
};

/** The outcome of a form post shown with the page (errors stay until the next submit). */
export type FormState = {
  /** Which form on the page it belongs to. */
  form: string;
  error?: {
    code: string;
    message: string;
    fields?: Record<string, string>;
    retryAfter?: number;
    /** Values of the error's message in the reader's language (a quota and what is left of it, in MB). */
    params?: Record<string, number>;
  };
  success?: string;
  /** What the visitor typed (never passwords), to fill the form again. */
  values?: Record<string, string>;
  /** Shown with this answer once and never again (new recovery codes: the site keeps only their digests). */
  reveal?: string[];
};

/** The JSON answer to a form posted with JavaScript. */
export type FormResponse = { ok: true; redirect?: string; success?: string; reveal?: string[] } | { ok: false; form: FormState };

export type Alternate = { hrefLang: string; href: string };

export type Head = {
  title: string;
  description: string;
  /** Absolute URLs. */
  canonical: string;
  alternates: Alternate[];
  robots?: string;
  /** rel=prev / rel=next of a paged list (absolute URLs). */
  prev?: string;
  next?: string;
  /**
   * Open Graph, article and Twitter card tags as [property, content] pairs, in document order
   * (server/seo/social.ts); `twitter:*` are written as name=, the others as property=.
   */
  social?: [property: string, content: string][];
  /** The blog's feeds in the page's language (link rel=alternate; absolute URLs). */
  feeds?: FeedLink[];
};

export type FeedLink = { type: 'application/rss+xml' | 'application/atom+xml'; title: string; href: string };

export type ErrorInfo = { status: number; message: string };

/** The page to show: a route's page with its data, or the error page. */
export type PageState = { kind: 'page'; page: PageKey; data: unknown } | { kind: 'error'; error: ErrorInfo };

export type PagePayload = {
  /** Path + query this state belongs to. */
  url: string;
  status: number;
  locale: Locale;
  /** Name of the matched route, or null for an unmatched path. */
  routeName: string | null;
  params: RouteParams;
  state: PageState;
  head: Head;
  user: SessionUser | null;
  form?: FormState;
  /** Navbar branding of the signed-in user in the client's and the organisation's areas. */
  branding?: Branding | null;
  /** Project messages the signed-in user has not read (the navbar's badge); absent when none. */
  unread?: number;
  /** New contact messages, for an admin (the navbar's badge with `unread`, up to NEW_LEADS_COUNTED); absent when none. */
  leads?: number;
  /** Notifications the signed-in user has not read (the navbar's bell, up to NOTIFICATIONS_BADGE_MAX); absent when none. */
  notifications?: number;
  /** The page shows drafts (the CMS preview): the banner with its way out; absent otherwise. */
  preview?: true;
};

/** The answer of /_data: a page, or where to go instead. */
export type DataResponse = { kind: 'payload'; payload: PagePayload } | { kind: 'redirect'; to: string; status: number };

// The PDF documents: "my profile" for every signed-in user, for admins the users
// report and the contact-messages report, and for a project's participants its proposal and its
// report. Localised by the URL prefix, never cached. A report is one page of its list
// (`?page=N`, messages also `?from=…&to=…`): only that page is read, and every document is laid
// out in the layout thread, one at a time, each user's in turn (renderer.ts); a client that
// stops taking its PDF is cut off after DOWNLOAD_STALL_SECONDS (docs/decisions/028).
import type { i18n } from 'i18next';
import { DOCUMENT_PATHS } from '../../shared/documents.ts';
import { hasRole, isPermitted } from '../../shared/user.ts';
import { givenOnce, repeatedParameter } from '../http/query-once.ts';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { formOfPath, localeForms, routePath } from '../../shared/routes.ts';
import { isSafeLocalPath } from '../../shared/safe-path.ts';
import type { UserList } from '../../shared/page-data.ts';
import { noAudit, type Audit, type AuditDetail } from '../audit/types.ts';
import type { Backend } from '../auth/backend.ts';
import { rememberPath } from '../auth/session-cookie.ts';
import type { ContactStore } from '../contact/messages.ts';
import { refuseDownload } from '../downloads/refuse.ts';
import { endedByClient, sendBuffer } from '../downloads/stream.ts';
import { ApiError } from '../http/errors.ts';
import type { Logger } from '../base/logger.ts';
import { projectId } from '../projects/access.ts';
import type { Projects } from '../projects/service.ts';
import { contactLine, type Brand } from '../brand/brand.ts';
import { projectI18n, resourcesOf } from '../i18n/index.ts';
import type { Locale } from '../../shared/locales.ts';
import { MAX_MESSAGE_CHARS, pdfFileName, type PdfBrand, type PdfContext, type PdfUser, type ReportContext } from './documents.ts';
import { PDF_NAMESPACES } from './i18n.ts';
import type { PdfJob } from './jobs.ts';
import { PROJECT_REPORT_NEWEST } from './project-documents.ts';
import { JOBS_PER_USER, PdfBusyError, pdfRenderer, PdfShareError, type PdfRenderer } from './renderer.ts';
import {
  MESSAGES_PER_REPORT,
  parseReportQuery,
  reportPageCount,
  reportPart,
  reportSlice,
  USERS_FETCH_SIZE,
  USERS_PER_REPORT,
  type ReportQuery,
  type ReportSlice,
} from './report-query.ts';
import { createdAtRange } from '../calendar/days.ts';

/** The user's and the admin's documents (shared/documents.ts). */
export const PDF_PATHS = { profile: DOCUMENT_PATHS.profile, users: DOCUMENT_PATHS.users, messages: DOCUMENT_PATHS.messages } as const;

/** A project's documents, for its owner, its assigned experts and admins (shared/documents.ts). */
export const PROJECT_PDF_PATHS = { proposal: DOCUMENT_PATHS.proposal, report: DOCUMENT_PATHS.report } as const;

export type PdfDeps = {
  backend: Backend;
  contact: ContactStore;
  /** Who may see which project (the same 404 as the pages and the API), and the project itself. */
  projects: Pick<Projects, 'snapshot'>;
  siteName: string;
  /** The company's logo, colours and contact details (brand/). */
  brand: Pick<Brand, 'logos' | 'page' | 'colors'>;
  logger: Logger;
  /** The full record of a user in embedded mode (e-mail, dates); null with an external API. */
  userRecord: (userName: string) => Promise<PdfUser | null>;
  brandColor: (userName: string) => Promise<string | null>;
  /** Lays the documents out; by default a layout thread of this app's own. */
  renderer?: PdfRenderer;
  /** The server's i18next instance, whose words the layout thread is given; by default the project's. */
  i18n?: i18n;
  /** Documents one user may have waiting or being laid out (PDF_JOBS_PER_USER), for the default renderer. */
  jobsPerUser?: number;
  /** DOWNLOAD_STALL_SECONDS, in ms: a client that takes nothing of its PDF for this long is cut off. */
  stallMs?: number;
  /** Where downloads of the reports (users, contact messages, a project's) are recorded (default: nowhere). */
  audit?: Audit;
};

/**
 * The report reads each message's text up to twice the shown length: the document cleans the
 * text (control characters, blank runs) before it cuts it at MAX_MESSAGE_CHARS.
 */
const MESSAGE_READ_CHARS = MAX_MESSAGE_CHARS * 2;
/** Calls to the users API for one report at most, should it hand out much smaller pages than asked. */
const MAX_USER_CALLS = 50;
/** DOWNLOAD_STALL_SECONDS' default, for an app that does not say (tests). */
const DEFAULT_STALL_MS = 30_000;

function plainText(res: Response, status: number, text: string) {
  res.status(status).set('Cache-Control', 'private, no-store').type('text/plain').send(text);
}

/**
 * The users of one report page, read from the API in pages of USERS_FETCH_SIZE (the contract's
 * largest): only the pages that overlap the slice. An API that hands out another page size
 * than asked is followed; `items` may then stop short of the slice (MAX_USER_CALLS), and the
 * document says which users it holds.
 */
export async function usersSlice(
  backend: Backend,
  token: string,
  slice: ReportSlice,
): Promise<{ items: UserList['items']; total: number }> {
  const items: UserList['items'] = [];
  const end = slice.offset + slice.limit;
  let size = USERS_FETCH_SIZE;
  let page = Math.floor(slice.offset / size) + 1;
  let total = 0;
  let replanned = false;
  for (let calls = 0; calls < MAX_USER_CALLS; calls++) {
    const list = await backend.listUsers(token, { page, pageSize: size });
    total = list.total;
    if (list.pageSize !== size && Number.isInteger(list.pageSize) && list.pageSize > 0 && !replanned) {
      // Its pages are not ours: find the slice again in pages of its size.
      replanned = true;
      size = list.pageSize;
      page = Math.floor(slice.offset / size) + 1;
      continue;
    }
    const start = (page - 1) * size;
    list.items.forEach((user, i) => {
      if (start + i >= slice.offset && start + i < end) items.push(user);
    });
    if (list.items.length === 0 || start + size >= Math.min(total, end)) break;
    page++;
  }
  return { items, total };
}

type PdfKind = keyof typeof PDF_PATHS;

/** Each document in the three locale forms (unprefixed, /es, /en): path → document. */
const PDF_ROUTES = new Map<string, PdfKind>(
  (Object.keys(PDF_PATHS) as PdfKind[]).flatMap((kind) => localeForms(PDF_PATHS[kind]).map((path) => [path, kind] as const)),
);

type ProjectPdfKind = keyof typeof PROJECT_PDF_PATHS;

/** The project documents' paths (Express patterns) and, for each, a pattern of its exact form that captures the id. */
const PROJECT_PDF_ROUTES = (Object.keys(PROJECT_PDF_PATHS) as ProjectPdfKind[]).flatMap((kind) =>
  localeForms(PROJECT_PDF_PATHS[kind]).map((path) => ({
    kind,
    path,
    exact: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(':id', '([^/]+)')}$`),
  })),
);

function projectPdfOf(path: string): { kind: ProjectPdfKind; rawId: string } | null {
  for (const route of PROJECT_PDF_ROUTES) {
    const match = route.exact.exec(path);
    if (match) return { kind: route.kind, rawId: match[1]! };
  }
  return null;
}

/** The documents' paths and their handler, for one GET route: `app.get(pdf.paths, pdf.handler)`. */
export function pdfRoutes(deps: PdfDeps): { paths: string[]; handler: RequestHandler; close: () => Promise<void> } {
  const renderer =
    deps.renderer ??
    pdfRenderer({ resources: resourcesOf(deps.i18n ?? projectI18n(), PDF_NAMESPACES), perUser: deps.jobsPerUser ?? JOBS_PER_USER });
  const routes: Routes = { deps, renderer, stallMs: deps.stallMs ?? DEFAULT_STALL_MS, audit: deps.audit ?? noAudit };
  return {
    close: () => renderer.close(),
    paths: [...PDF_ROUTES.keys(), ...PROJECT_PDF_ROUTES.map((route) => route.path)],
    handler: (req, res, next) => {
      // Express matches paths without regard to case or a trailing slash: the documents have one form.
      const kind = PDF_ROUTES.get(req.path);
      const project = kind ? null : projectPdfOf(req.path);
      // `?version=1&version=2` is no document: refused as the API refuses it (http/query-once.ts).
      const repeated = kind || project ? repeatedParameter(req.query) : null;
      if (repeated) return plainText(res, 400, `Bad query parameter ${repeated}: ${givenOnce(repeated)}`);
      if (kind) return void handle(routes, kind, req, res);
      if (project) return void handleProject(routes, project.kind, project.rawId, req, res, next);
      next();
    },
  };
}

/** What the handlers share: the app's dependencies and what pdfRoutes made of them. */
type Routes = { deps: PdfDeps; renderer: PdfRenderer; stallMs: number; audit: Audit };

type SignedIn = NonNullable<Response['locals']['session']>;

/**
 * Lays the job out and sends it; a full queue is a 503, a client gone while waiting gets
 * nothing. A report that was made is recorded as downloaded (`download`: what it was) before
 * it is sent, so that the entry exists by the time the answer arrives.
 */
async function sendJob(
  { deps, renderer, stallMs, audit }: Routes,
  req: Request,
  res: Response,
  job: PdfJob,
  fileName: string,
  download?: AuditDetail<'report_downloaded'>,
) {
  const gone = new AbortController();
  const onClose = () => gone.abort(new Error('The client went away'));
  res.once('close', onClose);
  const user = res.locals.session?.user;
  const owner = user?.userName;
  let pdf: Buffer;
  try {
    pdf = await renderer.render(job, { signal: gone.signal, staff: hasRole(user, 'ADMIN'), ...(owner ? { owner } : {}) });
  } catch (error) {
    if (gone.signal.aborted && error === gone.signal.reason) return;
    if (error instanceof PdfShareError || error instanceof PdfBusyError) {
      const share = error instanceof PdfShareError;
      refuseDownload(res, {
        status: share ? 429 : 503,
        retryAfterSeconds: error.retryAfterSeconds,
        code: share ? 'too_many_documents' : 'documents_busy',
        message: error.message,
      });
      return;
    }
    throw error;
  } finally {
    res.off('close', onClose);
  }
  if (download) {
    await audit.record({ action: 'report_downloaded', actor: owner ?? null, ip: req.ip ?? null, detail: download });
  }
  res.set({
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${fileName}"`,
    'Content-Length': String(pdf.length),
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  try {
    await sendBuffer(res, pdf, { stallMs });
  } catch (error) {
    if (endedByClient(error)) deps.logger.info({ err: error, fileName }, 'PDF download ended by its client');
    else deps.logger.error({ err: error, fileName }, 'PDF download failed half-way');
  }
}

/** The signed-in session, or null once the visitor was sent to log in (remembering the path when it is a safe one). */
function sessionOrLogin(req: Request, res: Response): SignedIn | null {
  const session = res.locals.session;
  if (session) return session;
  // Like a private page: sign in first, then come back to the document.
  if (isSafeLocalPath(req.originalUrl)) rememberPath(req, res, req.originalUrl);
  res.set('Cache-Control', 'private, no-store').redirect(302, routePath('login', formOfPath(req.path)));
  return null;
}

/** What went wrong making a document: a login for a token the API refused, else a plain 500 (403). */
function failed(logger: Logger, req: Request, res: Response, kind: string, error: unknown) {
  const status = (error as { status?: number }).status;
  if (status === 401) {
    res.set('Cache-Control', 'private, no-store').redirect(302, routePath('login', formOfPath(req.path)));
    return;
  }
  logger.error({ err: error, kind }, 'PDF failed');
  res
    .status(status === 403 ? 403 : 500)
    .set('Cache-Control', 'private, no-store')
    .type('text/plain')
    .send('The document could not be made');
}

/** A document's context in the locale, in the colour of `colorOf`'s branding, else the brand's primary one (the navbar's default). */
async function documentContext(deps: PdfDeps, locale: Locale, colorOf: string): Promise<PdfContext> {
  return {
    locale,
    siteName: deps.siteName,
    brandColor: (await deps.brandColor(colorOf).catch(() => null)) ?? deps.brand.colors.primary,
    defaultColor: deps.brand.colors.primary,
    brand: {
      logos: { light: deps.brand.logos.light.svg, dark: deps.brand.logos.dark.svg },
      contact: contactLine(deps.brand, locale),
    } satisfies PdfBrand,
  };
}

async function handle(routes: Routes, kind: PdfKind, req: Request, res: Response) {
  const { deps } = routes;
  const form = formOfPath(req.path);
  const session = sessionOrLogin(req, res);
  if (!session) return;
  // The reports: ADMIN, or the scope reports:read, as the user is now (docs/decisions/053).
  if (kind !== 'profile' && !isPermitted(session.user, 'reports:read')) {
    plainText(res, 403, 'Only administrators and users with the scope reports:read may download this report');
    return;
  }
  // Checked before anything is read or laid out: a bad query costs nothing.
  const parsed = kind === 'profile' ? null : parseReportQuery(req.query as Record<string, unknown>, { dates: kind === 'messages' });
  if (parsed && !parsed.ok) {
    plainText(res, 400, `Bad query parameter ${parsed.problem.param}: ${parsed.problem.message}`);
    return;
  }
  const query = parsed?.query ?? { page: 1 };
  const ctx = await documentContext(deps, form.locale, session.user.userName);
  const now = new Date();
  try {
    if (kind === 'profile') {
      // The built-in API's record says more (the e-mail address, since when); else what the sign-in gave.
      const me = (await deps.userRecord(session.user.userName)) ?? session.user;
      return await sendJob(routes, req, res, { kind: 'profile', user: me, ctx }, pdfFileName('profile', form.locale, now, me.userName));
    }
    const report = { routes, req, res, session, query, ctx, now };
    return await (kind === 'users' ? sendUsersReport(report) : sendMessagesReport(report));
  } catch (error) {
    failed(deps.logger, req, res, kind, error);
  }
}

/** One page of a report, asked for by an admin whose query was checked. */
type ReportRequest = {
  routes: Routes;
  req: Request;
  res: Response;
  session: SignedIn;
  query: ReportQuery;
  ctx: PdfContext;
  now: Date;
};

/**
 * A page past the end is a 404 that says where the end is: no empty document to make, and an
 * empty report's page 1 still says that there is nothing.
 */
function pastTheEnd(res: Response, page: number, total: number, perPage: number, what: string) {
  plainText(
    res,
    404,
    `Page ${page} is past the end of this report: ${total} ${what} make ${reportPageCount(total, perPage)} page(s) of ${perPage}`,
  );
}

async function sendUsersReport({ routes, req, res, session, query, ctx, now }: ReportRequest) {
  const slice = reportSlice(query.page, USERS_PER_REPORT);
  const { items, total } = await usersSlice(routes.deps.backend, session.token, slice);
  const part = reportPart({ ...slice, limit: items.length }, total);
  if (!part || (items.length === 0 && total > 0)) return pastTheEnd(res, query.page, total, USERS_PER_REPORT, 'users');
  const report: ReportContext = { ...ctx, part };
  return await sendJob(routes, req, res, { kind: 'users', users: items, ctx: report }, pdfFileName('users', ctx.locale, now), {
    report: 'users',
    page: query.page,
  });
}

async function sendMessagesReport({ routes, req, res, query, ctx, now }: ReportRequest) {
  const { contact } = routes.deps;
  const range = createdAtRange(query);
  const { total, unread } = await contact.count(range);
  const slice = reportSlice(query.page, MESSAGES_PER_REPORT);
  const part = reportPart(slice, total, query);
  if (!part) return pastTheEnd(res, query.page, total, MESSAGES_PER_REPORT, 'messages');
  const messages = await contact.page({ ...slice, ...range, bodyChars: MESSAGE_READ_CHARS });
  const report: ReportContext = { ...ctx, part: { ...part, last: slice.offset + messages.length, unread } };
  return await sendJob(routes, req, res, { kind: 'messages', messages, ctx: report }, pdfFileName('messages', ctx.locale, now), {
    report: 'contact_messages',
    page: query.page,
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
  });
}

/**
 * A project's proposal or report. Whoever may not see the project — and any id that names no
 * project, or a proposal not sent yet — gets the site's 404 page, the answer for a URL that
 * names nothing: nobody learns that a project exists by asking for its documents.
 */
async function handleProject(routes: Routes, kind: ProjectPdfKind, rawId: string, req: Request, res: Response, next: NextFunction) {
  const { deps } = routes;
  let id: number;
  try {
    id = projectId(rawId);
  } catch {
    return next();
  }
  const session = sessionOrLogin(req, res);
  if (!session) return;
  const { locale } = formOfPath(req.path);
  try {
    // The proposal lists no history: none of it is read.
    const snapshot = await deps.projects.snapshot(session.user, id, { newest: kind === 'report' ? PROJECT_REPORT_NEWEST : 0 });
    const { project } = snapshot;
    if (kind === 'proposal' && !project.proposal) return next();
    // An earlier version (`?version=1`): every proposal sent keeps its PDF; one not listed is no page.
    const asked = kind === 'proposal' && typeof req.query.version === 'string' ? req.query.version : null;
    if (asked !== null) {
      const version = project.proposals.find((p) => String(p.version) === asked);
      if (!version) return next();
      snapshot.project = { ...project, proposal: version };
    }
    // The project's branding is its owner's, whoever downloads it.
    const ctx = await documentContext(deps, locale, project.owner.userName);
    const fileName = pdfFileName(kind, locale, new Date(), `${project.id} ${project.title}`);
    // Of a project's documents, its report (the whole history) is recorded as a report download.
    return await sendJob(
      routes,
      req,
      res,
      { kind, project: snapshot, ctx },
      fileName,
      kind === 'report' ? { report: 'project', project: project.id } : undefined,
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return next();
    failed(deps.logger, req, res, kind, error);
  }
}

// The PDF documents (issue 6): "my profile" for every signed-in user, and for admins the users
// report and the contact-messages report. Localised by the URL prefix, never cached.
import type { Request, RequestHandler, Response } from 'express';
import { DEFAULT_NAVBAR_COLOR } from '../../shared/constants.ts';
import { formOfPath, routePath } from '../../shared/routes.ts';
import { isSafeLocalPath } from '../../shared/safe-path.ts';
import type { UserList } from '../../shared/page-data.ts';
import type { Backend } from '../auth/backend.ts';
import { rememberPath } from '../auth/session.ts';
import type { ContactStore } from '../contact/messages.ts';
import type { Logger } from '../logger.ts';
import { pdfFileName, renderMessagesReportPdf, renderProfilePdf, renderUsersReportPdf, type PdfUser } from './documents.ts';

export const PDF_PATHS = {
  profile: 'documents/my-profile.pdf',
  users: 'documents/users.pdf',
  messages: 'documents/contact-messages.pdf',
} as const;

export type PdfDeps = {
  backend: Backend;
  contact: ContactStore;
  siteName: string;
  logger: Logger;
  /** The full record of a user in embedded mode (e-mail, dates); null with an external API. */
  userRecord: (userName: string) => Promise<PdfUser | null>;
  brandColor: (userName: string) => Promise<string | null>;
};

function send(res: Response, pdf: Buffer, fileName: string) {
  res.set({
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${fileName}"`,
    'Content-Length': String(pdf.length),
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(pdf);
}

async function allUsers(backend: Backend, token: string): Promise<UserList['items']> {
  const users: UserList['items'] = [];
  for (let page = 1; page <= 1000; page++) {
    const list = await backend.listUsers(token, { page });
    users.push(...list.items);
    if (page * list.pageSize >= list.total || list.items.length === 0) break;
  }
  return users;
}

type PdfKind = keyof typeof PDF_PATHS;

/** Each document in the three locale forms of seed-spec §2: path → document. */
const PDF_ROUTES = new Map<string, PdfKind>(
  ['', '/es', '/en'].flatMap((prefix) =>
    (Object.keys(PDF_PATHS) as PdfKind[]).map((kind) => [`${prefix}/${PDF_PATHS[kind]}`, kind] as const),
  ),
);

/** The documents' paths and their handler, for one GET route: `app.get(pdf.paths, pdf.handler)`. */
export function pdfRoutes(deps: PdfDeps): { paths: string[]; handler: RequestHandler } {
  const handle = async (kind: PdfKind, req: Request, res: Response) => {
    const form = formOfPath(req.path);
    const session = res.locals.session;
    if (!session) {
      // Like a private page: sign in first, then come back to the document.
      if (isSafeLocalPath(req.originalUrl)) rememberPath(req, res, req.originalUrl);
      res.set('Cache-Control', 'private, no-store').redirect(302, routePath('login', form));
      return;
    }
    if (kind !== 'profile' && session.user.role !== 'ADMIN') {
      res.status(403).set('Cache-Control', 'private, no-store').type('text/plain').send('Only administrators may download this report');
      return;
    }
    const ctx = {
      locale: form.locale,
      siteName: deps.siteName,
      brandColor: (await deps.brandColor(session.user.userName).catch(() => null)) ?? DEFAULT_NAVBAR_COLOR,
    };
    const now = new Date();
    try {
      if (kind === 'profile') {
        const me = (await deps.userRecord(session.user.userName)) ?? (await deps.backend.me(session.token));
        return send(res, await renderProfilePdf(me, ctx), pdfFileName('profile', form.locale, now, me.userName));
      }
      if (kind === 'users') {
        return send(
          res,
          await renderUsersReportPdf(await allUsers(deps.backend, session.token), ctx),
          pdfFileName('users', form.locale, now),
        );
      }
      const messages = (await deps.contact.all()).map((m) => ({ ...m, read: m.read }));
      return send(res, await renderMessagesReportPdf(messages, ctx), pdfFileName('messages', form.locale, now));
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 401) {
        res.set('Cache-Control', 'private, no-store').redirect(302, routePath('login', form));
        return;
      }
      deps.logger.error({ err: error, kind }, 'PDF failed');
      res
        .status(status === 403 ? 403 : 500)
        .set('Cache-Control', 'private, no-store')
        .type('text/plain')
        .send('The document could not be made');
    }
  };

  return {
    paths: [...PDF_ROUTES.keys()],
    handler: (req, res, next) => {
      // Express matches paths without regard to case or a trailing slash: the documents have one form.
      const kind = PDF_ROUTES.get(req.path);
      if (!kind) return next();
      void handle(kind, req, res);
    },
  };
}

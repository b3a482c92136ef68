// What every resource of the built-in API shares: its dependencies, the checks at the edge
// (parse), async handlers, and authentication (a Bearer token of a live session, the user as
// they are now) with the admin check and the scopes' (docs/decisions/053).
import { hasRole, isPermitted, type Scope } from '../../shared/user.ts';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import type { AuditReader } from '../audit/log.ts';
import type { Audit } from '../audit/types.ts';
import type { Backend } from '../auth/backend.ts';
import type { CurrentPasswordGuard, LoginGuard } from '../auth/login.ts';
import type { Sessions } from '../auth/session-store.ts';
import type { TokenClaims, TokenVerifier } from '../auth/tokens.ts';
import type { EmbeddedBranding } from '../user-branding/embedded.ts';
import type { Inbox } from '../contact/module.ts';
import type { Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
import { invalidRequestMessage, problemsOf } from '../http/problems.ts';
import type { Logger } from '../base/logger.ts';
import type { ImageUploads } from '../uploads/images.ts';
import type * as users from '../users/users.ts';
import type { Conversation } from '../projects/conversation.ts';
import type { DocumentUploads } from '../projects/document-upload.ts';
import type { DocumentDownloads } from '../projects/download.ts';
import type { ExpertiseService } from '../projects/expertise.ts';
import type { Projects } from '../projects/service.ts';
import type { Deletions } from '../my-account/deletion.ts';
import { setupRequiredError, type TwoFactor } from '../two-factor/service.ts';
import type { Accounts } from '../account-links/service.ts';
import type { CompanyService } from '../my-account/company-service.ts';
import type { Notifications } from '../notifications/notifications.ts';
import type { MailPreferencesStore } from '../mail/preferences.ts';

/** The input as `schema` reads it, or a 400 whose message says each problem in words and whose `fields` name them (http/problems.ts). */
export function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = problemsOf(result.error, value);
  const fields: Record<string, string> = {};
  for (const problem of problems) fields[problem.field] ??= problem.fieldMessage;
  const first = problems.filter((problem, i) => problems.findIndex((other) => other.field === problem.field) === i);
  throw new ApiError(400, 'invalid_request', invalidRequestMessage(first), fields);
}

type Handler = (req: Request, res: Response) => Promise<void> | void;
export const handle =
  (fn: Handler): RequestHandler =>
  (req, res, next) => {
    Promise.resolve(fn(req, res)).catch(next);
  };

export type ApiDeps = {
  db: Db;
  /** Decides whether a token still counts and who its user is now (auth/session-store.ts). */
  sessions: Sessions;
  backend: Backend;
  verify: TokenVerifier;
  loginGuard: LoginGuard;
  currentPasswordGuard: CurrentPasswordGuard;
  logger: Logger;
  branding: EmbeddedBranding;
  /** With a CMS, branding is edited there, not here. */
  brandingInCms: boolean;
  /** The contact inbox: its messages, their status, the replies sent from the console. */
  contact: Inbox;
  uploads: ImageUploads;
  /** How documents and images are sent: a chunk at a time, cut off when stalled, capped per user. */
  downloads: DocumentDownloads;
  projects: Projects;
  conversation: Conversation;
  /** Project documents uploaded: UPLOADS_MAX_CONCURRENT read at once per process, shared with the page form. */
  documentUploads: DocumentUploads;
  expertise: ExpertiseService;
  /** Where security-relevant actions are recorded (default: nowhere). */
  audit?: Audit;
  /** What admins read of the audit log. */
  auditLog: AuditReader;
  /** Account deletion requests (server/my-account/deletion.ts). */
  deletions?: Deletions | null;
  /** Two-factor authentication: the code at POST /login; ADMIN_REQUIRE_2FA's 403 for an administrator without it. */
  twoFactor?: Pick<TwoFactor, 'apiSignIn' | 'setupRequired'>;
  /** Invitations (server/account-links/). */
  accounts?: Accounts | null;
  /** Companies and their people (server/companies/). */
  companies: CompanyService;
  /** The notification centre (server/notifications/). */
  notifications: Notifications;
  /** What each user is e-mailed about (server/mail/preferences.ts). */
  mailPreferences: MailPreferencesStore;
};

declare module 'express-serve-static-core' {
  interface Locals {
    apiUser?: users.User;
  }
}

export type ApiAuth = ReturnType<typeof createApiAuth>;

export function createApiAuth(deps: ApiDeps) {
  const bearer = (req: Request) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header);
    return match?.[1] ?? null;
  };

  async function authenticate(req: Request, res: Response) {
    const token = bearer(req);
    if (!token) throw new ApiError(401, 'unauthorized', 'Send a Bearer token in the Authorization header');
    let claims: TokenClaims;
    try {
      claims = await deps.verify(token);
    } catch {
      throw new ApiError(401, 'unauthorized', 'The token is invalid or expired');
    }
    const user = await deps.sessions.userForToken(token, claims);
    if (!user) throw new ApiError(401, 'unauthorized', 'The token is invalid or expired');
    if (await deps.twoFactor?.setupRequired(user)) throw setupRequiredError();
    res.locals.apiUser = user;
  }
  const authenticated: RequestHandler = (req, res, next) => {
    authenticate(req, res).then(() => next(), next);
  };
  const requireAdmin: RequestHandler = (_req, res, next) => {
    if (!hasRole(res.locals.apiUser, 'ADMIN')) return next(new ApiError(403, 'forbidden', 'Only administrators may do this'));
    next();
  };
  /** ADMIN, or a user whose scope (as the database has it now) grants `scope`. */
  const requireScope =
    (scope: Scope): RequestHandler =>
    (_req, res, next) => {
      if (!isPermitted(res.locals.apiUser, scope)) {
        return next(new ApiError(403, 'forbidden', `Only administrators and users with the scope ${scope} may do this`));
      }
      next();
    };
  const json = express.json({ limit: '32kb' });
  const userOf = (res: Response) => res.locals.apiUser!;
  const tokenOf = (req: Request) => bearer(req)!;

  return { authenticated, requireAdmin, requireScope, json, userOf, tokenOf };
}

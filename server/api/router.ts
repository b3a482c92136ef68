// The built-in API (DESIGN.md §5), mounted at /api when API_URL is unset. Bearer-token auth,
// zod validation at the edge, errors as {error: {code, message, fields?}}. The contract is
// docs/openapi.json (a test keeps the two in step).
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { ROLES } from '../../shared/user.ts';
import { isEmailAddress, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, USER_NAME_PATTERN } from '../../shared/validation.ts';
import type { Logger } from '../logger.ts';
import { INVALID_CREDENTIALS, type Backend } from '../auth/backend.ts';
import type { Sessions } from '../auth/sessions.ts';
import type { CurrentPasswordGuard, LoginGuard } from '../auth/login.ts';
import type { TokenClaims, TokenVerifier } from '../auth/tokens.ts';
import { isDatabaseUnavailable, type Db } from '../db/index.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import { HEX_COLOR } from '../../shared/branding.ts';
import type { embeddedBranding } from '../branding/embedded.ts';
import type { ContactStore } from '../contact/messages.ts';
import { AVATAR_FILE, AVATAR_MAX_BYTES, UPLOAD_FOLDERS, type ImageUploads } from '../uploads/images.ts';
import * as users from '../users/users.ts';

const name = z.string().trim().min(1, 'is required').max(NAME_MAX_LENGTH);
const loginBody = z.object({
  identifier: z.string().trim().min(1, 'is required').max(254),
  password: z.string().min(1, 'is required').max(PASSWORD_MAX_LENGTH),
});
const profileBody = z.object({ name, lastName: name });
const passwordBody = z.object({
  currentPassword: z.string().min(1, 'is required').max(PASSWORD_MAX_LENGTH),
  newPassword: z.string().max(PASSWORD_MAX_LENGTH),
});
const newUserBody = z.object({
  userName: z.string().trim().regex(USER_NAME_PATTERN, 'must be 2–40 letters, digits, dots, hyphens or underscores'),
  email: z.string().trim().refine(isEmailAddress, 'must be one e-mail address such as ana@example.com').nullish(),
  name,
  lastName: name,
  role: z.enum(ROLES),
  password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
  scope: z.array(z.string().min(1).max(60)).max(50).optional(),
});
const updateUserBody = z
  .object({ role: z.enum(ROLES).optional(), disabled: z.boolean().optional() })
  .refine((b) => b.role !== undefined || b.disabled !== undefined, 'give role or disabled');
const resetPasswordBody = z.object({ password: z.string().max(PASSWORD_MAX_LENGTH).optional() });
const brandingBody = z.object({ color: z.string().regex(HEX_COLOR, 'must be a hex colour such as #30B7BB').nullable() });
const messagesQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  unread: z.enum(['true', 'false']).optional(),
});
const messageUpdateBody = z.object({ read: z.boolean() });
const listQuery = z.object({
  q: z.string().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
  const summary = Object.entries(fields)
    .map(([field, message]) => `${field} ${message}`)
    .join('; ');
  throw new ApiError(400, 'invalid_request', `Invalid request: ${summary}`, fields);
}

type Handler = (req: Request, res: Response) => Promise<void> | void;
const handle =
  (fn: Handler): RequestHandler =>
  (req, res, next) => {
    Promise.resolve(fn(req, res)).catch(next);
  };

export type ApiDeps = {
  db: Db;
  /** Decides whether a token still counts and who its user is now (auth/sessions.ts). */
  sessions: Sessions;
  backend: Backend;
  verify: TokenVerifier;
  loginGuard: LoginGuard;
  currentPasswordGuard: CurrentPasswordGuard;
  logger: Logger;
  branding: ReturnType<typeof embeddedBranding>;
  /** With a CMS, branding is edited there, not here. */
  brandingInCms: boolean;
  contact: ContactStore;
  uploads: ImageUploads;
};

declare module 'express-serve-static-core' {
  interface Locals {
    apiUser?: users.User;
  }
}

export function createApiRouter(deps: ApiDeps) {
  const { db, backend } = deps;
  const router = express.Router();

  router.use((_req, res, next) => {
    res.set('Cache-Control', 'private, no-store');
    next();
  });

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
    res.locals.apiUser = user;
  }
  const authenticated: RequestHandler = (req, res, next) => {
    authenticate(req, res).then(() => next(), next);
  };
  const requireAdmin: RequestHandler = (_req, res, next) => {
    if (res.locals.apiUser?.role !== 'ADMIN') return next(new ApiError(403, 'forbidden', 'Only administrators may do this'));
    next();
  };
  const json = express.json({ limit: '32kb' });
  const userOf = (res: Response) => res.locals.apiUser!;
  const tokenOf = (req: Request) => bearer(req)!;

  router.post(
    '/login',
    json,
    handle(async (req, res) => {
      const body = parse(loginBody, req.body);
      const answer = await deps.loginGuard(req, body.identifier, () => backend.login(body.identifier, body.password));
      // An API client's token is a session too: logout elsewhere, a disable or a password change end it.
      await deps.sessions.startForBearer(req, answer.token);
      res.json(answer);
    }),
  );

  router.get('/me', authenticated, (_req, res) => {
    res.json(users.sessionUserOf(userOf(res)));
  });

  router.patch(
    '/me',
    authenticated,
    json,
    handle(async (req, res) => {
      res.json(await backend.updateProfile(tokenOf(req), parse(profileBody, req.body)));
    }),
  );

  router.put(
    '/me/avatar',
    authenticated,
    express.raw({ type: () => true, limit: AVATAR_MAX_BYTES }),
    handle(async (req, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      res.json(await backend.setAvatar(tokenOf(req), body, req.get('content-type') ?? ''));
    }),
  );

  router.post(
    '/me/password',
    authenticated,
    json,
    handle(async (req, res) => {
      const body = parse(passwordBody, req.body);
      // A wrong current password is a guess: counted, and answered before the new one is judged.
      res.json(
        await deps.currentPasswordGuard(req, userOf(res).userName, () =>
          backend.changePassword(tokenOf(req), body.currentPassword, body.newPassword),
        ),
      );
    }),
  );

  // Uploaded images: random names, so they can be cached for good; served with nosniff.
  for (const folder of UPLOAD_FOLDERS) {
    router.get(
      `/${folder}/:file`,
      handle(async (req, res) => {
        const file = String(req.params.file);
        const stored = AVATAR_FILE.test(file) ? await deps.uploads.read(`/api/${folder}/${file}`) : null;
        if (!stored) throw new ApiError(404, 'not_found', `No image ${JSON.stringify(file)}`);
        res.set({
          'Content-Type': stored.contentType,
          'Content-Length': String(stored.data.length),
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'public, max-age=31536000, immutable',
          'Content-Security-Policy': "default-src 'none'",
        });
        res.end(stored.data);
      }),
    );
  }

  // Admin: every route checks the role on the server.
  router.get(
    '/admin/users',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const query = parse(listQuery, req.query);
      res.json(await users.listUsers(db, query));
    }),
  );

  router.post(
    '/admin/users',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      const body = parse(newUserBody, req.body);
      const password = body.password ?? users.randomPassword();
      const user = await users.createUser(db, { ...body, password });
      deps.logger.info({ admin: userOf(res).userName, userName: user.userName, role: user.role }, 'user created');
      res.status(201).json(body.password ? { user: users.publicUser(user) } : { user: users.publicUser(user), password });
    }),
  );

  router.patch(
    '/admin/users/:userName',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      const body = parse(updateUserBody, req.body);
      const target = String(req.params.userName);
      if (target.toLowerCase() === userOf(res).userName.toLowerCase() && (body.disabled === true || (body.role && body.role !== 'ADMIN'))) {
        throw new ApiError(409, 'self_lockout', 'Administrators cannot disable themselves or drop their own ADMIN role');
      }
      let user = await users.findUser(db, target);
      if (!user) throw new ApiError(404, 'user_not_found', `No user named ${JSON.stringify(target)}`);
      if (body.role) user = await users.setRole(db, target, body.role);
      if (body.disabled !== undefined) user = await users.setDisabled(db, target, body.disabled);
      // A disabled user's sessions end; a new role is what their sessions see from now on.
      if (body.disabled === true) await deps.sessions.endAllOf(target);
      else deps.sessions.forgetUser(target);
      deps.logger.info({ admin: userOf(res).userName, userName: target, ...body }, 'user updated');
      res.json({ user: users.publicUser(user) });
    }),
  );

  router.post(
    '/admin/users/:userName/password',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      const body = parse(resetPasswordBody, req.body ?? {});
      const password = body.password ?? users.randomPassword();
      const user = await users.setPassword(db, String(req.params.userName), password);
      await deps.sessions.endAllOf(user.userName);
      deps.logger.info({ admin: userOf(res).userName, userName: user.userName }, 'password reset');
      res.json(body.password ? { user: users.publicUser(user) } : { user: users.publicUser(user), password });
    }),
  );

  // The contact inbox: messages are kept until an admin deletes them.
  const messageId = (value: unknown) => {
    const id = Number(value);
    if (!Number.isSafeInteger(id) || id < 1) throw new ApiError(404, 'message_not_found', `No message ${JSON.stringify(String(value))}`);
    return id;
  };
  const requireMessage = async (value: unknown) => {
    const message = await deps.contact.get(messageId(value));
    if (!message) throw new ApiError(404, 'message_not_found', `No message ${JSON.stringify(String(value))}`);
    return message;
  };
  router.get(
    '/admin/messages',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const query = parse(messagesQuery, req.query);
      res.json(await deps.contact.list({ page: query.page, pageSize: query.pageSize, unread: query.unread === 'true' }));
    }),
  );
  router.get(
    '/admin/messages/:id',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      res.json({ message: await requireMessage(req.params.id) });
    }),
  );
  router.patch(
    '/admin/messages/:id',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      const message = await requireMessage(req.params.id);
      const body = parse(messageUpdateBody, req.body);
      res.json({ message: await deps.contact.setRead(message.id, body.read) });
    }),
  );
  router.delete(
    '/admin/messages/:id',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const message = await requireMessage(req.params.id);
      await deps.contact.remove(message.id);
      deps.logger.info({ admin: userOf(res).userName, messageId: message.id }, 'contact message deleted');
      res.status(204).end();
    }),
  );

  // Branding of CLI and ORG users (embedded mode; with a CMS it is edited there).
  const requireBrandable = async (userName: string) => {
    if (deps.brandingInCms) {
      throw new ApiError(409, 'branding_in_cms', 'Branding is managed in the CMS (the {username}-customs collections), not here');
    }
    const user = await users.findUser(db, userName);
    if (!user) throw new ApiError(404, 'user_not_found', `No user named ${JSON.stringify(userName)}`);
    if (user.role !== 'CLI' && user.role !== 'ORG') {
      throw new ApiError(409, 'not_brandable', `Branding applies to CLI and ORG users; ${user.userName} is ${user.role}`);
    }
    return user;
  };
  router.get(
    '/admin/branding/:userName',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const user = await requireBrandable(String(req.params.userName));
      res.json({ userName: user.userName, branding: await deps.branding.getBranding(user.userName) });
    }),
  );
  router.put(
    '/admin/branding/:userName',
    authenticated,
    requireAdmin,
    json,
    handle(async (req, res) => {
      const user = await requireBrandable(String(req.params.userName));
      const body = parse(brandingBody, req.body);
      const branding = await deps.branding.setBranding(user.userName, { color: body.color });
      deps.logger.info({ admin: userOf(res).userName, userName: user.userName, color: body.color }, 'branding updated');
      res.json({ userName: user.userName, branding });
    }),
  );
  router.put(
    '/admin/branding/:userName/logo',
    authenticated,
    requireAdmin,
    express.raw({ type: () => true, limit: AVATAR_MAX_BYTES }),
    handle(async (req, res) => {
      const user = await requireBrandable(String(req.params.userName));
      const image = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const logo = await deps.uploads.save('branding-logos', image, {
        owner: user.userName,
        uploader: userOf(res).userName,
        replacing: (await deps.branding.getBranding(user.userName))?.logo ?? null,
      });
      const { branding, previous } = await deps.branding.replaceLogo(user.userName, logo);
      await deps.uploads.remove(previous);
      deps.logger.info({ admin: userOf(res).userName, userName: user.userName }, 'branding logo updated');
      res.json({ userName: user.userName, branding });
    }),
  );
  router.delete(
    '/admin/branding/:userName/logo',
    authenticated,
    requireAdmin,
    handle(async (req, res) => {
      const user = await requireBrandable(String(req.params.userName));
      const { branding, previous } = await deps.branding.replaceLogo(user.userName, null);
      await deps.uploads.remove(previous);
      res.json({ userName: user.userName, branding });
    }),
  );

  router.use((req, _res, next) => next(new ApiError(404, 'not_found', `No API route ${req.method} /api${req.path}`)));

  const onError: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    let apiError: ApiError;
    if (error instanceof ApiError) apiError = error;
    else if (error && typeof error === 'object' && 'type' in error && (error as { type: string }).type === 'entity.too.large') {
      apiError = new ApiError(413, 'payload_too_large', 'The request body is too large');
    } else if (error && typeof error === 'object' && 'type' in error && (error as { type: string }).type === 'entity.parse.failed') {
      apiError = new ApiError(400, 'invalid_json', 'The request body is not valid JSON');
    } else if (
      error &&
      typeof error === 'object' &&
      'status' in error &&
      typeof (error as { status: unknown }).status === 'number' &&
      (error as { status: number }).status < 500
    ) {
      apiError = new ApiError((error as { status: number }).status, 'bad_request', 'The request could not be read');
    } else if (isDatabaseUnavailable(error)) {
      deps.logger.warn({ err: error }, 'database unavailable: 503');
      apiError = new ApiError(503, 'database_unavailable', 'The database is not available: try again in a moment');
    } else {
      deps.logger.error({ err: error }, 'API request failed');
      apiError = new ApiError(500, 'internal', 'Internal error');
    }
    if (apiError.status === 401 && apiError.code !== INVALID_CREDENTIALS) res.set('WWW-Authenticate', 'Bearer');
    if (apiError instanceof TooManyAttemptsError) res.set('Retry-After', String(apiError.retryAfter));
    res
      .status(apiError.status)
      .json({ error: { code: apiError.code, message: apiError.message, ...(apiError.fields ? { fields: apiError.fields } : {}) } });
  };
  router.use(onError);
  return router;
}

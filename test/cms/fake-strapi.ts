// A fake Strapi for the tests: node:http on 127.0.0.1, port 0, closed when the test ends.
// It records what it received (method, URL, headers, body) so tests can assert on it.
//
// Two modes:
//   scripted (no `access`)  the handler answers everything, login included: for the client's
//                           reactions to given answers (a 401, a slow login, a body cut off).
//   with `access`           Strapi's permission rules apply before the handler sees a request,
//                           and the fake signs users in itself. This is how a real Strapi decides:
//     - an anonymous request gets the Public role's permissions, and only it does;
//     - a request with a user's jwt gets that user's role's permissions (Authenticated by
//       default), never the Public role's: a user may read less than an anonymous visitor;
//     - an API token gets its own permissions ('read-only': find and findOne on everything);
//     - a jwt that is not valid (bad signature, expired, unknown) and is no API token: 401;
//     - a read the permissions do not cover: 403 with Strapi's error body;
//     - populate, by the content model (SITE_MODEL): a relation or media field is in an answer
//       only when the request populated it; a populated relation whose target type the caller
//       may not `find` is left out of the answer, without an error (Strapi 4 and 5 alike: the
//       content API's output sanitizer, removeRestrictedRelations, removes it; Strapi 5's query
//       validator checks populate keys but not the reader's permissions, although the 5.0 pull
//       request #19372 meant it to); populating a field the model does not have is a 400
//       ValidationError "Invalid key {field}" (Strapi 5's query validation); a populate's
//       `fields` keep only those fields (and id, documentId) of the related entries.
//   Files under /uploads are served without any check (Strapi's public folder).
import { SignJWT, jwtVerify } from 'jose';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { onTestFinished } from 'vitest';
import type { Logger } from '../../server/base/logger.ts';

export type Received = { method: string; url: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; body: string };

export type FakeHandler = (req: Received, res: ServerResponse) => unknown;

/**
 * `{api id}.{action}` as in Strapi's role editor, e.g. 'post.find', 'legal-page.findOne';
 * `*` stands for any part of an api id ('*-custom.find': find on every `{user}-customs').
 * The api id of `/api/{name}s` is `{name}`, of `/api/{name}ies` `{name}y` (Strapi's plural of
 * a collection: case-study → case-studies); a single type's path is its api id (`/api/home`).
 */
export type Permission = string;

export type StrapiAccess = {
  /** The Public role: what anonymous requests may do (and only they). */
  public: readonly Permission[];
  /** Roles by name; `authenticated` (none by default) is the role of a user without another. */
  roles?: Record<string, readonly Permission[]>;
  /** Accounts that can sign in at POST /api/auth/local; their role is 'authenticated' unless given. */
  users?: Record<string, { password: string; role?: string }>;
  /** API tokens, each with its own permissions; 'read-only' is find and findOne on everything. */
  tokens?: Record<string, readonly Permission[] | 'read-only'>;
  /** Lifetime of the jwts the fake issues (Strapi's default is 30 days). */
  jwtTtlSeconds?: number;
};

/** The service account the site is configured with in these tests. */
export const SERVICE_ACCOUNT = { identifier: 'svc@example.com', password: 'svc-password' } as const;
export const READ_ONLY_TOKEN = 'read-only-api-token';

/**
 * What a Strapi admin grants for the site with a service account (as docs/editors.md tells, "Permissions to grant"):
 * the Public role reads posts, their tags, legal pages, the home single type, the case studies and the redirects; the service account's
 * role (Authenticated) reads the branding collections and nothing else.
 */
export const LEAST_PRIVILEGE: StrapiAccess = {
  public: [
    'post.find',
    'post.findOne',
    'tag.find',
    'legal-page.find',
    'legal-page.findOne',
    'home.find',
    'case-study.find',
    'practice.find',
    'author.find',
    'redirect.find',
  ],
  roles: { authenticated: ['*-custom.find'] },
  users: { [SERVICE_ACCOUNT.identifier]: { password: SERVICE_ACCOUNT.password } },
};

/** What a Strapi admin grants for the site with an API token: a read-only token, nothing public. */
export const TOKEN_ONLY: StrapiAccess = { public: [], tokens: { [READ_ONLY_TOKEN]: 'read-only' } };

/** Strapi's maximum page size (`api.rest.maxLimit`, 100 by default); its default is 25. */
export const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 25;

export type FakeStrapi = {
  url: string;
  received: Received[];
  /** Requests other than the login. */
  reads(): Received[];
  logins(): Received[];
  /** The jwts the fake issued at login (with `access`), oldest first. */
  issuedJwts(): string[];
  /** Strapi's jwt secret changes: every jwt issued so far is refused (401) from now on. */
  rotateJwtSecret(): void;
  /** Waits ms, unless the server is closed first (so no test waits for a late answer). */
  delay(ms: number): Promise<void>;
};

/** A media field in a ContentModel (no permission decides whether it is shown). */
export const MEDIA = 'media';

/**
 * The fields that are populated, per collection (api id), as Strapi's content-type builder holds
 * them: relation field → its target's api id, or MEDIA.
 */
export type ContentModel = Record<string, Record<string, string>>;

/** The content model the site expects (server/cms/content.ts). */
export const SITE_MODEL: ContentModel = {
  post: { cover: MEDIA, tags: 'tag', localizations: 'post' },
  tag: {},
  'legal-page': {},
};

export type FakeStrapiOptions = {
  access?: StrapiAccess;
  /** The CMS's content model, with `access` (SITE_MODEL by default; e.g. a post type without tags). */
  model?: ContentModel;
};

export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
}

/** What Strapi's output sanitizer does to a request's answer (set by the fake for each read it lets through). */
const sanitizers = new WeakMap<ServerResponse, (value: unknown) => unknown>();

export function sendJson(res: ServerResponse, status: number, value: unknown) {
  if (res.destroyed) return;
  const sanitize = status < 300 ? sanitizers.get(res) : undefined;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(sanitize ? sanitize(value) : value));
}

/** Strapi's error body: `{data: null, error: {status, name, message, details}}`. */
export function sendStrapiError(res: ServerResponse, status: number, name: string, message: string, details: object = {}) {
  sendJson(res, status, { data: null, error: { status, name, message, details } });
}

/**
 * A collection answer as Strapi pages it: `pagination[page]` (from 1) and
 * `pagination[pageSize]` (25 by default, at most 100 whatever is asked), with the v4/v5 meta.
 */
export function paginate(
  entries: readonly unknown[],
  query: URLSearchParams,
): { data: unknown[]; meta: { pagination: Record<string, number> } } {
  const number = (name: string, fallback: number) => {
    const value = Number(query.get(name) ?? fallback);
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  const page = number('pagination[page]', 1);
  const pageSize = Math.min(number('pagination[pageSize]', DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
  const total = entries.length;
  return {
    data: entries.slice((page - 1) * pageSize, page * pageSize),
    meta: { pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } },
  };
}

/** A permission pattern ('*-custom.find') as a test of `{api id}.{action}`. */
function permits(patterns: readonly Permission[], wanted: string): boolean {
  return patterns.some((pattern) => {
    const regex = new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\-]/g, '\\$&'))
        .join('[a-z0-9-]+')}$`,
    );
    return regex.test(wanted);
  });
}

/**
 * The fields a query populates, each with the fields asked of it (null: all): `populate=*`,
 * `populate=a,b`, `populate[0]=a`, `populate[a]=true`, `populate[a][fields][0]=name`.
 */
export function populatedFields(query: URLSearchParams, model: Record<string, string>): Map<string, string[] | null> {
  const populated = new Map<string, string[] | null>();
  for (const [key, value] of query) {
    if (key === 'populate') {
      const names = value === '*' ? Object.keys(model) : value.split(',').map((name) => name.trim());
      for (const name of names) if (name && !populated.has(name)) populated.set(name, null);
      continue;
    }
    const path = /^populate\[([^\]]+)\](.*)$/.exec(key);
    if (!path) continue;
    const [, head = '', rest = ''] = path;
    const name = /^\d+$/.test(head) ? value : head;
    if (!populated.has(name)) populated.set(name, null);
    if (/^\[fields\]\[\d+\]$/.test(rest)) populated.set(name, [...(populated.get(name) ?? []), value]);
  }
  return populated;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A related entry (v4 `{id, attributes}` or flat) with only the fields asked, its ids kept. */
function onlyFields(entry: unknown, fields: readonly string[]): unknown {
  if (!isObject(entry)) return entry;
  const keep = (from: Json, always: readonly string[]) =>
    Object.fromEntries(Object.entries(from).filter(([key]) => always.includes(key) || fields.includes(key)));
  if (isObject(entry.attributes)) return { ...keep(entry, ['id', 'documentId']), attributes: keep(entry.attributes, ['documentId']) };
  return keep(entry, ['id', 'documentId']);
}

/** Strapi's output sanitizer on one entry (v4 or flat): what was not populated, or may not be read, is left out. */
function sanitizeEntry(
  entry: unknown,
  model: Record<string, string>,
  populated: Map<string, string[] | null>,
  may: (p: string) => boolean,
) {
  if (!isObject(entry)) return entry;
  const fields = isObject(entry.attributes) ? { ...entry.attributes } : { ...entry };
  for (const [field, target] of Object.entries(model)) {
    if (!(field in fields)) continue;
    const asked = populated.get(field);
    if (asked === undefined || (target !== MEDIA && !may(`${target}.find`))) {
      delete fields[field];
    } else if (asked) {
      const value = fields[field];
      const trim = (related: unknown) => (Array.isArray(related) ? related.map((e) => onlyFields(e, asked)) : onlyFields(related, asked));
      // Strapi 4 wraps a relation in {data}; Strapi 5 does not.
      fields[field] = isObject(value) && 'data' in value ? { ...value, data: trim(value.data) } : trim(value);
    }
  }
  return isObject(entry.attributes) ? { ...entry, attributes: fields } : fields;
}

const ACTIONS: Record<string, [collection: string, member: string]> = {
  GET: ['find', 'findOne'],
  HEAD: ['find', 'findOne'],
  POST: ['create', 'create'],
  PUT: ['update', 'update'],
  DELETE: ['delete', 'delete'],
};

/**
 * The api id of a path: `/api/legal-pages/4` → 'legal-page', `/api/case-studies` → 'case-study',
 * `/api/home` (a single type) → 'home'. Strapi's router ignores case.
 */
function apiIdOf(path: string): string {
  const [, api, name = ''] = path.toLowerCase().split('/');
  if (api !== 'api') return name;
  return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.replace(/s$/, '');
}

/** `GET /api/posts` → 'post.find', `GET /api/posts/4` → 'post.findOne', `GET /api/home` → 'home.find'. */
function permissionFor(method: string, path: string): string {
  const id = path.split('/')[3];
  const [collection, member] = ACTIONS[method] ?? ['unknown', 'unknown'];
  return `${apiIdOf(path)}.${id === undefined ? collection : member}`;
}

export async function startFakeStrapi(handler: FakeHandler, options: FakeStrapiOptions = {}): Promise<FakeStrapi> {
  const { access, model = SITE_MODEL } = options;
  const received: Received[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const issued: { jwt: string; role: string }[] = [];
  let secret = new Uint8Array(randomBytes(32));

  async function signIn(req: Received, res: ServerResponse) {
    let credentials: { identifier?: unknown; password?: unknown } = {};
    try {
      credentials = JSON.parse(req.body) as typeof credentials;
    } catch {
      // An unreadable body is a failed login below.
    }
    const identifier = typeof credentials.identifier === 'string' ? credentials.identifier.toLowerCase() : '';
    const user = Object.entries(access?.users ?? {}).find(([name]) => name.toLowerCase() === identifier)?.[1];
    if (!user || user.password !== credentials.password) {
      return sendStrapiError(res, 400, 'ValidationError', 'Invalid identifier or password');
    }
    const jwt = await new SignJWT({ id: issued.length + 1 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setJti(String(issued.length + 1))
      .setExpirationTime(Math.floor(Date.now() / 1000) + (access?.jwtTtlSeconds ?? 30 * 24 * 3600))
      .sign(secret);
    issued.push({ jwt, role: user.role ?? 'authenticated' });
    sendJson(res, 200, { jwt, user: { id: issued.length, username: identifier, email: identifier, confirmed: true, blocked: false } });
  }

  /** The permissions of the request's caller, or null when its credentials are refused (401). */
  async function permissionsOf(req: Received): Promise<readonly Permission[] | null> {
    if (!access) return null;
    const authorization = req.headers.authorization;
    if (authorization === undefined) return access.public;
    const bearer = /^Bearer (\S+)$/.exec(authorization)?.[1];
    if (!bearer) return null;
    const token = access.tokens?.[bearer];
    if (token === 'read-only') return ['*.find', '*.findOne'];
    if (token) return token;
    try {
      await jwtVerify(bearer, secret, { algorithms: ['HS256'] });
    } catch {
      return null;
    }
    const role = issued.find((entry) => entry.jwt === bearer)?.role;
    return role === undefined ? null : (access.roles?.[role] ?? []);
  }

  /**
   * Answers as Strapi does when a request does not get past its auth or its query validation
   * (true), else leaves it to the handler, whose answer then goes through the output sanitizer.
   */
  async function gate(req: Received, res: ServerResponse): Promise<boolean> {
    if (!access || req.path.startsWith('/uploads/')) return false;
    if (req.method === 'POST' && req.path === '/api/auth/local' && access.users) {
      await signIn(req, res);
      return true;
    }
    const permissions = await permissionsOf(req);
    if (permissions === null) {
      sendStrapiError(res, 401, 'UnauthorizedError', 'Missing or invalid credentials');
      return true;
    }
    if (!permits(permissions, permissionFor(req.method, req.path))) {
      sendStrapiError(res, 403, 'ForbiddenError', 'Forbidden');
      return true;
    }
    const fields = model[apiIdOf(req.path)];
    if (!fields) return false;
    const populated = populatedFields(req.query, fields);
    const unknown = [...populated.keys()].find((field) => !Object.hasOwn(fields, field));
    if (unknown !== undefined) {
      sendStrapiError(res, 400, 'ValidationError', `Invalid key ${unknown}`, {
        key: unknown,
        path: unknown,
        source: 'query',
        param: 'populate',
      });
      return true;
    }
    const may = (permission: string) => permits(permissions, permission);
    sanitizers.set(res, (body) => {
      if (!isObject(body)) return body;
      const { data } = body;
      const clean = (entry: unknown) => sanitizeEntry(entry, fields, populated, may);
      return { ...body, data: Array.isArray(data) ? data.map(clean) : clean(data) };
    });
    return false;
  }

  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      };
      received.push(seen);
      gate(seen, res)
        .then((answered) => (answered ? undefined : handler(seen, res)))
        .catch((error: unknown) => {
          if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    reads: () => received.filter((r) => r.path !== '/api/auth/local'),
    logins: () => received.filter((r) => r.path === '/api/auth/local'),
    issuedJwts: () => issued.map((entry) => entry.jwt),
    rotateJwtSecret: () => {
      secret = new Uint8Array(randomBytes(32));
    },
    delay: (ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, ms);
        timers.add(timer);
      }),
  };
}

/** A URL on which nothing listens. */
export async function unusedUrl(): Promise<string> {
  // Port 1 on the loopback: privileged, outside the ephemeral range every test server listens on,
  // so nothing ever answers there. (A port freed after listening on it could be taken meanwhile
  // by another file's server: the suite runs files side by side.)
  return 'http://127.0.0.1:1';
}

export type LogLine = { level: number; msg: string; [key: string]: unknown };

/** A real pino logger whose lines the test can read (no redaction: secrets must not get there). */
export function captureLogger(): { logger: Logger; lines: LogLine[]; warnings: () => LogLine[]; text: () => string } {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines, warnings: () => lines.filter((line) => line.level === 40), text: () => JSON.stringify(lines) };
}

// A small Strapi REST client for server-side reads (branding, content).
// Auth: an API token (`CMS_TOKEN`) is sent as a Bearer token on
// every read. Otherwise, what a read needs decides: Strapi gives a request with a user's jwt
// only that user's role's permissions, never the Public role's, so public content (posts,
// legal pages) is read anonymously; only the branding is read as the service account, which
// logs in with POST /api/auth/local (no Authorization header) and whose jwt is reused until it
// expires or the CMS answers 401, then it logs in once more and the request is retried once.
// Concurrent callers share one login in flight.
// Every failure is a CmsError; one deadline covers a whole call, login included, so a slow CMS
// never holds a page for longer than timeoutMs. Secrets never reach a log line or a message.
import { decodeJwt } from 'jose';
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import { CmsError } from './errors.ts';

export type CmsQuery = Record<string, string | number | boolean | undefined> | URLSearchParams;

export type StrapiClientOptions = {
  /** Base URL of the CMS, e.g. https://cms.example.com (a path prefix is kept). */
  url: string;
  /** Service account (with password); ignored when a token is given. */
  identifier?: string;
  password?: string;
  /** A Strapi API token; preferred over the service account. */
  token?: string;
  /** The setting the token comes from, named when the CMS refuses it (CMS_TOKEN by default). */
  tokenName?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  logger: Logger;
  /** For tests: the clock that decides when a jwt has expired. */
  now?: () => number;
};

/**
 * Who a read is made as:
 *   'public'   what Strapi's Public role may read: anonymously (the API token when there is one)
 *   'service'  what only the service account may read: with its jwt (or the API token);
 *              anonymously when neither is configured
 */
export type CmsAccess = 'public' | 'service';

export type CmsGetOptions = { as?: CmsAccess };

export type StrapiClient = {
  /** Origin of the CMS (scheme://host:port), to recognise its absolute media URLs. */
  readonly origin: string;
  readonly timeoutMs: number;
  /** GET {url}{path}?query, as 'public' unless told → the parsed JSON body. Throws CmsError. */
  get(path: string, query?: CmsQuery, options?: CmsGetOptions): Promise<unknown>;
};

type Session = { jwt: string; expiresAt: number | null };

const DEFAULT_TIMEOUT_MS = 1500;
// A jwt this close to its expiry is renewed first rather than sent to be refused.
const EXPIRY_MARGIN_MS = 30_000;
// Paths are built by our own modules; anything else is a programming error, not a CMS failure.
const API_PATH = /^\/api\/[A-Za-z0-9._~\-/]*$/;

function jwtExpiry(jwt: string): number | null {
  try {
    const { exp } = decodeJwt(jwt);
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    // Not a decodable JWT: reuse it until the CMS refuses it.
    return null;
  }
}

function timeoutError(what: string, timeoutMs: number): CmsError {
  return new CmsError('timeout', `CMS ${what}: no answer within ${timeoutMs} ms`);
}

/** Waits for a shared promise, but gives up when this caller's own deadline passes. */
function untilDeadline<T>(promise: Promise<T>, deadline: AbortSignal, onTimeout: () => CmsError): Promise<T> {
  if (deadline.aborted) return Promise.reject(onTimeout());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onTimeout());
    deadline.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        deadline.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        deadline.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

/** A client's options from the configuration (CMS_URL set): the API token, else the service account when both its settings are. */
export function cmsClientOptions(
  config: Pick<Config, 'CMS_URL' | 'CMS_TOKEN' | 'CMS_IDENTIFIER' | 'CMS_PASSWORD'>,
  logger: Logger,
  timeoutMs: number,
): StrapiClientOptions {
  return {
    url: config.CMS_URL!,
    timeoutMs,
    logger,
    ...(config.CMS_TOKEN ? { token: config.CMS_TOKEN } : {}),
    ...(config.CMS_IDENTIFIER && config.CMS_PASSWORD ? { identifier: config.CMS_IDENTIFIER, password: config.CMS_PASSWORD } : {}),
  };
}

export function createStrapiClient(options: StrapiClientOptions): StrapiClient {
  const base = new URL(options.url);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`CMS url must be http(s), got ${base.protocol}`);
  if (base.username || base.password) throw new Error('CMS url must not carry credentials: use a token or identifier/password');
  const baseUrl = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fetchImpl = options.fetch ?? fetch;
  const { logger, identifier, password, token } = options;
  const now = options.now ?? Date.now;
  if (!token && Boolean(identifier) !== Boolean(password)) {
    throw new Error('CMS service account needs both an identifier and a password');
  }
  const useLogin = !token && Boolean(identifier && password);

  let session: Session | null = null;
  let pendingLogin: Promise<string> | null = null;

  /** Any fetch failure as a CmsError: the deadline's abort is a timeout, the rest unreachable. */
  async function send(what: string, url: string, init: RequestInit, deadline: AbortSignal): Promise<Response> {
    try {
      return await fetchImpl(url, { ...init, signal: deadline, redirect: 'error' });
    } catch (error) {
      if (deadline.aborted) throw timeoutError(what, timeoutMs);
      throw new CmsError('unreachable', `CMS ${what}: ${error instanceof Error ? error.message : 'request failed'}`, null, {
        cause: error,
      });
    }
  }

  async function readJson(what: string, response: Response, deadline: AbortSignal): Promise<unknown> {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      if (deadline.aborted) throw timeoutError(what, timeoutMs);
      throw new CmsError('unreachable', `CMS ${what}: the answer was cut off`, response.status, { cause: error });
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new CmsError('malformed', `CMS ${what}: the answer is not JSON`, response.status, { cause: error });
    }
  }

  async function discard(response: Response) {
    await response.body?.cancel().catch(() => undefined);
  }

  async function login(): Promise<string> {
    const what = 'POST /api/auth/local';
    // Its own deadline: the login is shared, so no single caller's deadline may cancel it.
    const deadline = AbortSignal.timeout(timeoutMs);
    const response = await send(
      what,
      `${baseUrl}/api/auth/local`,
      {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({ identifier, password }),
      },
      deadline,
    );
    if (!response.ok) {
      await discard(response);
      throw new CmsError('status', `CMS ${what}: the service account login answered ${response.status}`, response.status);
    }
    const body = await readJson(what, response, deadline);
    const jwt = typeof body === 'object' && body !== null && 'jwt' in body ? body.jwt : undefined;
    if (typeof jwt !== 'string' || jwt.length === 0) throw new CmsError('malformed', `CMS ${what}: the answer has no jwt`, response.status);
    session = { jwt, expiresAt: jwtExpiry(jwt) };
    logger.debug({ cms: base.origin }, 'CMS service account signed in');
    return jwt;
  }

  function currentJwt(): Promise<string> {
    if (session && (session.expiresAt === null || now() < session.expiresAt - EXPIRY_MARGIN_MS)) return Promise.resolve(session.jwt);
    pendingLogin ??= login().finally(() => {
      pendingLogin = null;
    });
    return pendingLogin;
  }

  async function authorization(as: CmsAccess, deadline: AbortSignal): Promise<string | null> {
    if (token) return `Bearer ${token}`;
    // A jwt would swap the Public role's permissions for the service account's role's.
    if (as === 'public' || !useLogin) return null;
    const jwt = await untilDeadline(currentJwt(), deadline, () => timeoutError('POST /api/auth/local', timeoutMs));
    return `Bearer ${jwt}`;
  }

  function buildUrl(path: string, query: CmsQuery | undefined): string {
    const params = new URLSearchParams();
    if (query instanceof URLSearchParams) query.forEach((value, key) => params.append(key, value));
    else for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.append(key, String(value));
    const search = params.toString();
    return `${baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  /** Who refused a read (403), for the message: the permission is granted to that one in Strapi. */
  function refusedBy(auth: string | null): string {
    if (token) return `the API token (${options.tokenName ?? 'CMS_TOKEN'})`;
    if (auth) return "the service account's role";
    return 'the Public role';
  }

  async function get(path: string, query?: CmsQuery, options: CmsGetOptions = {}): Promise<unknown> {
    const as = options.as ?? 'public';
    if (!API_PATH.test(path) || path.includes('..')) throw new TypeError(`Not a CMS API path: ${JSON.stringify(path)}`);
    const what = `GET ${path}`;
    const url = buildUrl(path, query);
    const deadline = AbortSignal.timeout(timeoutMs);
    const request = async (auth: string | null) =>
      send(what, url, { method: 'GET', headers: { Accept: 'application/json', ...(auth ? { Authorization: auth } : {}) } }, deadline);

    const auth = await authorization(as, deadline);
    let response = await request(auth);
    if (response.status === 401 && useLogin && auth) {
      // The jwt was refused (expired early, or the CMS's secret changed): one new login, one retry.
      await discard(response);
      if (session && `Bearer ${session.jwt}` === auth) session = null;
      logger.debug({ cms: base.origin }, 'CMS refused the service jwt: signing in again');
      response = await request(await authorization(as, deadline));
    }
    if (!response.ok) {
      await discard(response);
      const hint = response.status === 403 ? ` (${refusedBy(auth)} may not read it: grant it find/findOne in Strapi)` : '';
      throw new CmsError('status', `CMS ${what}: answered ${response.status}${hint}`, response.status);
    }
    return readJson(what, response, deadline);
  }

  return { origin: base.origin, timeoutMs, get };
}

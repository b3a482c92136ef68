import { SignJWT } from 'jose';
import { expect, test } from 'vitest';
import { createStrapiClient } from '../../server/cms/client.ts';
import { CmsError } from '../../server/cms/errors.ts';
import {
  captureLogger,
  LEAST_PRIVILEGE,
  READ_ONLY_TOKEN,
  SERVICE_ACCOUNT,
  sendJson,
  startFakeStrapi,
  TOKEN_ONLY,
  unusedUrl,
  type StrapiAccess,
} from './fake-strapi.ts';

const IDENTIFIER = 'site-service';
const PASSWORD = 'service-password-not-for-logs';
// The branding collection of a user: what only the service account may read.
const SERVICE_READ = ['/api/acme-customs', undefined, { as: 'service' }] as const;

async function jwtExpiringAt(seconds: number) {
  return new SignJWT({ id: 1 })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(seconds)
    .sign(new TextEncoder().encode('k'.repeat(32)));
}

async function caught(promise: Promise<unknown>): Promise<CmsError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CmsError) return error;
    throw error;
  }
  throw new Error('expected a CmsError');
}

test('the service account logs in with identifier and password as JSON and no Authorization header', async () => {
  const cms = await startFakeStrapi((req, res) =>
    req.path === '/api/auth/local' ? sendJson(res, 200, { jwt: 'jwt-1', user: { id: 1 } }) : sendJson(res, 200, { data: [] }),
  );
  const client = createStrapiClient({ url: cms.url, identifier: IDENTIFIER, password: PASSWORD, logger: captureLogger().logger });
  await client.get(...SERVICE_READ);
  const [login] = cms.logins();
  expect(login?.method).toBe('POST');
  expect(login?.headers.authorization).toBeUndefined();
  expect(login?.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(login?.body ?? '')).toEqual({ identifier: IDENTIFIER, password: PASSWORD });
  expect(cms.reads()[0]?.headers.authorization).toBe('Bearer jwt-1');
});

test('the jwt is reused until it expires, then the client logs in again', async () => {
  let clock = Date.UTC(2026, 0, 1);
  let issued = 0;
  const cms = await startFakeStrapi(async (req, res) => {
    if (req.path !== '/api/auth/local') return sendJson(res, 200, { data: [] });
    issued += 1;
    sendJson(res, 200, { jwt: await jwtExpiringAt(Math.floor(clock / 1000) + 3600) });
  });
  const client = createStrapiClient({
    url: cms.url,
    identifier: IDENTIFIER,
    password: PASSWORD,
    logger: captureLogger().logger,
    now: () => clock,
  });
  await client.get(...SERVICE_READ);
  await client.get(...SERVICE_READ);
  clock += 30 * 60_000;
  await client.get(...SERVICE_READ);
  expect(issued).toBe(1);
  clock += 31 * 60_000;
  await client.get(...SERVICE_READ);
  expect(issued).toBe(2);
});

test('concurrent callers share one login in flight', async () => {
  const cms = await startFakeStrapi(async (req, res) => {
    if (req.path === '/api/auth/local') await cms.delay(100);
    sendJson(res, 200, req.path === '/api/auth/local' ? { jwt: 'jwt-shared' } : { data: [] });
  });
  const client = createStrapiClient({ url: cms.url, identifier: IDENTIFIER, password: PASSWORD, logger: captureLogger().logger });
  await Promise.all(Array.from({ length: 5 }, () => client.get(...SERVICE_READ)));
  expect(cms.logins()).toHaveLength(1);
  expect(cms.reads().map((r) => r.headers.authorization)).toEqual(Array(5).fill('Bearer jwt-shared'));
});

test('a 401 answer causes exactly one new login and one retry; a second 401 is a status error', async () => {
  let logins = 0;
  const cms = await startFakeStrapi((req, res) => {
    if (req.path === '/api/auth/local') return sendJson(res, 200, { jwt: `jwt-${++logins}` });
    sendJson(res, 401, { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials' } });
  });
  const client = createStrapiClient({ url: cms.url, identifier: IDENTIFIER, password: PASSWORD, logger: captureLogger().logger });
  const error = await caught(client.get(...SERVICE_READ));
  expect(error).toMatchObject({ reason: 'status', status: 401 });
  expect(cms.logins()).toHaveLength(2);
  expect(cms.reads().map((r) => r.headers.authorization)).toEqual(['Bearer jwt-1', 'Bearer jwt-2']);
});

test('with an API token the token is sent on every read and /api/auth/local is never called', async () => {
  const cms = await startFakeStrapi((_req, res) => sendJson(res, 200, { data: [] }));
  const client = createStrapiClient({
    url: cms.url,
    token: 'api-token-123',
    identifier: IDENTIFIER,
    password: PASSWORD,
    logger: captureLogger().logger,
  });
  await client.get('/api/posts');
  await client.get(...SERVICE_READ);
  expect(cms.logins()).toHaveLength(0);
  expect(cms.received.map((r) => r.headers.authorization)).toEqual(['Bearer api-token-123', 'Bearer api-token-123']);
});

test('reads posts anonymously when only a service account is configured, and branding with its jwt', async () => {
  const cms = await startFakeStrapi((_req, res) => sendJson(res, 200, { data: [] }), { access: LEAST_PRIVILEGE });
  const client = createStrapiClient({ url: cms.url, ...SERVICE_ACCOUNT, logger: captureLogger().logger });
  await client.get('/api/posts');
  await client.get('/api/legal-pages', undefined, { as: 'public' });
  expect(cms.logins()).toHaveLength(0);
  await client.get(...SERVICE_READ);
  expect(cms.reads().map((r) => [r.path, r.headers.authorization])).toEqual([
    ['/api/posts', undefined],
    ['/api/legal-pages', undefined],
    ['/api/acme-customs', `Bearer ${cms.issuedJwts()[0]}`],
  ]);
});

test.each<[string, StrapiAccess, { token?: string; identifier?: string; password?: string }, 'public' | 'service', RegExp]>([
  ['the Public role', { ...LEAST_PRIVILEGE, public: [] }, SERVICE_ACCOUNT, 'public', /the Public role may not read it/],
  [
    'the service account’s role',
    { ...LEAST_PRIVILEGE, roles: {} },
    SERVICE_ACCOUNT,
    'service',
    /the service account's role may not read it/,
  ],
  [
    'the API token',
    { ...TOKEN_ONLY, tokens: { [READ_ONLY_TOKEN]: [] } },
    { token: READ_ONLY_TOKEN },
    'public',
    /the API token \(CMS_TOKEN\) may not read it/,
  ],
])('a read refused with 403 says that %s lacks the permission', async (_who, access, credentials, as, message) => {
  const cms = await startFakeStrapi((_req, res) => sendJson(res, 200, { data: [] }), { access });
  const client = createStrapiClient({ url: cms.url, ...credentials, logger: captureLogger().logger });
  const error = await caught(client.get(as === 'public' ? '/api/posts' : '/api/acme-customs', undefined, { as }));
  expect(error).toMatchObject({ reason: 'status', status: 403 });
  expect(error.message).toMatch(message);
});

test('without credentials the requests carry no Authorization header', async () => {
  const cms = await startFakeStrapi((_req, res) => sendJson(res, 200, { data: [] }));
  await createStrapiClient({ url: cms.url, logger: captureLogger().logger }).get('/api/posts');
  expect(cms.received[0]?.headers.authorization).toBeUndefined();
});

test('the query is sent with Strapi bracket parameters', async () => {
  const cms = await startFakeStrapi((_req, res) => sendJson(res, 200, { data: [] }));
  await createStrapiClient({ url: `${cms.url}/`, logger: captureLogger().logger }).get('/api/posts', {
    locale: 'en',
    'sort[0]': 'date:desc',
    'filters[slug][$eq]': 'a b&c',
    skipped: undefined,
  });
  const [req] = cms.received;
  expect(req?.path).toBe('/api/posts');
  expect(Object.fromEntries(req?.query ?? [])).toEqual({ locale: 'en', 'sort[0]': 'date:desc', 'filters[slug][$eq]': 'a b&c' });
});

test.each([
  [500, 'status'],
  [404, 'status'],
  [403, 'status'],
])('an answer %i is a CmsError with reason %s and the status', async (status, reason) => {
  const cms = await startFakeStrapi((_req, res) => sendJson(res, status, { error: {} }));
  const error = await caught(createStrapiClient({ url: cms.url, logger: captureLogger().logger }).get('/api/posts'));
  expect(error).toMatchObject({ reason, status });
});

test('a body that is not JSON is a CmsError with reason malformed', async () => {
  const cms = await startFakeStrapi((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data": ['));
  const error = await caught(createStrapiClient({ url: cms.url, logger: captureLogger().logger }).get('/api/posts'));
  expect(error).toMatchObject({ reason: 'malformed', status: 200 });
});

test('a CMS that does not answer in time is a CmsError with reason timeout', async () => {
  const cms = await startFakeStrapi(async (_req, res) => {
    await cms.delay(1000);
    sendJson(res, 200, { data: [] });
  });
  // The answer would come after 1 s: a timeout means the client gave up first.
  const error = await caught(createStrapiClient({ url: cms.url, timeoutMs: 200, logger: captureLogger().logger }).get('/api/posts'));
  expect(error.reason).toBe('timeout');
});

test('a CMS that cannot be reached is a CmsError with reason unreachable', async () => {
  const error = await caught(createStrapiClient({ url: await unusedUrl(), logger: captureLogger().logger }).get('/api/posts'));
  expect(error.reason).toBe('unreachable');
});

test('a failed service login is a status error and its credentials appear in no log line or message', async () => {
  const cms = await startFakeStrapi((_req, res) => sendJson(res, 400, { error: { message: 'Invalid identifier or password' } }));
  const { logger, text } = captureLogger();
  const error = await caught(createStrapiClient({ url: cms.url, identifier: IDENTIFIER, password: PASSWORD, logger }).get(...SERVICE_READ));
  expect(error).toMatchObject({ reason: 'status', status: 400 });
  expect(`${error.message} ${text()}`).not.toContain(PASSWORD);
});

test('a path that is not a CMS API path is refused before any request', async () => {
  const cms = await startFakeStrapi((_req, res) => sendJson(res, 200, {}));
  const client = createStrapiClient({ url: cms.url, logger: captureLogger().logger });
  for (const path of ['/admin', '/api/../admin', '/api/x?y=1', 'api/posts', '/api/a b']) {
    await expect(client.get(path)).rejects.toThrow(TypeError);
  }
  expect(cms.received).toHaveLength(0);
});

test('a service account needs both identifier and password, and a URL with credentials is refused', () => {
  const logger = captureLogger().logger;
  expect(() => createStrapiClient({ url: 'http://cms.test', identifier: IDENTIFIER, logger })).toThrow(/both an identifier and a password/);
  expect(() => createStrapiClient({ url: 'http://u:p@cms.test', logger })).toThrow(/must not carry credentials/);
});

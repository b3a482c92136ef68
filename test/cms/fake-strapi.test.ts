// The fake Strapi decides who may read what the way a real Strapi does; the CMS tests rely on
// it, so its rules are tested here, against plain fetch.
import { SignJWT } from 'jose';
import { expect, test } from 'vitest';
import {
  LEAST_PRIVILEGE,
  MAX_PAGE_SIZE,
  paginate,
  READ_ONLY_TOKEN,
  SERVICE_ACCOUNT,
  sendJson,
  startFakeStrapi,
  TOKEN_ONLY,
  type StrapiAccess,
} from './fake-strapi.ts';

const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
const UNAUTHORIZED = {
  data: null,
  error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} },
};

async function strapi(access: StrapiAccess) {
  return startFakeStrapi((_req, res) => sendJson(res, 200, { data: [], meta: {} }), { access });
}

async function signIn(url: string, identifier: string = SERVICE_ACCOUNT.identifier, password: string = SERVICE_ACCOUNT.password) {
  const res = await fetch(`${url}/api/auth/local`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ identifier, password }),
  });
  return { status: res.status, body: (await res.json()) as { jwt?: string } };
}

async function read(url: string, path: string, bearer?: string) {
  const res = await fetch(`${url}${path}`, bearer ? { headers: { Authorization: `Bearer ${bearer}` } } : {});
  return { status: res.status, body: (await res.json()) as unknown };
}

test.each([
  ['/api/posts', 200],
  ['/api/posts/4', 200],
  ['/api/legal-pages', 200],
  ['/api/home', 200],
  ['/api/case-studies', 200],
  ['/api/case-studies/2', 403],
  ['/api/acme-customs', 403],
  ['/api/users', 403],
])('an anonymous request gets the Public role’s permissions: GET %s → %i', async (path, status) => {
  const cms = await strapi(LEAST_PRIVILEGE);
  expect((await read(cms.url, path)).status).toBe(status);
});

test.each([
  ['/api/acme-customs', 200],
  ['/api/globex-customs', 200],
  ['/api/posts', 403],
  ['/api/legal-pages', 403],
  ['/api/posts/4', 403],
  ['/api/home', 403],
  ['/api/case-studies', 403],
])('a user’s jwt gets only its role’s permissions, never the Public role’s: GET %s → %i', async (path, status) => {
  const cms = await strapi(LEAST_PRIVILEGE);
  const { jwt } = (await signIn(cms.url)).body;
  expect((await read(cms.url, path, jwt)).status).toBe(status);
});

test('a user with another role gets that role’s permissions, not the Authenticated role’s', async () => {
  const cms = await strapi({
    public: [],
    roles: { authenticated: ['*-custom.find'], editors: ['post.find'] },
    users: { editor: { password: 'pw', role: 'editors' } },
  });
  const { jwt } = (await signIn(cms.url, 'editor', 'pw')).body;
  expect((await read(cms.url, '/api/posts', jwt)).status).toBe(200);
  expect((await read(cms.url, '/api/acme-customs', jwt)).status).toBe(403);
});

test('a read-only API token reads everything; a custom token only what it was given', async () => {
  const cms = await strapi({ ...TOKEN_ONLY, tokens: { [READ_ONLY_TOKEN]: 'read-only', narrow: ['post.find'] } });
  for (const path of ['/api/posts', '/api/posts/4', '/api/legal-pages', '/api/acme-customs']) {
    expect((await read(cms.url, path, READ_ONLY_TOKEN)).status).toBe(200);
  }
  expect((await read(cms.url, '/api/posts', 'narrow')).status).toBe(200);
  expect((await read(cms.url, '/api/legal-pages', 'narrow')).status).toBe(403);
  expect((await read(cms.url, '/api/posts')).status).toBe(403);
});

test.each([
  ['/api/case-studies', 'case-study.find'],
  ['/api/case-studies/7', 'case-study.findOne'],
  ['/api/home', 'home.find'],
  ['/api/posts', 'post.find'],
])('the permission of GET %s is %s (the plural of -y is -ies; a single type is its own name)', async (path, permission) => {
  const cms = await strapi({ public: [permission] });
  expect((await read(cms.url, path)).status).toBe(200);
  const without = await strapi({ public: [] });
  expect((await read(without.url, path)).status).toBe(403);
});

test('a forbidden read answers 403 with Strapi’s error body, and the handler never sees it', async () => {
  const cms = await strapi(LEAST_PRIVILEGE);
  expect(await read(cms.url, '/api/acme-customs')).toEqual({ status: 403, body: FORBIDDEN });
  expect(await read(cms.url, '/api/Users')).toEqual({ status: 403, body: FORBIDDEN });
});

test('a jwt that is forged, expired, or signed before the secret changed is refused with 401', async () => {
  const cms = await strapi(LEAST_PRIVILEGE);
  const forged = await new SignJWT({ id: 1 }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(32)));
  expect(await read(cms.url, '/api/acme-customs', forged)).toEqual({ status: 401, body: UNAUTHORIZED });
  expect((await read(cms.url, '/api/acme-customs', 'not-a-jwt')).status).toBe(401);

  const expiring = await startFakeStrapi(() => undefined, { access: { ...LEAST_PRIVILEGE, jwtTtlSeconds: -1 } });
  const { jwt: expired } = (await signIn(expiring.url)).body;
  expect((await read(expiring.url, '/api/acme-customs', expired)).status).toBe(401);

  const { jwt } = (await signIn(cms.url)).body;
  expect((await read(cms.url, '/api/acme-customs', jwt)).status).toBe(200);
  cms.rotateJwtSecret();
  expect((await read(cms.url, '/api/acme-customs', jwt)).status).toBe(401);
});

test('the login answers a jwt for a known account and Strapi’s 400 for a wrong password', async () => {
  const cms = await strapi(LEAST_PRIVILEGE);
  const ok = await signIn(cms.url);
  expect(ok.status).toBe(200);
  expect(cms.issuedJwts()).toEqual([ok.body.jwt]);
  const wrong = await signIn(cms.url, SERVICE_ACCOUNT.identifier, 'wrong');
  expect(wrong).toMatchObject({ status: 400, body: { data: null, error: { status: 400, name: 'ValidationError' } } });
});

test('files under /uploads are served to anyone', async () => {
  const cms = await startFakeStrapi((_req, res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end('png'), {
    access: TOKEN_ONLY,
  });
  expect((await fetch(`${cms.url}/uploads/logo.png`)).status).toBe(200);
});

test.each([
  [{}, 1, 25, 25],
  [{ 'pagination[pageSize]': '100' }, 1, 100, 100],
  [{ 'pagination[pageSize]': '1000' }, 1, MAX_PAGE_SIZE, 100],
  [{ 'pagination[pageSize]': '100', 'pagination[page]': '3' }, 3, 100, 50],
])('pages like Strapi, at most 100 entries a page whatever is asked (%j)', (query, page, pageSize, length) => {
  const entries = Array.from({ length: 250 }, (_, i) => ({ id: i + 1 }));
  const answer = paginate(entries, new URLSearchParams(query));
  expect(answer.data).toHaveLength(length);
  expect(answer.meta.pagination).toEqual({ page, pageSize, pageCount: Math.ceil(250 / pageSize), total: 250 });
});

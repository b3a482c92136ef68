// The fake Strapi decides who may read what the way a real Strapi does; the CMS tests rely on
// it, so its rules are tested here, against plain fetch.
import { SignJWT } from 'jose';
import { expect, test } from 'vitest';
import {
  LEAST_PRIVILEGE,
  MAX_PAGE_SIZE,
  MEDIA,
  paginate,
  populatedFields,
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

// Populate. Strapi 4 and 5 leave out of an answer a relation whose target type the reader may
// not `find` (their output sanitizer's removeRestrictedRelations), without an error; Strapi 5
// refuses to populate a field the type does not have (400 "Invalid key x").

const TAG = { id: 3, documentId: 't3', name: 'Datos', slug: 'datos', createdAt: '2026-01-01T00:00:00.000Z' };
const V5_POST = {
  id: 4,
  documentId: 'p4',
  title: 'T',
  slug: 't',
  cover: { id: 7, url: '/uploads/c.jpg' },
  tags: [TAG],
  localizations: [{ id: 9, documentId: 'p4', slug: 'tt', locale: 'en', title: 'TT' }],
};
const V4_POST = {
  id: 4,
  attributes: {
    title: 'T',
    slug: 't',
    cover: { data: { id: 7, attributes: { url: '/uploads/c.jpg' } } },
    tags: { data: [{ id: 3, attributes: { name: 'Datos', slug: 'datos', createdAt: '2026-01-01T00:00:00.000Z' } }] },
    localizations: { data: [{ id: 9, attributes: { slug: 'tt', locale: 'en', title: 'TT' } }] },
  },
};
const SITE_POPULATE =
  '?populate[cover]=true&populate[localizations][fields][0]=slug&populate[localizations][fields][1]=locale' +
  '&populate[tags][fields][0]=name&populate[tags][fields][1]=slug';

type Entry = Record<string, unknown>;
const v5Fields = (body: unknown) => (body as { data: Entry[] }).data[0]!;
const v4Fields = (body: unknown) => (body as { data: { attributes: Entry }[] }).data[0]!.attributes;

/** A populated relation's entries (v4 `{data: [{id, attributes}]}` or flat), as flat objects. */
function relatedEntries(value: unknown): Entry[] {
  const list = ((value as { data?: unknown }).data ?? value) as Entry[];
  return list.map(({ attributes, ...ids }) => ({ ...ids, ...(attributes as Entry | undefined) }));
}

function postsStrapi(entry: object, access: StrapiAccess, model?: Record<string, Record<string, string>>) {
  return startFakeStrapi((_req, res) => sendJson(res, 200, { data: [entry], meta: {} }), { access, ...(model ? { model } : {}) });
}

test.each([
  ['v5', V5_POST, v5Fields],
  ['v4', V4_POST, v4Fields],
])(
  'a populated relation whose type the Public role may not find is left out of the %s answer (200, no error)',
  async (_shape, entry, fieldsOf) => {
    const without = await postsStrapi(entry, { public: ['post.find'] });
    const refused = await read(without.url, `/api/posts${SITE_POPULATE}`);
    expect(refused.status).toBe(200);
    expect(fieldsOf(refused.body)).not.toHaveProperty('tags');
    expect(fieldsOf(refused.body)).toHaveProperty('localizations');
    expect(fieldsOf(refused.body)).toHaveProperty('cover');

    const granted = await postsStrapi(entry, { public: ['post.find', 'tag.find'] });
    expect(fieldsOf((await read(granted.url, `/api/posts${SITE_POPULATE}`)).body)).toHaveProperty('tags');
  },
);

test('a relation or a medium the request did not populate is not in the answer', async () => {
  const cms = await postsStrapi(V5_POST, LEAST_PRIVILEGE);
  expect(Object.keys(v5Fields((await read(cms.url, '/api/posts')).body))).toEqual(['id', 'documentId', 'title', 'slug']);
  expect(Object.keys(v5Fields((await read(cms.url, '/api/posts?populate=tags')).body))).toContain('tags');
  expect(Object.keys(v5Fields((await read(cms.url, '/api/posts?populate=*')).body))).toEqual(Object.keys(V5_POST));
});

test.each([
  ['v5', V5_POST, v5Fields],
  ['v4', V4_POST, v4Fields],
])('a populate’s fields keep only those fields of the related %s entries, and their ids', async (_shape, entry, fieldsOf) => {
  const cms = await postsStrapi(entry, LEAST_PRIVILEGE);
  const post = fieldsOf((await read(cms.url, `/api/posts${SITE_POPULATE}`)).body);
  expect(relatedEntries(post.tags)).toEqual([expect.objectContaining({ id: 3, name: 'Datos', slug: 'datos' })]);
  expect(relatedEntries(post.tags)[0]).not.toHaveProperty('createdAt');
  expect(relatedEntries(post.localizations)[0]).toMatchObject({ id: 9, slug: 'tt', locale: 'en' });
  expect(relatedEntries(post.localizations)[0]).not.toHaveProperty('title');
});

test('populating a field the content type does not have is Strapi 5’s 400 ValidationError naming it', async () => {
  const cms = await postsStrapi(V5_POST, LEAST_PRIVILEGE, { post: { cover: MEDIA, localizations: 'post' } });
  expect(await read(cms.url, `/api/posts${SITE_POPULATE}`)).toEqual({
    status: 400,
    body: {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key tags',
        details: { key: 'tags', path: 'tags', source: 'query', param: 'populate' },
      },
    },
  });
  expect((await read(cms.url, '/api/posts?populate[cover]=true')).status).toBe(200);
});

test.each([
  ['populate=*', ['cover', 'tags', 'localizations']],
  ['populate=cover,tags', ['cover', 'tags']],
  ['populate[0]=tags&populate[1]=cover', ['tags', 'cover']],
  ['populate[cover]=true&populate[tags][fields][0]=name', ['cover', 'tags']],
])('the populated fields of %s', (query, fields) => {
  expect([...populatedFields(new URLSearchParams(query), { cover: MEDIA, tags: 'tag', localizations: 'post' }).keys()]).toEqual(fields);
});

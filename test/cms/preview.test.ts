// Draft preview (server/preview/, server/cms/drafts.ts) of the whole site on a fake Strapi 5
// with Draft & Publish: the secret, the parameters, the cookie, the draft with its banner next
// to the published page, the way out, and what must never keep a draft (caches, the service
// worker, the CMS proxy).
import request from 'supertest';
import { expect, test } from 'vitest';
import { isStorableResponse } from '../../client/sw/strategy.ts';
import { loadConfig } from '../../server/base/config.ts';
import { LOCALE_CODES } from '../../shared/locales.ts';
import { createTestApp, ORIGIN, testConfig } from '../helpers/app.ts';
import { documentStore, type StoreOptions } from './fake-strapi-documents.ts';
import { captureLogger, startFakeStrapi, type StrapiAccess } from './fake-strapi.ts';

const PREVIEW_SECRET = 'preview-secret-that-is-long-enough-0123456789';
const PREVIEW_TOKEN = 'preview-api-token';
const READS = ['post.find', 'post.findOne', 'legal-page.find', 'legal-page.findOne'];
/** The Public role reads posts and legal pages; the preview token may read them too (and so their drafts). */
const ACCESS: StrapiAccess = { public: READS, tokens: { [PREVIEW_TOKEN]: READS } };
const PREVIEW_ENV = { CMS_PREVIEW_SECRET: PREVIEW_SECRET, CMS_PREVIEW_TOKEN: PREVIEW_TOKEN };

/** A Strapi 5 with a published post whose draft has unpublished edits, a post never published, and the privacy page. */
async function cmsWithDrafts(options: StoreOptions = { strapi: 5 }, access: StrapiAccess = ACCESS) {
  const store = documentStore(options);
  const post = {
    title: 'Publicado: auditoría',
    slug: 'auditoria',
    description: 'Resumen',
    content: 'Texto publicado',
    author: 'Ana',
    date: '2026-03-10',
  };
  const postId = store.create('posts', 'es', post, { published: true });
  store.edit(postId, 'es', { title: 'Borrador: auditoría revisada', content: 'Texto del borrador' });
  const enId = store.create('posts', 'en', { ...post, title: 'Published: audit', slug: 'audit' }, { published: true, documentId: postId });
  store.edit(enId, 'en', { title: 'Draft: audit revised' });
  const newId = store.create('posts', 'es', {
    title: 'Borrador nuevo',
    slug: 'nuevo',
    description: '',
    content: 'Nunca publicado',
    author: 'Ana',
  });
  const privacy = { page: 'privacy', title: 'Privacidad publicada', description: '', content: 'Publicada' };
  const privacyId = store.create('legal-pages', 'es', privacy, { published: true });
  store.edit(privacyId, 'es', { title: 'Privacidad en borrador' });
  const cms = await startFakeStrapi(store.handler, { access });
  return { cms, store, postId, newId };
}

async function siteOn(cmsUrl: string, env: Record<string, string> = PREVIEW_ENV) {
  return createTestApp({ CMS_URL: cmsUrl, ...env });
}

/** `name=value` of the Set-Cookie that sets `name` (not one that clears it). */
function cookieFrom(res: request.Response, name = 'cms.preview'): string {
  const header = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith(`${name}=`) && !c.startsWith(`${name}=;`));
  expect(header, `Set-Cookie ${name}`).toBeDefined();
  return header!.split(';')[0]!;
}

function previewUrl(params: Record<string, string>) {
  return `/preview?${new URLSearchParams({ secret: PREVIEW_SECRET, ...params })}`;
}

async function startPreview(
  app: Parameters<typeof request>[0],
  params: Record<string, string> = { type: 'post', slug: 'auditoria', locale: 'es' },
) {
  const res = await request(app).get(previewUrl(params));
  expect(res.status).toBe(307);
  return cookieFrom(res);
}

test('Strapi has no permission of its own for drafts: status=draft is answered to whoever may find (the Public role too), and refused (403) without find', async () => {
  const { cms } = await cmsWithDrafts({ strapi: 5 }, { public: READS, tokens: { [PREVIEW_TOKEN]: READS, 'no-find': ['legal-page.find'] } });
  const titles = async (query: string, token?: string) => {
    const res = await fetch(`${cms.url}/api/posts?locale=es&${query}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
    return res.ok ? ((await res.json()) as { data: { title: string }[] }).data.map((e) => e.title) : res.status;
  };
  expect(await titles('')).toEqual(['Publicado: auditoría']);
  expect(await titles('status=draft')).toEqual(['Borrador: auditoría revisada', 'Borrador nuevo']);
  expect(await titles('status=draft', PREVIEW_TOKEN)).toEqual(['Borrador: auditoría revisada', 'Borrador nuevo']);
  expect(await titles('status=draft', 'no-find')).toBe(403);
  // Strapi 5 does not know Strapi 4's parameter (recent versions refuse it).
  expect(await titles('publicationState=preview')).toBe(400);
});

test('with the embedded Markdown content (no CMS_URL), /preview is a 404', async () => {
  const { app } = await createTestApp(PREVIEW_ENV);
  const res = await request(app).get(previewUrl({ type: 'post', slug: 'web-accessibility-2026' }));
  expect(res.status).toBe(404);
  expect(res.text).toBe('Draft preview is not available on this site');
  expect(res.headers['set-cookie']).toBeUndefined();
  expect((await request(app).post('/preview/exit').set('Origin', ORIGIN)).status).toBe(404);
});

test('with a CMS but no CMS_PREVIEW_SECRET, /preview is a 404', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url, {});
  expect((await request(app).get(previewUrl({ type: 'post', slug: 'auditoria' }))).status).toBe(404);
});

test('CMS_PREVIEW_SECRET without CMS_PREVIEW_TOKEN stops the start with a message naming the token; a short secret is refused', () => {
  expect(() => loadConfig({ CMS_URL: 'https://cms.example.test', CMS_PREVIEW_SECRET: PREVIEW_SECRET })).toThrow(
    /CMS_PREVIEW_TOKEN is required/,
  );
  expect(() => testConfig({ CMS_PREVIEW_SECRET: 'short' })).toThrow(/CMS_PREVIEW_SECRET: must be at least 32 characters/);
});

test.each([
  ['missing', ''],
  ['empty', 'secret=&'],
  ['wrong', 'secret=preview-secret-that-is-long-enough-0123456788&'],
  ['a prefix of it', `secret=${PREVIEW_SECRET.slice(0, 20)}&`],
  ['longer', `secret=${PREVIEW_SECRET}x&`],
  ['given twice', `secret=${PREVIEW_SECRET}&secret=${PREVIEW_SECRET}&`],
])('a %s secret is a 401 with a clear message, and no preview starts', async (_case, secret) => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const res = await request(app).get(`/preview?${secret}type=post&slug=auditoria&locale=es`);
  expect(res.status).toBe(401);
  expect(res.text).toBe('Wrong or missing preview secret');
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(res.headers.location).toBeUndefined();
});

test.each([
  ['type=page&slug=auditoria', /"type" must be "post" or "legal"/],
  ['slug=auditoria', /"type" must be "post" or "legal"/],
  ['type=../admin&slug=auditoria', /"type"/],
  ['type=post&type=legal&slug=auditoria', /"type" must be given once, not repeated/],
  // zz is no language's code; the answer names every locale of the table.
  ['type=post&slug=auditoria&locale=zz', new RegExp(`"locale" must be ${LOCALE_CODES.map((code) => `"${code}"`).join(' or ')}`)],
  ['type=post&slug=auditoria&locale=es%0d%0aSet-Cookie:x=1', /"locale"/],
  ['type=post&slug=../../admin', /"slug" must be a post slug/],
  ['type=post&slug=%2F%2Fevil.example', /"slug" must be a post slug/],
  ['type=post&slug=https://evil.example/', /"slug" must be a post slug/],
  ['type=post&slug=%5Cevil.example', /"slug" must be a post slug/],
  ['type=post&slug=Auditoria', /"slug" must be a post slug/],
  ['type=post&slug=auditoria%3Fx%3D1', /"slug" must be a post slug/],
  ['type=post&slug=a&slug=b', /"slug" must be given once, not repeated/],
  ['type=legal&slug=terms', /"slug" of a legal page must be one of cookies, legal, privacy, responsible/],
  ['type=legal&slug=..%2Fadmin', /"slug" of a legal page/],
  ['type=post', /exactly one of the parameters "slug" and "documentId"/],
  ['type=post&slug=auditoria&documentId=abc', /exactly one of the parameters "slug" and "documentId"/],
  ['type=post&documentId=..%2F..%2Fadmin', /"documentId" must be letters and digits/],
  ['type=post&documentId=abc%00', /"documentId"/],
])('%s: 400 naming the bad parameter; no cookie, no redirect', async (query, message) => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const res = await request(app).get(`/preview?secret=${PREVIEW_SECRET}&${query}`);
  expect(res.status).toBe(400);
  expect(res.text).toMatch(message);
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(res.headers.location).toBeUndefined();
});

test('the right secret sets a sealed, short-lived, httpOnly, SameSite=Lax cookie and redirects to the page from the route table', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const cases: [Record<string, string>, string][] = [
    [{ type: 'post', slug: 'auditoria', locale: 'es' }, '/blog/auditoria'],
    [{ type: 'post', slug: 'audit', locale: 'en' }, '/en/blog/audit'],
    [{ type: 'post', slug: 'nuevo' }, '/blog/nuevo'],
    [{ type: 'legal', slug: 'privacy', locale: 'en' }, '/en/privacy'],
    [{ type: 'legal', slug: 'cookies', locale: 'es' }, '/cookies'],
  ];
  for (const [params, location] of cases) {
    const res = await request(app).get(previewUrl(params));
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe(location);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).join('\n');
    expect(header).toMatch(/^cms\.preview=[A-Za-z0-9._-]+; Max-Age=3600; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
    expect(header).not.toContain(PREVIEW_SECRET);
    expect(header).not.toContain(PREVIEW_SECRET.slice(0, 16));
  }
});

test('a Strapi 5 documentId is looked up among the drafts (with the preview token) and redirects to its slug in that locale', async () => {
  const { cms, postId, newId } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  expect((await request(app).get(previewUrl({ type: 'post', documentId: postId, locale: 'en' }))).headers.location).toBe('/en/blog/audit');
  expect((await request(app).get(previewUrl({ type: 'post', documentId: newId, locale: 'es' }))).headers.location).toBe('/blog/nuevo');
  const missing = await request(app).get(previewUrl({ type: 'post', documentId: 'nosuchdocument', locale: 'es' }));
  expect(missing.status).toBe(404);
  expect(missing.text).toBe('No post with that documentId in "es"');
  expect(missing.headers['set-cookie']).toBeUndefined();
  const lookups = cms.reads().filter((r) => r.query.get('filters[documentId][$eq]'));
  expect(lookups.length).toBeGreaterThan(0);
  expect(lookups.every((r) => r.headers.authorization === `Bearer ${PREVIEW_TOKEN}` && r.query.get('status') === 'draft')).toBe(true);
});

test('in preview the post shows its draft with the banner, private and no-store; the public page still shows the published version at the same time (render cache on)', async () => {
  const { cms } = await cmsWithDrafts();
  const { app, renderCache } = await siteOn(cms.url);
  expect(renderCache).toBeDefined();
  // The public page first, three times: cached by the CMS cache and by the render cache.
  for (let i = 0; i < 3; i++) {
    const res = await request(app).get('/blog/auditoria');
    expect(res.text).toContain('Publicado: auditoría');
    expect(res.headers['cache-control']).toBe('no-cache');
  }
  const cached = renderCache!.stats().entries;
  const cookie = await startPreview(app);
  for (let i = 0; i < 3; i++) {
    const draft = await request(app).get('/blog/auditoria').set('Cookie', cookie);
    expect(draft.status).toBe(200);
    expect(draft.text).toContain('Borrador: auditoría revisada');
    expect(draft.text).toContain('Texto del borrador');
    expect(draft.text).not.toContain('Publicado: auditoría');
    expect(draft.text).toMatch(
      /<div class="preview-banner" role="status"><p class="preview-banner-text">Vista previa: borrador sin publicar<\/p>/,
    );
    expect(draft.text).toContain(
      '<form class="preview-banner-exit" noValidate="" action="/preview/exit" method="post"><input type="hidden" name="path" value="/blog/auditoria"/>',
    );
    expect(draft.headers['cache-control']).toBe('private, no-store');
    expect(draft.headers['x-robots-tag']).toBe('noindex');
    // And the public page, in between: still the published version.
    const published = await request(app).get('/blog/auditoria');
    expect(published.text).toContain('Publicado: auditoría');
    expect(published.text).not.toContain('Borrador');
    expect(published.text).not.toContain('preview-banner');
  }
  // Preview renders never entered the render cache.
  expect(renderCache!.stats().entries).toBe(cached);
  // The drafts were read with the preview token; the public reads as before (anonymously).
  const posts = cms.reads().filter((r) => r.path === '/api/posts');
  expect(posts.filter((r) => r.query.get('status') === 'draft').every((r) => r.headers.authorization === `Bearer ${PREVIEW_TOKEN}`)).toBe(
    true,
  );
  expect(posts.filter((r) => r.query.get('status') === null).every((r) => r.headers.authorization === undefined)).toBe(true);
});

test('a draft read first never fills the public caches: the public page read after it is the published one', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const cookie = await startPreview(app);
  for (let i = 0; i < 3; i++)
    expect((await request(app).get('/blog/auditoria').set('Cookie', cookie)).text).toContain('Borrador: auditoría revisada');
  for (let i = 0; i < 3; i++) expect((await request(app).get('/blog/auditoria')).text).toContain('Publicado: auditoría');
  // Every preview view asked the CMS again (nothing of a draft is kept).
  const draftReads = cms.reads().filter((r) => r.query.get('status') === 'draft' && r.query.get('filters[slug][$eq]') === 'auditoria');
  expect(draftReads).toHaveLength(3);
});

test('a post never published: a 404 for visitors, its draft in preview; the blog list in preview lists drafts', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  expect((await request(app).get('/blog/nuevo')).status).toBe(404);
  const cookie = await startPreview(app, { type: 'post', slug: 'nuevo' });
  const draft = await request(app).get('/blog/nuevo').set('Cookie', cookie);
  expect(draft.status).toBe(200);
  expect(draft.text).toContain('Borrador nuevo');
  const list = await request(app).get('/blog').set('Cookie', cookie);
  expect(list.text).toContain('Borrador nuevo');
  expect(list.headers['cache-control']).toBe('private, no-store');
  expect((await request(app).get('/blog')).text).not.toContain('Borrador nuevo');
  expect((await request(app).get('/blog/nuevo')).status).toBe(404);
});

test('a legal page in preview shows its draft; in English the banner is English', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const cookie = await startPreview(app, { type: 'legal', slug: 'privacy', locale: 'es' });
  const draft = await request(app).get('/privacy').set('Cookie', cookie);
  expect(draft.text).toContain('Privacidad en borrador');
  expect((await request(app).get('/privacy')).text).toContain('Privacidad publicada');
  const english = await request(app).get('/en/blog/audit').set('Cookie', cookie);
  expect(english.text).toContain('Draft: audit revised');
  expect(english.text).toContain('Preview: unpublished draft');
  expect(english.text).toContain('Leave preview');
});

test('client navigations (/_data) in preview get the draft, marked as a preview; without the cookie the published page', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const cookie = await startPreview(app);
  const data = await request(app).get('/_data?path=/blog/auditoria').set('Cookie', cookie);
  expect(data.body.payload.preview).toBe(true);
  expect(data.body.payload.state.data.post.title).toBe('Borrador: auditoría revisada');
  expect(data.headers['cache-control']).toBe('private, no-store');
  const published = await request(app).get('/_data?path=/blog/auditoria');
  expect(published.body.payload.preview).toBeUndefined();
  expect(published.body.payload.state.data.post.title).toBe('Publicado: auditoría');
});

test('the CMS may frame preview responses only: frame-ancestors is its origin there and stays none everywhere else', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const frameAncestors = (res: request.Response) => /frame-ancestors ([^;]+)/.exec(String(res.headers['content-security-policy']))?.[1];
  const start = await request(app).get(previewUrl({ type: 'post', slug: 'auditoria' }));
  expect(frameAncestors(start)).toBe(cms.url);
  const cookie = cookieFrom(start);
  const draft = await request(app).get('/blog/auditoria').set('Cookie', cookie);
  expect(frameAncestors(draft)).toBe(cms.url);
  expect(draft.headers['x-frame-options']).toBeUndefined();
  expect(String(draft.headers['content-security-policy'])).toMatch(/script-src 'self' 'nonce-[^']+'/);
  for (const path of ['/blog/auditoria', '/', '/en/privacy', '/blog']) {
    const res = await request(app).get(path);
    expect(frameAncestors(res), path).toBe("'none'");
    expect(res.headers['x-frame-options'], path).toBe('SAMEORIGIN');
  }
  expect(frameAncestors(await request(app).get(previewUrl({ type: 'post', slug: 'auditoria', secret: 'wrong' })))).toBe(cms.url);
});

test('inside the CMS’s preview pane (Sec-Fetch-Dest: iframe) the cookie is SameSite=None, Secure and Partitioned', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const res = await request(app)
    .get(previewUrl({ type: 'post', slug: 'auditoria' }))
    .set('Sec-Fetch-Dest', 'iframe');
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).join('\n');
  expect(header).toMatch(/^cms\.preview=[^;]+; Max-Age=3600; Path=\/; Expires=[^;]+; HttpOnly; Secure; Partitioned; SameSite=None$/);
  expect((await request(app).get('/blog/auditoria').set('Cookie', cookieFrom(res))).text).toContain('Borrador: auditoría revisada');
});

test('the way out: POST /preview/exit (same origin) clears the cookie and goes back to the page, published', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const cookie = await startPreview(app);
  const exit = await request(app)
    .post('/preview/exit')
    .set('Origin', ORIGIN)
    .set('Cookie', cookie)
    .type('form')
    .send({ path: '/blog/auditoria' });
  expect(exit.status).toBe(303);
  expect(exit.headers.location).toBe('/blog/auditoria');
  expect(exit.headers['cache-control']).toBe('private, no-store');
  const cleared = ([] as string[]).concat(exit.headers['set-cookie'] ?? []);
  expect(cleared.filter((c) => /^cms\.preview=; Path=\/; Expires=Thu, 01 Jan 1970/.test(c))).toHaveLength(2);
  expect(cleared.some((c) => c.includes('Partitioned'))).toBe(true);
  const after = await request(app).get('/blog/auditoria');
  expect(after.text).toContain('Publicado: auditoría');
  expect(after.text).not.toContain('preview-banner');
});

test('the way out inside the CMS’s preview pane ends the preview there and offers the published page in a tab (a published page may not be framed)', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const exit = await request(app)
    .post('/preview/exit')
    .set('Origin', ORIGIN)
    .set('Sec-Fetch-Dest', 'iframe')
    .type('form')
    .send({ path: '/en/blog/audit' });
  expect(exit.status).toBe(200);
  expect(exit.text).toContain('<h1 id="preview-ended">Preview ended</h1>');
  expect(exit.text).toContain(
    '<a class="button button-primary" href="/en/blog/audit" target="_blank" rel="noopener">See the published page (in a new tab)</a>',
  );
  expect(String(exit.headers['content-security-policy'])).toContain(`frame-ancestors ${cms.url}`);
  expect(exit.headers['cache-control']).toBe('private, no-store');
  expect(([] as string[]).concat(exit.headers['set-cookie'] ?? []).filter((c) => c.startsWith('cms.preview=;'))).toHaveLength(2);
});

test('the way out is CSRF-checked like every form: without our Origin it is refused and the preview goes on', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const cookie = await startPreview(app);
  const forged = await request(app)
    .post('/preview/exit')
    .set('Origin', 'https://evil.example')
    .set('Cookie', cookie)
    .type('form')
    .send({ path: '/' });
  expect(forged.status).toBe(403);
  expect(forged.headers['set-cookie']).toBeUndefined();
});

test.each([
  '//evil.example/',
  'https://evil.example/',
  '/\\evil.example',
  '/%2F%2Fevil.example',
  'javascript:alert(1)',
  '/no-such-page',
  '',
])('the way out never goes anywhere but a page of the site: %j → /', async (path) => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const exit = await request(app).post('/preview/exit').set('Origin', ORIGIN).type('form').send({ path });
  expect(exit.status).toBe(303);
  expect(exit.headers.location).toBe('/');
});

test('a forged or foreign preview cookie shows the published page and is cleared', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const cookie = await startPreview(app);
  // The same cookie under another CMS_PREVIEW_SECRET (rotated): it no longer opens.
  const { app: rotated } = await siteOn(cms.url, { ...PREVIEW_ENV, CMS_PREVIEW_SECRET: `${PREVIEW_SECRET}-rotated` });
  for (const [target, value] of [
    [rotated, cookie],
    [app, 'cms.preview=forged'],
    [app, `${cookie.slice(0, -4)}AAAA`],
  ] as const) {
    const res = await request(target).get('/blog/auditoria').set('Cookie', value);
    expect(res.text).toContain('Publicado: auditoría');
    expect(res.text).not.toContain('preview-banner');
    expect(String(res.headers['set-cookie'])).toMatch(/cms\.preview=; Path=\//);
  }
});

test('the service worker never keeps a preview page: its answer is not storable', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const cookie = await startPreview(app);
  const draft = await request(app).get('/blog/auditoria').set('Cookie', cookie);
  const headers = { get: (name: string) => (draft.headers[name.toLowerCase()] as string | undefined) ?? null };
  expect(isStorableResponse({ status: draft.status, type: 'basic', headers })).toBe(false);
  const published = await request(app).get('/blog/auditoria');
  const publicHeaders = { get: (name: string) => (published.headers[name.toLowerCase()] as string | undefined) ?? null };
  expect(isStorableResponse({ status: published.status, type: 'basic', headers: publicHeaders })).toBe(true);
});

test.each([
  'status=draft',
  'status=anything',
  'publicationState=preview',
  'Status=draft',
  'st%61tus=draft',
  'status%5B0%5D=draft',
  'publicationFilter=modified',
])('the /cms proxy never hands drafts to a visitor: /cms/api/posts?%s is refused (400) without asking the CMS', async (query) => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const res = await request(app).get(`/cms/api/posts?locale=es&${query}`);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('drafts_not_public');
  // Not one read of drafts (the site search's reads of published posts are the only ones).
  const asked = (r: { query: URLSearchParams }) => [...r.query.keys()].some((key) => /status|publication/i.test(decodeURIComponent(key)));
  expect(cms.reads().filter((r) => r.path === '/api/posts' && asked(r))).toHaveLength(0);
});

test('the /cms proxy still answers published posts', async () => {
  const { cms } = await cmsWithDrafts();
  const { app } = await siteOn(cms.url);
  const res = await request(app).get('/cms/api/posts?locale=es');
  expect(res.status).toBe(200);
  expect((res.body as { data: { title: string }[] }).data.map((e) => e.title)).toEqual(['Publicado: auditoría']);
});

test('a preview token that may not read posts: the preview page is a 503 (never the published page), and the warning names CMS_PREVIEW_TOKEN', async () => {
  const { cms } = await cmsWithDrafts({ strapi: 5 }, { public: READS, tokens: { [PREVIEW_TOKEN]: ['legal-page.find'] } });
  const { logger, warnings } = captureLogger();
  const { app } = await createTestApp({ CMS_URL: cms.url, ...PREVIEW_ENV }, { logger });
  const cookie = await startPreview(app);
  const res = await request(app).get('/blog/auditoria').set('Cookie', cookie);
  expect(res.status).toBe(503);
  expect(res.text).not.toContain('Publicado: auditoría');
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(warnings().map((w) => w.msg)).toContainEqual(
    expect.stringMatching(/answered 403 \(the API token \(CMS_PREVIEW_TOKEN\) may not read it/),
  );
});

// The whole site against a (fake) Strapi: CMS_URL set, v4 answers, and Strapi's permission
// rules (fake-strapi.ts): a least-privilege service account, or a read-only API token. The
// recorded posts: two in Spanish, one of them translated into English with its own slug.
import request from 'supertest';
import { expect, test } from 'vitest';
import { createUser } from '../../server/users/users.ts';
import { LEGAL_PAGES } from '../../shared/routes.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { loadBrand } from '../../server/brand/brand.ts';
import { companyOf } from '../../server/brand/company.ts';
import {
  captureLogger,
  fixture,
  LEAST_PRIVILEGE,
  paginate,
  READ_ONLY_TOKEN,
  SERVICE_ACCOUNT,
  sendJson,
  startFakeStrapi,
  TOKEN_ONLY,
  type FakeStrapi,
  type StrapiAccess,
} from './fake-strapi.ts';

const PASSWORD = 'correct horse battery';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16, 3)]);
const SERVICE_ENV = { CMS_IDENTIFIER: SERVICE_ACCOUNT.identifier, CMS_PASSWORD: SERVICE_ACCOUNT.password };

type V4Entry = { id: number; attributes: Record<string, unknown> };

async function siteWith(cms: FakeStrapi, env: Record<string, string> = SERVICE_ENV) {
  const { app, db } = await createTestApp({ CMS_URL: cms.url, ...env });
  await createUser(db, { userName: 'Acme', password: PASSWORD, role: 'CLI', name: 'Acme', lastName: 'Corp' });
  const login = await request(app).post('/en/login').set('Origin', ORIGIN).type('form').send({ identifier: 'acme', password: PASSWORD });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  return { app, cookie };
}

/** The four legal pages in Spanish, made from the privacy page of the fixture. */
function legalPages(): V4Entry[] {
  const [privacy] = (fixture('v4-legal-pages') as { data: V4Entry[] }).data;
  return LEGAL_PAGES.map((page, i) => ({ id: 100 + i, attributes: { ...privacy!.attributes, page, title: `Página ${page}` } }));
}

type StrapiV4Options = { slowBranding?: number; access?: StrapiAccess; posts?: V4Entry[]; legal?: V4Entry[] };

/** The recorded posts: two in Spanish, the translation of one in English. */
function recordedPosts(): V4Entry[] {
  return [...(fixture('v4-posts') as { data: V4Entry[] }).data, ...(fixture('v4-posts-en') as { data: V4Entry[] }).data];
}

/** Strapi 4 with posts (the recorded ones unless given), legal pages and acme's branding, paged as Strapi pages. */
function strapiV4({ slowBranding = 0, access = LEAST_PRIVILEGE, posts, legal }: StrapiV4Options = {}) {
  return startFakeStrapi(
    async (req, res) => {
      if (req.path === '/api/acme-customs') {
        if (slowBranding) await new Promise((r) => setTimeout(r, slowBranding));
        return sendJson(res, 200, fixture('v4-customs'));
      }
      const entries =
        req.path === '/api/posts' ? (posts ?? recordedPosts()) : req.path === '/api/legal-pages' ? (legal ?? legalPages()) : null;
      if (entries) {
        const filters = [...req.query].filter(([key]) => key.startsWith('filters['));
        const data = entries.filter(
          (entry) =>
            (req.query.get('locale') ?? 'es') === entry.attributes.locale &&
            filters.every(([key, value]) => entry.attributes[/^filters\[(\w+)\]/.exec(key)![1]!] === value),
        );
        return sendJson(res, 200, paginate(data, req.query));
      }
      if (req.path.startsWith('/uploads/')) {
        res.writeHead(200, { 'Content-Type': 'image/png', 'Set-Cookie': 'cms=1' });
        return res.end(PNG);
      }
      return sendJson(res, 404, { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
    },
    { access },
  );
}

test('with CMS_URL the client area is branded from {userName}-customs, fetched with the service account', async () => {
  const cms = await strapiV4();
  const { app, cookie } = await siteWith(cms);
  const res = await request(app).get('/en/client').set('Cookie', cookie);
  expect(res.status).toBe(200);
  expect(res.text).toContain('--navbar-bg:#1A2B3C');
  expect(res.text).toContain('<img src="/cms/uploads/acme_logo_5f1e2d.png"');
  const login = cms.logins()[0]!;
  expect(JSON.parse(login.body)).toEqual({ identifier: 'svc@example.com', password: 'svc-password' });
  expect(login.headers.authorization).toBeUndefined();
  const read = cms.reads().find((r) => r.path === '/api/acme-customs')!;
  expect(read.query.get('populate')).toBe('*');
  expect(read.headers.authorization).toBe(`Bearer ${cms.issuedJwts()[0]}`);
});

test('a least-privilege Strapi (Public: posts, tags and legal pages; service account: *-customs) serves the blog, a post, the legal pages and the branding', async () => {
  const cms = await strapiV4();
  const { app, cookie } = await siteWith(cms);
  const blog = await request(app).get('/blog');
  expect(blog.status).toBe(200);
  expect(blog.text).toContain('Cómo preparar una auditoría de datos');
  const post = await request(app).get('/blog/auditoria-de-datos');
  expect(post.status).toBe(200);
  expect(post.text).toContain('Antes de empezar');
  const translation = await request(app).get('/en/blog/data-audit');
  expect(translation.status).toBe(200);
  expect(translation.text).toContain('Before you start');
  for (const page of LEGAL_PAGES) {
    const legal = await request(app).get(`/${page}`);
    expect(legal.status, page).toBe(200);
    expect(legal.text).toContain(`Página ${page}`);
  }
  const area = await request(app).get('/client').set('Cookie', cookie);
  expect(area.text).toContain('--navbar-bg:#1A2B3C');
  // Public content anonymously; the service account's jwt only for the branding.
  const reads = cms.reads().filter((r) => r.path.startsWith('/api/'));
  expect(reads.filter((r) => r.headers.authorization !== undefined).map((r) => r.path)).toEqual(['/api/acme-customs']);
  expect(reads.filter((r) => r.path === '/api/legal-pages')).toHaveLength(4);
});

test('with CMS_TOKEN (a read-only token, nothing public) every read goes with the token and nobody signs in', async () => {
  const cms = await strapiV4({ access: { ...TOKEN_ONLY, users: LEAST_PRIVILEGE.users } });
  const { app, cookie } = await siteWith(cms, { CMS_TOKEN: READ_ONLY_TOKEN, ...SERVICE_ENV });
  expect((await request(app).get('/blog')).status).toBe(200);
  expect((await request(app).get('/en/blog/data-audit')).status).toBe(200);
  expect((await request(app).get('/blog/tag/auditoria')).status).toBe(200);
  expect((await request(app).get('/en/privacy')).status).toBe(200);
  expect((await request(app).get('/client').set('Cookie', cookie)).text).toContain('--navbar-bg:#1A2B3C');
  expect(cms.logins()).toHaveLength(0);
  const reads = cms.reads();
  // The pages' reads, and the site search's (the posts, case studies and practices it indexes).
  expect(new Set(reads.map((r) => r.path))).toEqual(
    new Set(['/api/posts', '/api/authors', '/api/legal-pages', '/api/acme-customs', '/api/case-studies', '/api/practices']),
  );
  expect(reads.every((r) => r.headers.authorization === `Bearer ${READ_ONLY_TOKEN}`)).toBe(true);
});

test('a CMS that answers after 5 s: the area page answers without waiting for it, with the default branding', async () => {
  const cms = await strapiV4({ slowBranding: 5000 });
  const { app, cookie } = await siteWith(cms);
  const res = await request(app).get('/client').set('Cookie', cookie);
  expect(res.status).toBe(200);
  // Had it waited for the CMS, acme's colour would be in the page.
  expect(res.text).not.toContain('--navbar-bg:#1A2B3C');
  expect(res.text).not.toContain('__BRANDING__');
  expect(res.text).toContain(`<img src="${loadBrand().page.logos.light}"`);
});

test('blog and legal pages come from the CMS, sanitised, in the visitor’s locale', async () => {
  const cms = await strapiV4();
  const { app } = await siteWith(cms);
  const blog = await request(app).get('/blog');
  expect(blog.status).toBe(200);
  const posts = fixture('v4-posts') as { data: { attributes: { title: string } }[] };
  expect(blog.text).toContain(posts.data[0]!.attributes.title);
  const legal = await request(app).get('/en/privacy');
  expect(legal.status).toBe(200);
  expect(legal.text).not.toContain('<script>alert');
  expect(cms.reads().some((r) => r.path === '/api/posts' && r.query.get('locale') === 'es')).toBe(true);
});

test('placeholders work in Strapi too: a legal page’s {{siteName}} and {{company.…}} say what SITE_NAME and brand.json say (docs/decisions/035)', async () => {
  const legal = legalPages().map((entry) => ({
    ...entry,
    attributes: {
      ...entry.attributes,
      title: 'Aviso legal de {{siteName}}',
      content: 'Titular: **{{company.legalName}}**, CIF {{company.taxId}}, en {{company.address}}.',
    },
  }));
  const cms = await strapiV4({ legal });
  const { app } = await createTestApp({ CMS_URL: cms.url, ...SERVICE_ENV, SITE_NAME: 'Acme' });
  const res = await request(app).get('/legal');
  expect(res.status).toBe(200);
  expect(res.text).toContain('Aviso legal de Acme');
  expect(res.text).toContain(
    `Titular: <strong>Acme S.L.</strong>, CIF ${loadBrand().legal.taxId}, en ${companyOf(loadBrand(), 'Acme').registeredOffice.es}.`,
  );
});

test('with 250 posts in Strapi (at most 100 a page), posts 101 to 250 are in the blog list and in /sitemap.xml', async () => {
  const posts = Array.from({ length: 250 }, (_, i) => ({
    id: i + 1,
    attributes: {
      title: `Entrada número ${i + 1}`,
      slug: `entrada-${i + 1}`,
      content: 'Texto',
      date: new Date(Date.UTC(2026, 0, 1) - i * 86_400_000).toISOString().slice(0, 10),
      locale: 'es',
    },
  }));
  const cms = await strapiV4({ posts });
  const { app } = await siteWith(cms);
  // Ten a page: post n is on page ⌈n/10⌉.
  for (const n of [1, 100, 101, 250]) {
    const blog = await request(app).get(`/blog?page=${Math.ceil(n / 10)}`);
    expect(blog.status).toBe(200);
    expect(blog.text).toContain(`Entrada número ${n}<`);
  }
  expect((await request(app).get('/blog?page=26')).status).toBe(404);
  // These posts have no author: their date stands alone, with no “·” after it.
  expect((await request(app).get('/blog')).text).toContain(
    '<p class="post-meta"><time dateTime="2026-01-01">1 de enero de 2026</time></p>',
  );
  const sitemap = await request(app).get('/sitemap.xml');
  for (const n of [1, 101, 250]) expect(sitemap.text).toContain(`/blog/entrada-${n}</loc>`);
  // The list's three pages, read once (the site search reads each post besides: filters[slug]).
  const lists = cms.reads().filter((r) => r.path === '/api/posts' && r.query.get('locale') === 'es' && !r.query.has('filters[slug][$eq]'));
  expect(lists).toHaveLength(3);
});

test.each([
  ['without tag.find', false],
  ['with tag.find (as docs/editors.md tells)', true],
])('the Public role %s: the blog and its posts work, and their tags show only with it', async (_case, granted) => {
  const publicRole = LEAST_PRIVILEGE.public.filter((permission) => granted || permission !== 'tag.find');
  const cms = await strapiV4({ access: { ...LEAST_PRIVILEGE, public: publicRole } });
  const { app } = await siteWith(cms);
  const tagLink = 'href="/blog/tag/proteccion-de-datos"';
  const blog = await request(app).get('/blog');
  expect(blog.status).toBe(200);
  expect(blog.text).toContain('Cómo preparar una auditoría de datos');
  expect(blog.text.includes(tagLink)).toBe(granted);
  const post = await request(app).get('/blog/auditoria-de-datos');
  expect(post.status).toBe(200);
  expect(post.text.includes(tagLink)).toBe(granted);
  expect((await request(app).get('/blog/tag/proteccion-de-datos')).status).toBe(granted ? 200 : 404);
  expect((await request(app).get('/en/blog/tag/data-protection')).status).toBe(granted ? 200 : 404);
});

test('a post read from Strapi links its translation: switcher and hreflang to the English slug; the Spanish slug under /en is a 301 to it', async () => {
  const cms = await strapiV4();
  const { app } = await siteWith(cms);
  const post = await request(app).get('/blog/auditoria-de-datos');
  expect(post.text).toMatch(/class="locale-switcher"[^]*?href="\/en\/blog\/data-audit"/);
  expect(post.text).toContain(`<link rel="alternate" hreflang="en" href="${ORIGIN}/en/blog/data-audit">`);
  const moved = await request(app).get('/en/blog/auditoria-de-datos');
  expect([moved.status, moved.headers.location]).toEqual([301, '/en/blog/data-audit']);
  const spanishOnly = await request(app).get('/en/blog/bienvenida');
  expect([spanishOnly.status, spanishOnly.headers.location]).toEqual([302, '/blog/bienvenida']);
});

test('a cover from Strapi is shown with its renditions as srcset, its real width and height and its alternative text', async () => {
  const cms = await strapiV4();
  const { app } = await siteWith(cms);
  const post = await request(app).get('/blog/auditoria-de-datos');
  const img = /<img class="post-cover"[^>]*>/.exec(post.text)?.[0] ?? '';
  expect(img).toContain('src="/cms/uploads/auditoria_a1b2c3.jpg"');
  expect(img).toContain(
    'srcSet="/cms/uploads/thumbnail_auditoria_a1b2c3.jpg 245w, /cms/uploads/small_auditoria_a1b2c3.jpg 500w, ' +
      '/cms/uploads/medium_auditoria_a1b2c3.jpg 750w, /cms/uploads/large_auditoria_a1b2c3.jpg 1000w, /cms/uploads/auditoria_a1b2c3.jpg 1600w"',
  );
  expect(img).toMatch(/sizes="[^"]+"/);
  expect(img).toContain('width="1600"');
  expect(img).toContain('height="900"');
  expect(img).toContain('alt="Una mesa con informes"');
});

test('a Strapi whose Public role may not read posts: the blog is a 503 and the warning names the Public role', async () => {
  const cms = await strapiV4({ access: { ...LEAST_PRIVILEGE, public: ['legal-page.find'] } });
  const { logger, warnings } = captureLogger();
  const { app } = await createTestApp({ CMS_URL: cms.url, ...SERVICE_ENV }, { logger });
  expect((await request(app).get('/blog')).status).toBe(503);
  expect(warnings().map((w) => w.msg)).toContainEqual(
    expect.stringMatching(/GET \/api\/posts: answered 403 \(the Public role may not read it/),
  );
});

test('/cms/* proxies media without the visitor’s cookies and without the CMS’s', async () => {
  const cms = await strapiV4();
  const { app, cookie } = await siteWith(cms);
  const res = await request(app).get('/cms/uploads/acme_logo_5f1e2d.png').set('Cookie', cookie).set('Authorization', 'Bearer x');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('image/png');
  expect(res.headers['set-cookie']).toBeUndefined();
  const seen = cms.received.find((r) => r.path === '/uploads/acme_logo_5f1e2d.png')!;
  expect(seen.headers.cookie).toBeUndefined();
  expect(seen.headers.authorization).toBeUndefined();
  expect((await request(app).post('/cms/uploads/x.png').set('Origin', ORIGIN)).status).toBe(405);
});

test('with CMS_TOKEN, /cms/* reads go to the CMS with the token, never with the visitor’s session or Authorization', async () => {
  const cms = await strapiV4({ access: { ...TOKEN_ONLY, users: LEAST_PRIVILEGE.users } });
  const { app, cookie } = await siteWith(cms, { CMS_TOKEN: READ_ONLY_TOKEN, ...SERVICE_ENV });
  const media = await request(app).get('/cms/uploads/acme_logo_5f1e2d.png').set('Cookie', cookie).set('Authorization', 'Bearer x');
  expect(media.status).toBe(200);
  const posts = await request(app).get('/cms/api/posts?locale=en').set('Cookie', cookie);
  expect(posts.status).toBe(200);
  const proxied = cms.received.filter((r) => r.path === '/uploads/acme_logo_5f1e2d.png' || r.url === '/api/posts?locale=en');
  expect(proxied).toHaveLength(2);
  for (const seen of proxied) {
    expect(seen.headers.authorization).toBe(`Bearer ${READ_ONLY_TOKEN}`);
    expect(seen.headers.cookie).toBeUndefined();
  }
});

test('with a CMS, the admin branding editor says branding lives in the CMS', async () => {
  const cms = await strapiV4({ access: TOKEN_ONLY });
  const { app, db } = await createTestApp({ CMS_URL: cms.url, CMS_TOKEN: READ_ONLY_TOKEN });
  await createUser(db, { userName: 'root', password: PASSWORD, role: 'ADMIN', name: 'R', lastName: 'A' });
  await createUser(db, { userName: 'acme', password: PASSWORD, role: 'CLI', name: 'A', lastName: 'C' });
  const token = (await request(app).post('/api/login').send({ identifier: 'root', password: PASSWORD })).body.token as string;
  const res = await request(app).put('/api/admin/branding/acme').set('Authorization', `Bearer ${token}`).send({ color: '#000000' });
  expect(res.status).toBe(409);
  expect(res.body.error.code).toBe('branding_in_cms');
});

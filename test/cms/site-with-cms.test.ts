// The whole site against a (fake) Strapi: CMS_URL set, a service account, v4 answers.
import request from 'supertest';
import { expect, test } from 'vitest';
import { createUser } from '../../server/api/users.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { fixture, sendJson, startFakeStrapi, type FakeStrapi } from './fake-strapi.ts';

const PASSWORD = 'correct horse battery';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16, 3)]);

async function siteWith(cms: FakeStrapi) {
  const { app, db } = await createTestApp({ CMS_URL: cms.url, CMS_IDENTIFIER: 'svc@example.com', CMS_PASSWORD: 'svc-password' });
  await createUser(db, { userName: 'Acme', password: PASSWORD, role: 'CLI', name: 'Acme', lastName: 'Corp' });
  const login = await request(app).post('/en/login').set('Origin', ORIGIN).type('form').send({ identifier: 'acme', password: PASSWORD });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  return { app, cookie };
}

function strapiV4(slowBranding = 0) {
  return startFakeStrapi(async (req, res) => {
    if (req.path === '/api/auth/local') return sendJson(res, 200, { jwt: 'service-jwt', user: { id: 1 } });
    if (req.path === '/api/acme-customs') {
      if (slowBranding) await new Promise((r) => setTimeout(r, slowBranding));
      return sendJson(res, 200, fixture('v4-customs'));
    }
    if (req.path === '/api/posts') return sendJson(res, 200, fixture('v4-posts'));
    if (req.path === '/api/legal-pages') return sendJson(res, 200, fixture('v4-legal-pages'));
    if (req.path.startsWith('/uploads/')) {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Set-Cookie': 'cms=1' });
      return res.end(PNG);
    }
    return sendJson(res, 404, { data: null, error: { status: 404 } });
  });
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
  expect(read.headers.authorization).toBe('Bearer service-jwt');
});

test('a CMS that answers after 5 s: the area page answers within 2 s with the default branding', async () => {
  const cms = await strapiV4(5000);
  const { app, cookie } = await siteWith(cms);
  const started = Date.now();
  const res = await request(app).get('/client').set('Cookie', cookie);
  expect(res.status).toBe(200);
  expect(Date.now() - started).toBeLessThan(2000);
  expect(res.text).not.toContain('__BRANDING__');
  expect(res.text).toContain('<img src="/logo.svg"');
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

test('with a CMS, the admin branding editor says branding lives in the CMS', async () => {
  const cms = await strapiV4();
  const { app, db } = await createTestApp({ CMS_URL: cms.url, CMS_TOKEN: 'api-token' });
  await createUser(db, { userName: 'root', password: PASSWORD, role: 'ADMIN', name: 'R', lastName: 'A' });
  await createUser(db, { userName: 'acme', password: PASSWORD, role: 'CLI', name: 'A', lastName: 'C' });
  const token = (await request(app).post('/api/login').send({ identifier: 'root', password: PASSWORD })).body.token as string;
  const res = await request(app).put('/api/admin/branding/acme').set('Authorization', `Bearer ${token}`).send({ color: '#000000' });
  expect(res.status).toBe(409);
  expect(res.body.error.code).toBe('branding_in_cms');
});

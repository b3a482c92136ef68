import express from 'express';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { get, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { expect, onTestFinished, test } from 'vitest';
import { createCmsProxy, type CmsProxyOptions } from '../../server/cms/proxy.ts';
import { captureLogger, sendJson, startFakeStrapi, unusedUrl, type FakeHandler, type Received } from './fake-strapi.ts';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(64 * 1024)]);

async function proxyTo(handler: FakeHandler, options: Partial<CmsProxyOptions> = {}) {
  const cms = await startFakeStrapi(handler);
  const app = express();
  app.use('/cms', createCmsProxy({ url: cms.url, logger: captureLogger().logger, ...options }));
  return { cms, app };
}

function servePng(_req: Received, res: ServerResponse) {
  res.writeHead(200, {
    'Content-Type': 'image/png',
    'Content-Length': PNG.length,
    ETag: '"png-1"',
    'Last-Modified': 'Wed, 01 Oct 2025 11:58:00 GMT',
    'Cache-Control': 'public, max-age=31536000',
    'Set-Cookie': 'strapi_session=secret; Path=/',
    'X-Powered-By': 'Strapi <strapi.io>',
  });
  // Written in chunks, as a large file is.
  for (let i = 0; i < PNG.length; i += 16 * 1024) res.write(PNG.subarray(i, i + 16 * 1024));
  res.end();
}

test('GET /cms/uploads/... streams the file with its type, length and caching headers', async () => {
  const { cms, app } = await proxyTo(servePng);
  const res = await request(app).get('/cms/uploads/acme_logo_5f1e2d.png');
  expect(res.status).toBe(200);
  expect(Buffer.compare(res.body as Buffer, PNG)).toBe(0);
  expect(res.headers).toMatchObject({
    'content-type': 'image/png',
    'content-length': String(PNG.length),
    etag: '"png-1"',
    'last-modified': 'Wed, 01 Oct 2025 11:58:00 GMT',
    'cache-control': 'public, max-age=31536000',
    'x-content-type-options': 'nosniff',
  });
  expect(res.headers['content-disposition']).toBeUndefined();
  expect(cms.received[0]?.path).toBe('/uploads/acme_logo_5f1e2d.png');
});

test('the body is streamed: the visitor gets the first bytes before the CMS has sent the last', async () => {
  let firstBytesArrived = () => {};
  const firstBytesSeen = new Promise<void>((resolve) => (firstBytesArrived = resolve));
  const { app } = await proxyTo(
    async (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.write('first ');
      // A proxy that buffered the whole body would never let the visitor see "first".
      await firstBytesSeen;
      res.end('last');
    },
    { timeoutMs: 1000 },
  );
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  const body = await new Promise<string>((resolve, reject) => {
    get(`http://127.0.0.1:${port}/cms/uploads/big.bin`, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.startsWith('first')) firstBytesArrived();
      });
      res.on('end', () => resolve(text));
      res.on('error', reject);
    }).on('error', reject);
  });
  expect(body).toBe('first last');
});

test('the CMS never sets a cookie through the proxy, and its other headers stay behind', async () => {
  const { app } = await proxyTo(servePng);
  const res = await request(app).get('/cms/uploads/logo.png');
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(res.headers['x-powered-by']).not.toMatch(/strapi/i);
});

test("the visitor's cookies and Authorization are not forwarded; only the allowlisted request headers are", async () => {
  const { cms, app } = await proxyTo(servePng);
  await request(app)
    .get('/cms/uploads/logo.png?download=1')
    .set('Cookie', 'auth._token.local=sealed-session')
    .set('Authorization', 'Bearer visitor-token')
    .set('X-Forwarded-For', '203.0.113.9')
    .set('Accept', 'image/avif,image/webp,*/*')
    .set('If-None-Match', '"png-0"')
    .set('Range', 'bytes=0-99');
  const [received] = cms.received;
  expect(received?.headers.cookie).toBeUndefined();
  expect(received?.headers.authorization).toBeUndefined();
  expect(received?.headers['x-forwarded-for']).toBeUndefined();
  expect(received?.headers).toMatchObject({ accept: 'image/avif,image/webp,*/*', 'if-none-match': '"png-0"', range: 'bytes=0-99' });
  // Media ignore queries: none is passed on.
  expect(received?.url).toBe('/uploads/logo.png');
});

test('an uploaded file that is not a raster image is served as an attachment under a CSP of none', async () => {
  for (const type of ['text/html; charset=utf-8', 'image/svg+xml', 'application/pdf']) {
    const { app } = await proxyTo((_req, res) => res.writeHead(200, { 'Content-Type': type }).end('<svg onload="alert(1)"/>'));
    const res = await request(app).get('/cms/uploads/file');
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['content-disposition']).toBe('attachment');
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  }
});

test('public API reads keep their query and come back as JSON', async () => {
  const { cms, app } = await proxyTo((_req, res) => sendJson(res, 200, { data: [] }));
  const res = await request(app).get('/cms/api/posts?locale=en&filters%5Bslug%5D%5B%24eq%5D=x');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ data: [] });
  expect(cms.received[0]?.url).toBe('/api/posts?locale=en&filters%5Bslug%5D%5B%24eq%5D=x');
});

test('HEAD answers the headers without a body; a conditional GET passes the 304 through', async () => {
  const { cms, app } = await proxyTo((req, res) => {
    if (req.headers['if-none-match'] === '"png-1"') return res.writeHead(304, { ETag: '"png-1"' }).end();
    servePng(req, res);
  });
  const head = await request(app).head('/cms/uploads/logo.png');
  expect(head.status).toBe(200);
  expect(head.headers['content-length']).toBe(String(PNG.length));
  expect(cms.received[0]?.method).toBe('HEAD');
  const notModified = await request(app).get('/cms/uploads/logo.png').set('If-None-Match', '"png-1"');
  expect(notModified.status).toBe(304);
  expect(notModified.headers.etag).toBe('"png-1"');
});

test.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)(
  '%s is refused with 405 and Allow: GET, HEAD, without asking the CMS',
  async (method) => {
    const { cms, app } = await proxyTo(servePng);
    const res = await request(app)[method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete']('/cms/api/posts').send({ title: 'x' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body).toEqual({ error: { code: 'method_not_allowed', message: `${method} is not allowed here` } });
    expect(cms.received).toHaveLength(0);
  },
);

test.each([
  '/cms/admin',
  '/cms/admin/init',
  '/cms/uploads',
  '/cms/uploads/',
  '/cms/uploads/../admin',
  '/cms/uploads/%2e%2e/admin',
  '/cms/uploads/..%2fadmin',
  '/cms/uploads//etc/passwd',
  '/cms/uploads/x%00.png',
  '/cms/api/users',
  '/cms/api/users/me',
  '/cms/api/auth/local',
  '/cms/api/connect/google',
  '/cms/api/upload/files',
  '/cms/i18n/locales',
])('%s is not a public read: 404 without asking the CMS', async (path) => {
  const { cms, app } = await proxyTo(servePng);
  const res = await request(app).get(path);
  expect(res.status).toBe(404);
  expect(cms.received).toHaveLength(0);
});

test.each([
  [404, 404, 'not_found'],
  [403, 404, 'not_found'],
  [401, 404, 'not_found'],
  [400, 400, 'bad_request'],
  [405, 502, 'cms_unavailable'],
  [302, 502, 'cms_unavailable'],
  [500, 502, 'cms_unavailable'],
  [503, 502, 'cms_unavailable'],
])('an upstream %i is answered %i (%s) as JSON', async (upstream, status, code) => {
  const { app } = await proxyTo((_req, res) =>
    res.writeHead(upstream, { Location: 'https://evil.example/', 'Set-Cookie': 'x=1' }).end('upstream body'),
  );
  const res = await request(app).get('/cms/api/posts');
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ error: { code } });
  expect(res.headers.location).toBeUndefined();
  expect(res.headers['set-cookie']).toBeUndefined();
});

test('a CMS that cannot be reached is a 502', async () => {
  const app = express();
  app.use('/cms', createCmsProxy({ url: await unusedUrl(), logger: captureLogger().logger }));
  const res = await request(app).get('/cms/uploads/logo.png');
  expect(res.status).toBe(502);
  expect(res.body).toMatchObject({ error: { code: 'cms_unavailable' } });
});

test('a CMS that does not answer within the timeout is a 504', async () => {
  const { cms, app } = await proxyTo(
    async (req, res) => {
      await cms.delay(2000);
      servePng(req, res);
    },
    { timeoutMs: 200 },
  );
  const started = performance.now();
  const res = await request(app).get('/cms/uploads/logo.png');
  expect(res.status).toBe(504);
  expect(res.body).toEqual({ error: { code: 'cms_timeout', message: 'The content service did not answer in time' } });
  expect(performance.now() - started).toBeLessThan(1000);
});

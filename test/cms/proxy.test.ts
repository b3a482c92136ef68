import compression from 'compression';
import express from 'express';
import type * as HttpProxyMiddleware from 'http-proxy-middleware';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { get, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { expect, onTestFinished, test, vi } from 'vitest';
import { createCmsProxy, type CmsProxyOptions } from '../../server/cms/proxy.ts';
import { captureLogger, sendJson, startFakeStrapi, unusedUrl, type FakeHandler, type Received } from './fake-strapi.ts';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(64 * 1024)]);

async function proxyTo(handler: FakeHandler, options: Partial<CmsProxyOptions> = {}) {
  const cms = await startFakeStrapi(handler);
  const app = express();
  app.use('/cms', await createCmsProxy({ url: cms.url, logger: captureLogger().logger, ...options }));
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
  app.use('/cms', await createCmsProxy({ url: await unusedUrl(), logger: captureLogger().logger }));
  const res = await request(app).get('/cms/uploads/logo.png');
  expect(res.status).toBe(502);
  expect(res.body).toMatchObject({ error: { code: 'cms_unavailable' } });
});

test('a CMS that does not answer within the timeout is a 504', async () => {
  // It never answers: only the proxy's timeout can end the request.
  const { app } = await proxyTo(() => undefined, { timeoutMs: 200 });
  const res = await request(app).get('/cms/uploads/logo.png');
  expect(res.status).toBe(504);
  expect(res.body).toEqual({ error: { code: 'cms_timeout', message: 'The content service did not answer in time' } });
});

/** The app listening on a port of 127.0.0.1, closed when the test ends. */
async function listening(app: express.Express): Promise<number> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

test('with CMS_TOKEN every request reaches the CMS with Authorization: Bearer and the token; without it, with no Authorization', async () => {
  const { cms, app } = await proxyTo(
    (req, res) => (req.path.startsWith('/uploads/') ? servePng(req, res) : sendJson(res, 200, { data: [] })),
    {
      token: 'site-read-token',
    },
  );
  await request(app).get('/cms/uploads/logo.png');
  await request(app).get('/cms/api/posts?locale=en');
  expect(cms.received.map((r) => r.headers.authorization)).toEqual(['Bearer site-read-token', 'Bearer site-read-token']);

  const anonymous = await proxyTo(servePng);
  await request(anonymous.app).get('/cms/uploads/logo.png');
  expect(anonymous.cms.received[0]?.headers.authorization).toBeUndefined();
});

test("the visitor's Authorization and cookies never reach the CMS: with CMS_TOKEN the token replaces the visitor's", async () => {
  const { cms, app } = await proxyTo(servePng, { token: 'site-read-token' });
  await request(app)
    .get('/cms/uploads/logo.png')
    .set('Cookie', 'auth._token.local=sealed-session; cms.preview=sealed')
    .set('Authorization', 'Bearer visitor-token')
    .set('Proxy-Authorization', 'Basic dmlzaXRvcjpzZWNyZXQ=');
  const [received] = cms.received;
  expect(received?.headers.authorization).toBe('Bearer site-read-token');
  expect(received?.headers.cookie).toBeUndefined();
  expect(received?.headers['proxy-authorization']).toBeUndefined();
});

test("a request that carries Expect: 100-continue still reaches the CMS without the visitor's cookies or Authorization", async () => {
  const { cms, app } = await proxyTo(servePng);
  const port = await listening(app);
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path: '/cms/uploads/logo.png',
      headers: { Expect: '100-continue', Cookie: 'auth._token.local=sealed-session', Authorization: 'Bearer visitor-token' },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
  expect(status).toBe(200);
  expect(cms.received[0]?.headers.cookie).toBeUndefined();
  expect(cms.received[0]?.headers.authorization).toBeUndefined();
  expect(cms.received[0]?.headers.expect).toBeUndefined();
});

test('the proxy is http-proxy-middleware: createCmsProxy builds one and every allowed request goes through it', async () => {
  const through: string[] = [];
  vi.resetModules();
  vi.doMock('http-proxy-middleware', async (importOriginal) => {
    const real = await importOriginal<typeof HttpProxyMiddleware>();
    const createProxyMiddleware: typeof real.createProxyMiddleware = (options) => {
      const middleware = real.createProxyMiddleware(options);
      return Object.assign(
        (req: Parameters<typeof middleware>[0], res: Parameters<typeof middleware>[1], next?: (error?: unknown) => void) => {
          through.push(req.url ?? '');
          return middleware(req, res, next);
        },
        middleware,
      );
    };
    return { ...real, createProxyMiddleware };
  });
  try {
    const { createCmsProxy: createWatchedProxy } = await import('../../server/cms/proxy.ts');
    const cms = await startFakeStrapi(servePng);
    const app = express();
    app.use('/cms', await createWatchedProxy({ url: cms.url, logger: captureLogger().logger }));
    expect((await request(app).get('/cms/uploads/logo.png')).status).toBe(200);
    expect((await request(app).get('/cms/admin')).status).toBe(404);
    // The gate refused /admin before the library; the upload went through it.
    expect(through).toEqual(['/uploads/logo.png']);
    expect(cms.received.map((r) => r.url)).toEqual(['/uploads/logo.png']);
  } finally {
    vi.doUnmock('http-proxy-middleware');
    vi.resetModules();
  }
});

test('a body that stalls for the timeout is cut: the visitor gets what came and the connection ends', async () => {
  const { app } = await proxyTo(
    (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.write('first ');
      // …and nothing more.
    },
    { timeoutMs: 200 },
  );
  const port = await listening(app);
  // The CMS never sends the rest nor ends: only the proxy's timeout can end the answer.
  const outcome = await new Promise<{ text: string; ended: string }>((resolve) => {
    get(`http://127.0.0.1:${port}/cms/uploads/big.bin`, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ text, ended: 'end' }));
      res.on('error', () => resolve({ text, ended: 'error' }));
      res.on('aborted', () => resolve({ text, ended: 'aborted' }));
    }).on('error', () => resolve({ text: '', ended: 'error' }));
  });
  expect(outcome.text).toBe('first ');
  expect(outcome.ended).not.toBe('end');
});

test('behind the compression middleware, an unusable answer is replaced by our JSON whole, however large the CMS’s body', async () => {
  const cms = await startFakeStrapi((_req, res) =>
    res.writeHead(500, { 'Content-Type': 'text/html' }).end('<p>Internal error</p>'.repeat(5000)),
  );
  const app = express();
  app.use(compression());
  app.use('/cms', await createCmsProxy({ url: cms.url, logger: captureLogger().logger }));
  const res = await request(app).get('/cms/api/posts').set('Accept-Encoding', 'gzip');
  expect(res.status).toBe(502);
  expect(res.body).toEqual({ error: { code: 'cms_unavailable', message: 'The content service failed' } });
});

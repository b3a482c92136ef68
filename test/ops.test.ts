import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { expect, test } from 'vitest';
import { createUser } from '../server/users/users.ts';
import { loadConfig } from '../server/base/config.ts';
import { boundUrl } from '../server/http/server.ts';
import { serverNodeFlags } from '../scripts/server-flags.ts';
import { createTestApp, ORIGIN } from './helpers/app.ts';
import { capturingLogger } from './helpers/log.ts';
import { scaled } from './helpers/time-scale.ts';

test('every response carries a request id, and one structured log line per request names it', async () => {
  const { logger, lines } = capturingLogger();
  const { app } = await createTestApp(undefined, { logger });
  const res = await request(app).get('/en/blog?secret=should-not-be-logged');
  const id = res.headers['x-request-id'];
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.reqId === id);
  expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/en/blog', status: 200 });
  expect(lines.join('')).not.toContain('should-not-be-logged');
  // Kept only from a trusted proxy (TRUST_PROXY): test/security/uploads.test.ts has the attack.
  const { app: behindProxy } = await createTestApp({ TRUST_PROXY: 'loopback' });
  const kept = await request(behindProxy).get('/healthz').set('X-Request-Id', 'proxy-id-12345');
  expect(kept.headers['x-request-id']).toBe('proxy-id-12345');
  // A malformed one is replaced by a fresh UUID (a random UUID may well contain "bad": compare the whole).
  const refused = await request(behindProxy).get('/healthz').set('X-Request-Id', 'bad id\twith spaces');
  expect(refused.headers['x-request-id']).not.toBe('bad id\twith spaces');
  expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
});

test('no password, token or cookie ever reaches the logs', async () => {
  const { logger, lines } = capturingLogger();
  const { app, db } = await createTestApp(undefined, { logger });
  await createUser(db, { userName: 'lena', password: 'a secret passphrase', role: 'CLI', name: 'L', lastName: 'N' });
  const login = await request(app)
    .post('/login')
    .set('Origin', ORIGIN)
    .type('form')
    .send({ identifier: 'lena', password: 'a secret passphrase' });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  await request(app).get('/client').set('Cookie', cookie);
  const api = await request(app).post('/api/login').send({ identifier: 'lena', password: 'a secret passphrase' });
  await request(app).get('/api/me').set('Authorization', `Bearer ${api.body.token}`);
  const all = lines.join('\n');
  expect(all).not.toContain('a secret passphrase');
  expect(all).not.toContain(api.body.token);
  expect(all).not.toContain(cookie.split('=')[1]!.slice(0, 40));
});

test('/readyz answers ready when the database answers, 503 when it does not', async () => {
  const created = await createTestApp();
  const ready = await request(created.app).get('/readyz');
  expect(ready.status).toBe(200);
  expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok' } });
  created.close();
  const down = await request(created.app).get('/readyz');
  expect(down.status).toBe(503);
  expect(down.body.checks.database).toBe('failing');
});

test('while shutting down (draining), /readyz answers 503 and every answer says Connection: close', async () => {
  const created = await createTestApp();
  const before = await request(created.app).get('/en').set('Connection', 'keep-alive');
  expect(before.headers.connection).toBe('keep-alive');
  created.drain();
  const ready = await request(created.app).get('/readyz').set('Connection', 'keep-alive');
  expect(ready.status).toBe(503);
  expect(ready.body.checks.shutdown).toBe('failing');
  expect(ready.headers.connection).toBe('close');
  const page = await request(created.app).get('/en').set('Connection', 'keep-alive');
  expect(page.status).toBe(200);
  expect(page.headers.connection).toBe('close');
});

test('/readyz stays 200 while the CMS is unreachable (content is served stale): the body says "degraded"', async () => {
  const { app } = await createTestApp({ CMS_URL: 'http://127.0.0.1:9', CMS_TOKEN: 't' });
  const res = await request(app).get('/readyz');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ status: 'degraded', checks: { database: 'ok', cms: 'failing' } });
});

test('/readyz is 503 only when the database is unreachable or the process drains, whatever the CMS says', async () => {
  const created = await createTestApp({ CMS_URL: 'http://127.0.0.1:9', CMS_TOKEN: 't' });
  created.drain();
  const draining = await request(created.app).get('/readyz');
  expect(draining.status).toBe(503);
  expect(draining.body).toEqual({ status: 'not ready', checks: { database: 'ok', cms: 'failing', shutdown: 'failing' } });
  created.close();
  const down = await request(created.app).get('/readyz');
  expect(down.status).toBe(503);
  expect(down.body.checks.database).toBe('failing');
});

test('configuration is validated at start with an error that names the variable', () => {
  expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  expect(() => loadConfig({ PUBLIC_URL: 'javascript:alert(1)' })).toThrow(/PUBLIC_URL/);
  expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET is required in production/);
  expect(() => loadConfig({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET/);
  expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
  expect(() => loadConfig({ MAIL_FROM: 'site at example.com' })).toThrow(/MAIL_FROM/);
  expect(() => loadConfig({ WEB_CONCURRENCY: '0' })).toThrow(/WEB_CONCURRENCY/);
  // A renamed limit is refused, not ignored (docs/decisions/009-login-limits.md).
  expect(() => loadConfig({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '5' })).toThrow(/LOGIN_MAX_FAILURES_PER_IDENTIFIER_IP/);
});

test('production requires PUBLIC_URL: the start stops with a message naming it and the line that sets it', () => {
  const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) };
  expect(() => loadConfig(production)).toThrow(/PUBLIC_URL is required in production/);
  expect(() => loadConfig(production)).toThrow('PUBLIC_URL=https://www.example.com');
  expect(() => loadConfig({ ...production, PUBLIC_URL: '' })).toThrow(/PUBLIC_URL is required in production/);
  // Both missing: both named in one message, so that one restart fixes them.
  expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET is required[^]*\nPUBLIC_URL is required/);
  expect(loadConfig({ ...production, PUBLIC_URL: 'https://www.example.org/' }).PUBLIC_URL).toBe('https://www.example.org');
  // Development and tests keep the local default.
  expect(loadConfig({ PORT: '4000' }).PUBLIC_URL).toBe('http://localhost:4000');
  expect(loadConfig({ NODE_ENV: 'test' }).PUBLIC_URL).toBe('http://localhost:3000');
});

test(
  'the built server in production without PUBLIC_URL exits 1 before listening, saying what to set',
  () => {
    const run = spawnSync(process.execPath, [...serverNodeFlags(), join(import.meta.dirname, '..', 'dist', 'server', 'main.js')], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        SESSION_SECRET: 'x'.repeat(40),
        PUBLIC_URL: '',
        PORT: '0',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'site-no-origin-')),
      },
      encoding: 'utf8',
      timeout: scaled(20_000),
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('PUBLIC_URL is required in production');
    expect(run.stdout).not.toContain('listening on');
  },
  scaled(30_000),
);

test('the download limits have documented defaults, an empty value means the default, and a bad one names the variable', () => {
  const defaults = { DOWNLOAD_STALL_SECONDS: 30, DOWNLOADS_PER_USER: 4, EXPORTS_MAX_CONCURRENT: 2, PDF_JOBS_PER_USER: 2 };
  expect(loadConfig({})).toMatchObject(defaults);
  expect(loadConfig(Object.fromEntries(Object.keys(defaults).map((name) => [name, ''])))).toMatchObject(defaults);
  expect(
    loadConfig({ DOWNLOAD_STALL_SECONDS: '5', DOWNLOADS_PER_USER: '1', EXPORTS_MAX_CONCURRENT: '8', PDF_JOBS_PER_USER: '3' }),
  ).toMatchObject({
    DOWNLOAD_STALL_SECONDS: 5,
    DOWNLOADS_PER_USER: 1,
    EXPORTS_MAX_CONCURRENT: 8,
    PDF_JOBS_PER_USER: 3,
  });
  for (const name of Object.keys(defaults)) {
    expect(() => loadConfig({ [name]: '0' })).toThrow(new RegExp(name));
    expect(() => loadConfig({ [name]: 'many' })).toThrow(new RegExp(name));
  }
});

test('e-mail: MAIL_FROM defaults to no-reply@ the host of PUBLIC_URL (or the older CONTACT_NOTIFY_FROM); SMTP_URL needs no CONTACT_NOTIFY_TO', () => {
  const smtp = { SMTP_URL: 'smtps://user:secret@mail.example.com:465' };
  expect(loadConfig({ ...smtp, PUBLIC_URL: 'https://www.example.org/' }).MAIL_FROM).toBe('no-reply@www.example.org');
  expect(loadConfig({ ...smtp, CONTACT_NOTIFY_FROM: 'web@example.org' }).MAIL_FROM).toBe('web@example.org');
  expect(loadConfig({ ...smtp, MAIL_FROM: 'hola@example.org', CONTACT_NOTIFY_FROM: 'web@example.org' }).MAIL_FROM).toBe('hola@example.org');
  expect(loadConfig(smtp).CONTACT_NOTIFY_TO).toBeUndefined();
});

test('TRUST_PROXY: behind a trusted proxy the client IP is the forwarded one (rate limits per real client)', async () => {
  const { app, db } = await createTestApp({
    TRUST_PROXY: 'loopback',
    LOGIN_MAX_FAILURES_PER_IP: '2',
  });
  await createUser(db, { userName: 'ivan', password: 'correct horse battery', role: 'CLI', name: 'I', lastName: 'V' });
  const attempt = (ip: string, identifier: string) =>
    request(app).post('/api/login').set('X-Forwarded-For', ip).send({ identifier, password: 'wrong password!' });
  await attempt('203.0.113.1', 'a');
  await attempt('203.0.113.1', 'b');
  expect((await attempt('203.0.113.1', 'c')).status).toBe(429);
  expect((await attempt('203.0.113.2', 'd')).status).toBe(401); // another client is not blocked
});

test('production hides error details from browsers and sends HSTS', async () => {
  const { app } = await createTestApp({ NODE_ENV: 'production' });
  const res = await request(app).get('/assets/..%2f..%2fpackage.json');
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.text).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/);
  const page = await request(app).get('/en');
  expect(page.headers['strict-transport-security']).toMatch(/max-age=31536000/);
});

// Hostile or broken input gets a clean 4xx, never a 500.
test.each([
  ['a malformed session cookie', (r: request.Test) => r.set('Cookie', 'auth._token.local=%E0%A4%A; auth.redirect=%%%'), '/client', [302]],
  ['garbage Accept-Language at /', (r: request.Test) => r.set('Accept-Language', ';;;q=NaN,,,*-*-*,' + 'x'.repeat(3000)), '/', [200]],
  ['invalid UTF-8 in the path', (r: request.Test) => r, '/%FF%FE%C0', [400, 404]],
  ['invalid UTF-8 in a blog slug', (r: request.Test) => r, '/blog/%C3%28', [400, 404]],
  ['invalid UTF-8 in /_data', (r: request.Test) => r, '/_data?path=%2F%FF', [200, 400]],
  ['a traversal attempt in /assets', (r: request.Test) => r, '/assets/%2e%2e/%2e%2e/package.json', [400, 403, 404]],
])('%s answers a clean 4xx (or the page), never 500', async (_name, prepare, path, statuses) => {
  const { app } = await createTestApp();
  const res = await prepare(request(app).get(path));
  expect(statuses).toContain(res.status);
});

test('a 10 MB body answers 413 on the API, the login and the contact form', async () => {
  const { app } = await createTestApp();
  const big = 'x'.repeat(10 * 1024 * 1024);
  const api = await request(app).post('/api/login').set('Content-Type', 'application/json').send(`{"identifier":"${big}"}`);
  expect(api.status).toBe(413);
  expect(api.body.error.code).toBe('payload_too_large');
  const login = await request(app).post('/login').set('Origin', ORIGIN).type('form').send(`identifier=${big}`);
  expect(login.status).toBe(413);
  const contact = await request(app).post('/Contact').set('Origin', ORIGIN).type('form').send(`message=${big}`);
  expect(contact.status).toBe(413);
});

test('a 1 MB header is refused with 431 by the HTTP server, and the server keeps serving', async () => {
  const { app } = await createTestApp();
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/', headers: { 'X-Big': 'x'.repeat(1024 * 1024) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
  expect(status).toBe(431);
  const ok = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(ok.status).toBe(200);
  server.close();
});

test('npm start turns allocation-site pretenuring off, so that in-flight requests do not fill the old generation (decision 007)', () => {
  expect(serverNodeFlags()).toContain('--no-allocation-site-pretenuring');
});

test('npm start bounds the V8 heap (young generation and old space), so that RSS under load stays within 150 MB', () => {
  const flags = serverNodeFlags();
  const value = (name: string) => Number(flags.find((f) => f.startsWith(`--${name}=`))?.split('=')[1]);
  expect(value('max-semi-space-size')).toBeGreaterThan(0);
  expect(value('max-semi-space-size')).toBeLessThanOrEqual(8);
  expect(value('max-old-space-size')).toBeGreaterThanOrEqual(96);
  expect(value('max-old-space-size')).toBeLessThanOrEqual(128);
});

test('npm start sizes the heap for the start: the young generation fixed at its maximum and an initial old space above the live heap of a start, so no mark-compact runs while the server loads (cold start, decision 007)', () => {
  const flags = serverNodeFlags();
  const value = (name: string) => Number(flags.find((f) => f.startsWith(`--${name}=`))?.split('=')[1]);
  expect(value('min-semi-space-size')).toBe(value('max-semi-space-size'));
  // A start's live heap is ~20 MB (--trace-gc): the first mark-compact comes after it, under load.
  expect(value('initial-old-space-size')).toBeGreaterThanOrEqual(32);
  expect(value('initial-old-space-size')).toBeLessThan(value('max-old-space-size'));
});

test('an empty variable (NAME= in a .env or compose file) means unset: SMTP_URL=, CMS_URL=, MAIL_FROM= and SITE_NAME= start with the defaults', () => {
  const config = loadConfig({ NODE_ENV: 'development', SMTP_URL: '', CMS_URL: '', MAIL_FROM: '', SITE_NAME: '', PORT: '' });
  expect(config.SMTP_URL).toBeUndefined();
  expect(config.CMS_URL).toBeUndefined();
  expect(config.MAIL_FROM).toBe('no-reply@localhost');
  expect(config.SITE_NAME).toBe('the product');
  expect(config.PORT).toBe(3000);
  expect(loadConfig({ NODE_ENV: 'development', UPLOADS_MAX_CONCURRENT: '', LOCALE_COOKIE: '', ADMIN_REQUIRE_2FA: '' })).toMatchObject({
    UPLOADS_MAX_CONCURRENT: loadConfig({ NODE_ENV: 'development' }).UPLOADS_MAX_CONCURRENT,
    LOCALE_COOKIE: false,
    ADMIN_REQUIRE_2FA: false,
  });
  // An empty renamed variable is unset too: only a value set under the old name stops the start.
  expect(() => loadConfig({ NODE_ENV: 'development', LOGIN_MAX_FAILURES_PER_ACCOUNT: '' })).not.toThrow();
  expect(() => loadConfig({ NODE_ENV: 'development', LOGIN_MAX_FAILURES_PER_ACCOUNT: '5' })).toThrow(/no longer read/);
  // A value that is set is still checked.
  expect(() => loadConfig({ NODE_ENV: 'development', SMTP_URL: 'not a url' })).toThrow(/SMTP_URL/);
});

test('the start log names the address actually bound (HOST=127.0.0.1 says 127.0.0.1, not localhost; a wildcard says so)', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  expect(boundUrl(server.address())).toBe(`http://127.0.0.1:${port}`);
  server.close();
  expect(boundUrl({ address: '::1', family: 'IPv6', port: 3000 })).toBe('http://[::1]:3000');
  expect(boundUrl({ address: '0.0.0.0', family: 'IPv4', port: 3000 })).toBe('http://0.0.0.0:3000 (every interface)');
  expect(boundUrl({ address: '::', family: 'IPv6', port: 8080 })).toBe('http://[::]:8080 (every interface)');
});

test(
  'seed:demo refuses NODE_ENV=production and says how to run it on purpose; with --yes it seeds that data folder',
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'site-seed-'));
    const run = (args: string[]) =>
      spawnSync(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'seed-demo.ts'), ...args], {
        env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
      });
    const refused = run([]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('seed:demo refuses NODE_ENV=production');
    expect(refused.stderr).toContain('npm run seed:demo -- --yes');
    expect(existsSync(join(dataDir, 'site.db'))).toBe(false);
    const seeded = run(['--yes']);
    expect(seeded.status, seeded.stderr).toBe(0);
    expect(seeded.stdout).toContain('demo-admin (ADMIN) password:');
  },
  scaled(60_000),
);

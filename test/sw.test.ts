// The service worker (/sw.js, scope /; nothing private stored): its pure decisions, the server's /sw.js and
// offline pages, and the compiled worker itself run against an in-memory Cache Storage.
import * as esbuild from 'esbuild';
import express from 'express';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { canRegisterServiceWorker } from '../client/sw/register.ts';
import {
  CACHE_PREFIX,
  cacheNames,
  cachesToDelete,
  decide,
  isStorable,
  isStorableResponse,
  MAX_CACHED_PAGES,
  offlineUrlFor,
  overflow,
  type Strategy,
  type SwConfig,
} from '../client/sw/strategy.ts';
import { serviceWorkerBuildOptions } from '../server/sw/build.ts';
import { OFFLINE_PAGES, precacheUrls, mountServiceWorker, serviceWorkerScript } from '../server/sw/routes.ts';
import type { ClientManifest } from '../server/render/manifest.ts';
import { ROOT } from '../server/base/paths.ts';
import { loadBrand } from '../server/brand/brand.ts';
import { defaultLocale, LOCALE_CODES, type Locale } from '../shared/locales.ts';

const ORIGIN = 'https://www.example.test';
/** The offline page of each locale of the table: the default locale's unprefixed, the others' under their prefix. */
const OFFLINE = Object.fromEntries(
  LOCALE_CODES.map((locale) => [locale, locale === defaultLocale ? '/offline' : `/${locale}/offline`]),
) as Record<Locale, string>;
const BRAND = loadBrand();

const MANIFEST: ClientManifest = {
  buildId: 'abc123def456',
  entry: { file: '/assets/entry-AAAA.js', imports: ['/assets/chunk-SHARED.js', '/assets/chunk-REACT.js'], css: ['/assets/entry-CSS1.css'] },
  pages: {
    home: { file: '/assets/home-HOME.js', imports: ['/assets/chunk-SHARED.js'], css: [] },
    blog: { file: '/assets/blog-BLOG.js', imports: ['/assets/chunk-POSTS.js'], css: ['/assets/blog-CSS2.css'] },
    profile: { file: '/assets/profile-PROF.js', imports: ['/assets/chunk-FORMS.js'], css: [] },
  },
  messages: { es: '/assets/messages-es-1111.json', en: '/assets/messages-en-2222.json' },
};

/** The configuration line that /sw.js starts with. */
function injectedConfig(script: string): SwConfig {
  const firstLine = script.split('\n', 1)[0] ?? '';
  const match = /^self\.__SW_CONFIG__ = (.*);$/.exec(firstLine);
  if (!match?.[1]) throw new Error(`No configuration line in ${firstLine.slice(0, 80)}`);
  return JSON.parse(match[1]) as SwConfig;
}

describe('decide: what the worker does with a request', () => {
  const cases: { url: string; method?: string; mode?: string; expected: Strategy }[] = [
    { url: '/api/me', expected: 'ignore' },
    { url: '/api/me', mode: 'navigate', expected: 'ignore' },
    { url: '/api', expected: 'ignore' },
    { url: '/api/openapi.json', mode: 'navigate', expected: 'ignore' },
    { url: '/_data?path=/', expected: 'ignore' },
    { url: '/_data?path=%2Fprofile', expected: 'ignore' },
    { url: '/live', expected: 'ignore' },
    { url: '/cms/uploads/x.png', expected: 'ignore' },
    { url: '/cms/api/pages', expected: 'ignore' },
    { url: '/cms', mode: 'navigate', expected: 'ignore' },
    { url: '/sw.js', expected: 'ignore' },
    { url: '/x/../api/me', expected: 'ignore' },
    { url: '/assets/entry-X.js', expected: 'cache-first' },
    { url: '/assets/messages-en-2222.json', expected: 'cache-first' },
    { url: '/en/blog', mode: 'navigate', expected: 'network-first-page' },
    { url: '/', mode: 'navigate', expected: 'network-first-page' },
    { url: '/profile', mode: 'navigate', expected: 'network-first-page' },
    { url: '/logo.svg', mode: 'no-cors', expected: 'network-only' },
    { url: '/robots.txt', expected: 'network-only' },
    { url: '/apiary', mode: 'navigate', expected: 'network-first-page' },
    { url: '/logout', method: 'POST', mode: 'navigate', expected: 'ignore' },
    { url: '/login', method: 'POST', mode: 'navigate', expected: 'ignore' },
    { url: '/assets/entry-X.js', method: 'HEAD', expected: 'ignore' },
    { url: '/en/blog', method: 'PUT', expected: 'ignore' },
    { url: 'https://cdn.example.org/assets/entry-X.js', expected: 'ignore' },
    { url: 'https://cdn.example.org/en/blog', mode: 'navigate', expected: 'ignore' },
    { url: 'http://www.example.test/en/blog', mode: 'navigate', expected: 'ignore' },
  ];
  test.each(cases)('$method $url ($mode) → $expected', ({ url, method = 'GET', mode = 'cors', expected }) => {
    expect(decide({ url: new URL(url, ORIGIN).href, method, mode }, ORIGIN)).toBe(expected);
  });

  it('an unparsable URL is ignored', () => {
    expect(decide({ url: 'not a url', method: 'GET', mode: 'navigate' }, ORIGIN)).toBe('ignore');
  });
});

describe('isStorable: private answers never go into a cache', () => {
  const cases: { headers: Record<string, string>; expected: boolean }[] = [
    { headers: { 'Cache-Control': 'private, no-store' }, expected: false },
    { headers: { 'Cache-Control': 'no-store' }, expected: false },
    { headers: { 'Cache-Control': 'private' }, expected: false },
    { headers: { 'Cache-Control': 'PRIVATE, max-age=0' }, expected: false },
    { headers: { 'Cache-Control': 'max-age=0, private="set-cookie"' }, expected: false },
    { headers: { 'Cache-Control': 'public,no-store' }, expected: false },
    { headers: { 'Cache-Control': 'no-cache' }, expected: true },
    { headers: { 'Cache-Control': 'public, max-age=31536000, immutable' }, expected: true },
    { headers: {}, expected: true },
    { headers: { 'Cache-Control': 'no-cache', Vary: 'Cookie, Accept-Encoding' }, expected: true },
    { headers: { 'Cache-Control': 'no-cache', Vary: '*' }, expected: false },
  ];
  test.each(cases)('$headers → $expected', ({ headers, expected }) => {
    expect(isStorable(new Headers(headers))).toBe(expected);
  });

  it('only complete same-origin 200 answers', () => {
    const headers = new Headers({ 'Cache-Control': 'no-cache' });
    expect(isStorableResponse({ status: 200, type: 'basic', headers })).toBe(true);
    expect(isStorableResponse({ status: 404, type: 'basic', headers })).toBe(false);
    expect(isStorableResponse({ status: 206, type: 'basic', headers })).toBe(false);
    expect(isStorableResponse({ status: 0, type: 'opaqueredirect', headers })).toBe(false);
    expect(isStorableResponse({ status: 0, type: 'opaque', headers })).toBe(false);
    expect(isStorableResponse({ status: 200, type: 'cors', headers })).toBe(false);
    expect(isStorableResponse({ status: 200, type: 'basic', headers: new Headers({ 'Cache-Control': 'private, no-store' }) })).toBe(false);
  });
});

describe('caches of a new version', () => {
  it('cachesToDelete: every cache of this worker but the current version, nobody else’s', () => {
    const current = cacheNames('v2');
    const existing = [
      `${CACHE_PREFIX}shell-v1`,
      `${CACHE_PREFIX}pages-v1`,
      current.shell,
      current.pages,
      `${CACHE_PREFIX}shell-old`,
      `${CACHE_PREFIX}shell-v22`,
      'another-app-cache',
    ];
    expect(cachesToDelete(existing, 'v2')).toEqual([
      `${CACHE_PREFIX}shell-v1`,
      `${CACHE_PREFIX}pages-v1`,
      `${CACHE_PREFIX}shell-old`,
      `${CACHE_PREFIX}shell-v22`,
    ]);
    expect(cachesToDelete([current.shell, current.pages], 'v2')).toEqual([]);
    expect(cachesToDelete([], 'v2')).toEqual([]);
  });

  it('cache names carry the version', () => {
    expect(cacheNames('abc')).toEqual({ shell: 'site-sw-shell-abc', pages: 'site-sw-pages-abc' });
  });

  it('the pages cache keeps the newest MAX_CACHED_PAGES', () => {
    expect(MAX_CACHED_PAGES).toBe(30);
    expect(overflow(0)).toBe(0);
    expect(overflow(30)).toBe(0);
    expect(overflow(31)).toBe(1);
    expect(overflow(45, 40)).toBe(5);
  });
});

describe('offlineUrlFor: the offline page in the path’s language', () => {
  const config = { offline: { es: '/offline', en: '/en/offline' }, defaultLocale: 'es' };
  test.each([
    ['/en/blog', '/en/offline'],
    ['/en', '/en/offline'],
    ['/es/blog', '/offline'],
    ['/blog', '/offline'],
    ['/', '/offline'],
    ['/english', '/offline'],
    ['/constructor', '/offline'],
  ])('%s → %s', (path, expected) => {
    expect(offlineUrlFor(path, config)).toBe(expected);
  });
});

describe('registration', () => {
  test.each([
    [{ protocol: 'https:', hostname: 'www.example.test' }, true, true],
    [{ protocol: 'http:', hostname: 'localhost' }, true, true],
    [{ protocol: 'http:', hostname: '127.0.0.1' }, true, true],
    [{ protocol: 'http:', hostname: '[::1]' }, true, true],
    [{ protocol: 'http:', hostname: 'www.example.test' }, false, false],
    [{ protocol: 'http:', hostname: 'www.example.test' }, true, false],
    [{ protocol: 'https:', hostname: 'www.example.test' }, false, false],
  ])('%o (secure context %s) → %s', (location, secure, expected) => {
    expect(canRegisterServiceWorker(location, secure)).toBe(expected);
  });
});

describe('the server: /sw.js and the offline pages', () => {
  let dir: string;
  let app: express.Express;
  const WORKER_CODE = '(()=>{self.addEventListener("fetch",()=>{})})();\n';

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sw-test-'));
    const workerFile = join(dir, 'sw.js');
    writeFileSync(workerFile, WORKER_CODE);
    app = express();
    app.set('etag', false);
    mountServiceWorker(app, { manifest: MANIFEST, workerFile, siteName: 'the <product>', brand: BRAND });
    app.use((_req, res) => {
      res.status(418).send('fell through');
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('/sw.js is JavaScript, always revalidated, allowed the whole origin', async () => {
    const res = await request(app).get('/sw.js').expect(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['service-worker-allowed']).toBe('/');
    expect(res.text.endsWith(WORKER_CODE)).toBe(true);
  });

  it('the injected configuration: the build as version, the whole shell to precache, nothing private', async () => {
    const res = await request(app).get('/sw.js').expect(200);
    const config = injectedConfig(res.text);
    // The build's id and the brand's: a new logo is a new shell.
    expect(config.version).toMatch(new RegExp(`^${MANIFEST.buildId}-[a-z0-9]+$`));
    expect(config.defaultLocale).toBe('es');
    expect(config.offline).toEqual(OFFLINE);
    const expected = [
      MANIFEST.entry.file,
      ...MANIFEST.entry.imports,
      ...MANIFEST.entry.css,
      ...Object.values(MANIFEST.pages).flatMap((p) => [p.file, ...p.imports, ...p.css]),
      ...Object.values(MANIFEST.messages),
      BRAND.page.logos.light,
      BRAND.page.logos.dark,
      '/favicon.svg',
      '/avatar-default.svg',
      ...Object.values(OFFLINE),
    ];
    expect(new Set(config.precache)).toEqual(new Set(expected));
    expect(config.precache).toHaveLength(new Set(config.precache).size);
    for (const url of config.precache) {
      expect(url).toMatch(/^\/[^/]/);
      expect(url).not.toMatch(/^\/(api|_data|cms)(\/|$|\?)/);
    }
    expect(precacheUrls(MANIFEST, BRAND)).toEqual(config.precache);
  });

  it('HEAD /sw.js answers the same headers', async () => {
    const res = await request(app).head('/sw.js').expect(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['service-worker-allowed']).toBe('/');
  });

  it('without a built worker, /sw.js is a 404 that no cache keeps', async () => {
    const warnings: string[] = [];
    const bare = express();
    mountServiceWorker(bare, {
      manifest: MANIFEST,
      workerFile: join(dir, 'missing.js'),
      siteName: 'x',
      brand: BRAND,
      logger: { warn: (_details, message) => warnings.push(message) },
    });
    const res = await request(bare).get('/sw.js').expect(404);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(warnings).toHaveLength(1);
  });

  test.each([
    { path: '/offline', lang: 'es', title: 'Sin conexión', retry: 'Reintentar', home: '/' },
    { path: '/es/offline', lang: 'es', title: 'Sin conexión', retry: 'Reintentar', home: '/' },
    { path: '/en/offline', lang: 'en', title: 'You are offline', retry: 'Try again', home: '/en' },
  ])('$path: the offline page in its language, without scripts', async ({ path, lang, title, retry, home }) => {
    const res = await request(app).get(path).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.text).toContain(`<html lang="${lang}">`);
    expect(res.text).toContain(`<h1 id="page-title">${title}</h1>`);
    expect(res.text).toContain(`<a class="button button-primary" href="">${retry}</a>`);
    expect(res.text).toContain(`<a href="${home}">`);
    expect(res.text).toContain('<link rel="stylesheet" href="/assets/entry-CSS1.css">');
    expect(res.text).toContain('the &lt;product&gt;');
    expect(res.text).not.toMatch(/<script|\son\w+=|style=/i);
  });

  it('the Spanish page carries the specified text', async () => {
    const res = await request(app).get('/offline');
    expect(res.text).toContain(
      'No tienes conexión a internet. Esta página no está guardada en este dispositivo. Vuelve a intentarlo cuando recuperes la conexión.',
    );
  });

  it('other paths fall through to the pages', async () => {
    await request(app).get('/offline/x').expect(418);
    // zz is no language's code, so /zz is never a locale's prefix.
    await request(app).get('/zz/offline').expect(418);
    await request(app).post('/sw.js').expect(418);
  });

  it('the offline pages are the ones precached', () => {
    expect(OFFLINE_PAGES).toEqual(OFFLINE);
  });
});

// ---------------------------------------------------------------------------------------------
// The compiled worker, run in a sandbox with an in-memory Cache Storage and a scripted network.

type FakeRequest = { url: string; method: string; mode: string };
type Listener = (event: unknown) => void;

class FakeCache {
  readonly entries = new Map<string, Response>();
  private readonly network: (request: FakeRequest) => Promise<Response>;
  constructor(network: (request: FakeRequest) => Promise<Response>) {
    this.network = network;
  }
  private key(request: FakeRequest | string): string {
    return new URL(typeof request === 'string' ? request : request.url, ORIGIN).href;
  }
  async match(request: FakeRequest | string) {
    return this.entries.get(this.key(request))?.clone();
  }
  async put(request: FakeRequest | string, response: Response) {
    const key = this.key(request);
    this.entries.delete(key); // insertion order = storing order, as in browsers
    this.entries.set(key, response);
  }
  async addAll(requests: FakeRequest[]) {
    const responses = await Promise.all(requests.map((r) => this.network(r)));
    responses.forEach((response, i) => {
      if (!response.ok) throw new TypeError(`addAll: ${requests[i]?.url} answered ${response.status}`);
    });
    responses.forEach((response, i) => this.entries.set(this.key(requests[i]!), response));
  }
  async keys() {
    return [...this.entries.keys()].map((url) => ({ url, method: 'GET', mode: 'cors' }));
  }
  async delete(request: FakeRequest | string) {
    return this.entries.delete(this.key(request));
  }
}

class FakeCacheStorage {
  readonly stores = new Map<string, FakeCache>();
  private readonly network: (request: FakeRequest) => Promise<Response>;
  constructor(network: (request: FakeRequest) => Promise<Response>) {
    this.network = network;
  }
  async open(name: string) {
    let cache = this.stores.get(name);
    if (!cache) this.stores.set(name, (cache = new FakeCache(this.network)));
    return cache;
  }
  async keys() {
    return [...this.stores.keys()];
  }
  async delete(name: string) {
    return this.stores.delete(name);
  }
  urls(name: string): string[] {
    return [...(this.stores.get(name)?.entries.keys() ?? [])].map((url) => url.slice(ORIGIN.length));
  }
}

/** A same-origin answer as a browser's fetch gives it to a worker (type basic). */
function answer(body: string, init: ResponseInit = {}): Response {
  const response = new Response(body, { status: 200, ...init });
  Object.defineProperty(response, 'type', { value: 'basic' });
  return response;
}

type Server = (path: string) => Response;

function sandbox(script: string, server: Server) {
  let online = true;
  const fetched: string[] = [];
  const network = async (req: FakeRequest) => {
    fetched.push(new URL(req.url, ORIGIN).pathname);
    if (!online) throw new TypeError('Failed to fetch');
    const url = new URL(req.url, ORIGIN);
    return server(url.pathname + url.search);
  };
  const caches = new FakeCacheStorage(network);
  const listeners = new Map<string, Listener[]>();
  const calls: string[] = [];
  const scope = {
    location: { origin: ORIGIN },
    clients: { claim: async () => void calls.push('claim') },
    skipWaiting: async () => void calls.push('skipWaiting'),
    addEventListener: (type: string, listener: Listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
  };
  const context = {
    self: scope,
    caches,
    fetch: network,
    Request: class {
      url: string;
      method = 'GET';
      mode = 'cors';
      constructor(url: string) {
        this.url = new URL(url, ORIGIN).href;
      }
    },
    URL,
    console,
  };
  runInNewContext(script, context);

  async function extendable(type: 'install' | 'activate') {
    const waits: Promise<unknown>[] = [];
    for (const listener of listeners.get(type) ?? []) listener({ waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  }

  async function dispatchFetch(path: string, init: { method?: string; mode?: string } = {}) {
    const request: FakeRequest = { url: new URL(path, ORIGIN).href, method: init.method ?? 'GET', mode: init.mode ?? 'cors' };
    let response: Promise<Response> | undefined;
    const waits: Promise<unknown>[] = [];
    for (const listener of listeners.get('fetch') ?? []) {
      listener({
        request,
        respondWith: (r: Promise<Response>) => (response = Promise.resolve(r)),
        waitUntil: (p: Promise<unknown>) => waits.push(p),
      });
    }
    const result = response ? await response : null;
    await Promise.all(waits);
    return result;
  }

  return {
    caches,
    calls,
    fetched,
    listeners,
    setOnline: (value: boolean) => void (online = value),
    install: () => extendable('install'),
    activate: () => extendable('activate'),
    dispatchFetch,
  };
}

describe('the compiled worker', () => {
  let dir: string;
  let code: string;
  const names = cacheNames(MANIFEST.buildId);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sw-build-'));
    const outfile = join(dir, 'sw.js');
    await esbuild.build(serviceWorkerBuildOptions(ROOT, outfile));
    code = readFileSync(outfile, 'utf8');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The site: public pages (no-cache), private ones (private, no-store), assets, the API. */
  const site: Server = (path) => {
    if (path.startsWith('/assets/') || path.endsWith('.svg'))
      return answer(`asset ${path}`, { headers: { 'Cache-Control': 'public, max-age=31536000' } });
    if (path === '/offline' || path === '/en/offline') return answer(`offline page ${path}`, { headers: { 'Cache-Control': 'no-cache' } });
    if (path.startsWith('/api/') || path.startsWith('/_data')) return answer('{}', { headers: { 'Cache-Control': 'private, no-store' } });
    if (['/profile', '/en/profile', '/client', '/en/client'].includes(path)) {
      return answer(`private ${path}`, { headers: { 'Cache-Control': 'private, no-store' } });
    }
    if (path === '/gone') return answer('not found', { status: 404, headers: { 'Cache-Control': 'private, no-store' } });
    return answer(`page ${path}`, { headers: { 'Cache-Control': 'no-cache', Vary: 'Cookie' } });
  };

  async function installed(server: Server = site) {
    const worker = sandbox(serviceWorkerScript(MANIFEST, code), server);
    await worker.install();
    await worker.activate();
    return worker;
  }

  it('is one classic script: no module syntax left', () => {
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    expect(code.length).toBeLessThan(10_000);
  });

  it('install precaches the whole shell, then skips waiting; activate claims the pages', async () => {
    const worker = await installed();
    expect(new Set(worker.caches.urls(names.shell))).toEqual(new Set(precacheUrls(MANIFEST)));
    expect(worker.calls).toEqual(['skipWaiting', 'claim']);
  });

  it('install fails, and does not skip waiting, when the shell cannot be precached', async () => {
    const worker = sandbox(serviceWorkerScript(MANIFEST, code), (path) =>
      path === '/assets/chunk-POSTS.js' ? answer('missing', { status: 404 }) : site(path),
    );
    await expect(worker.install()).rejects.toThrow(/chunk-POSTS/);
    expect(worker.calls).not.toContain('skipWaiting');
  });

  it('activate deletes the old versions’ caches and leaves other caches alone', async () => {
    const worker = sandbox(serviceWorkerScript(MANIFEST, code), site);
    for (const name of [`${CACHE_PREFIX}shell-old`, `${CACHE_PREFIX}pages-old`, 'another-app-cache']) await worker.caches.open(name);
    await worker.install();
    await worker.activate();
    expect((await worker.caches.keys()).sort()).toEqual(['another-app-cache', names.shell].sort());
  });

  it('public pages: network first, stored; offline the stored copy, else the offline page in the path’s language', async () => {
    const worker = await installed();
    const online = await worker.dispatchFetch('/en/blog', { mode: 'navigate' });
    expect(await online?.text()).toBe('page /en/blog');
    expect(worker.caches.urls(names.pages)).toEqual(['/en/blog']);

    worker.setOnline(false);
    expect(await (await worker.dispatchFetch('/en/blog', { mode: 'navigate' }))?.text()).toBe('page /en/blog');
    expect(await (await worker.dispatchFetch('/en/privacy', { mode: 'navigate' }))?.text()).toBe('offline page /en/offline');
    expect(await (await worker.dispatchFetch('/cookies', { mode: 'navigate' }))?.text()).toBe('offline page /offline');
    expect(await (await worker.dispatchFetch('/es/blog', { mode: 'navigate' }))?.text()).toBe('offline page /offline');
  });

  it('private pages, the API, page data and redirects are never stored', async () => {
    const worker = await installed((path) => (path === '/en/admin' ? opaqueRedirect() : site(path)));
    expect(await (await worker.dispatchFetch('/profile', { mode: 'navigate' }))?.text()).toBe('private /profile');
    expect(await (await worker.dispatchFetch('/en/client', { mode: 'navigate' }))?.text()).toBe('private /en/client');
    await worker.dispatchFetch('/en/admin', { mode: 'navigate' });
    expect(await worker.dispatchFetch('/api/me')).toBeNull();
    expect(await worker.dispatchFetch('/_data?path=%2Fprofile')).toBeNull();
    expect(await worker.dispatchFetch('/cms/uploads/x.png')).toBeNull();
    expect(await worker.dispatchFetch('/logout', { method: 'POST', mode: 'navigate' })).toBeNull();
    expect(await worker.dispatchFetch('https://elsewhere.example.org/x.js')).toBeNull();
    const stored = [...worker.caches.stores.values()].flatMap((cache) => [...cache.entries.keys()].map((url) => new URL(url).pathname));
    expect(stored.filter((path) => /^\/(api|_data|cms)|^(\/en)?\/(profile|client|admin)$/.test(path))).toEqual([]);
    expect(worker.caches.urls(names.pages)).toEqual([]);

    // Offline, a private page that was never stored shows the offline page, not an old copy.
    worker.setOnline(false);
    expect(await (await worker.dispatchFetch('/profile', { mode: 'navigate' }))?.text()).toBe('offline page /offline');
  });

  it('a page that is gone (404) is dropped from the pages cache', async () => {
    let gone = false;
    const worker = await installed((path) => (path === '/gone' && !gone ? answer('here') : site(path)));
    await worker.dispatchFetch('/gone', { mode: 'navigate' });
    expect(worker.caches.urls(names.pages)).toEqual(['/gone']);
    gone = true;
    await worker.dispatchFetch('/gone', { mode: 'navigate' });
    expect(worker.caches.urls(names.pages)).toEqual([]);
  });

  it('the pages cache keeps the 30 most recently stored pages', async () => {
    const worker = await installed();
    for (let i = 0; i < MAX_CACHED_PAGES + 5; i++) await worker.dispatchFetch(`/blog/post-${i}`, { mode: 'navigate' });
    const urls = worker.caches.urls(names.pages);
    expect(urls).toHaveLength(MAX_CACHED_PAGES);
    expect(urls[0]).toBe('/blog/post-5');
    expect(urls.at(-1)).toBe(`/blog/post-${MAX_CACHED_PAGES + 4}`);
  });

  it('hashed assets: cache first (no network for precached ones), others stored on first use', async () => {
    const worker = await installed();
    worker.fetched.length = 0;
    expect(await (await worker.dispatchFetch(MANIFEST.entry.file))?.text()).toBe(`asset ${MANIFEST.entry.file}`);
    expect(worker.fetched).toEqual([]);
    await worker.dispatchFetch('/assets/font-X.woff2');
    expect(worker.fetched).toEqual(['/assets/font-X.woff2']);
    worker.setOnline(false);
    expect(await (await worker.dispatchFetch('/assets/font-X.woff2'))?.text()).toBe('asset /assets/font-X.woff2');
  });

  it('shell images: from the network, the precached copy only offline; other files are left to the browser', async () => {
    const worker = await installed();
    worker.fetched.length = 0;
    expect(await (await worker.dispatchFetch('/favicon.svg', { mode: 'no-cors' }))?.text()).toBe('asset /favicon.svg');
    expect(worker.fetched).toEqual(['/favicon.svg']);
    expect(await worker.dispatchFetch('/robots.txt')).toBeNull();
    worker.setOnline(false);
    expect(await (await worker.dispatchFetch('/favicon.svg', { mode: 'no-cors' }))?.text()).toBe('asset /favicon.svg');
  });

  it('served without its configuration, it removes its caches and answers nothing', async () => {
    const worker = sandbox(code, site);
    await worker.caches.open(`${CACHE_PREFIX}shell-old`);
    await worker.caches.open('another-app-cache');
    await worker.install();
    await worker.activate();
    expect(await worker.caches.keys()).toEqual(['another-app-cache']);
    expect(worker.listeners.get('fetch')).toBeUndefined();
  });
});

/** What a browser's fetch gives a worker for a navigation answered by a redirect. */
function opaqueRedirect(): Response {
  const response = new Response(null, { status: 200 });
  Object.defineProperty(response, 'type', { value: 'opaqueredirect' });
  Object.defineProperty(response, 'status', { value: 0 });
  return response;
}

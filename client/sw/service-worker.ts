// The service worker (/sw.js, scope /), compiled on its own by esbuild
// (server/sw/build.ts) and served by the server with its configuration injected in front
// (server/sw/routes.ts): the build's version, the shell to precache and the offline pages.
//
// - install: precache the shell, and only when that succeeded take over at once (skipWaiting);
// - activate: delete every cache of this worker that is not the current version's, then claim
//   the open pages;
// - fetch: the decisions of strategy.ts. Nothing private is ever stored.
import {
  cacheNames,
  cachesToDelete,
  decide,
  isStorableResponse,
  offlineUrlFor,
  overflow,
  type Strategy,
  type SwConfig,
} from './strategy.ts';

// The worker's own global scope, typed here: the project's lib is the DOM one, and the
// WebWorker lib cannot be loaded next to it.
type ExtendableEvent = Event & { waitUntil(promise: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & { readonly request: Request; respondWith(response: Response | Promise<Response>): void };
type ServiceWorkerScope = {
  readonly __SW_CONFIG__?: SwConfig;
  readonly location: { readonly origin: string };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
};

const sw = self as unknown as ServiceWorkerScope;
const config = sw.__SW_CONFIG__;

if (config) start(config);
else {
  // Served without its configuration: remove this worker's caches and answer nothing.
  sw.addEventListener('install', (event) => event.waitUntil(sw.skipWaiting()));
  sw.addEventListener('activate', (event) =>
    event.waitUntil(
      caches
        .keys()
        .then((names) => Promise.all(cachesToDelete(names, '').map((name) => caches.delete(name))))
        .then(() => sw.clients.claim()),
    ),
  );
}

function withoutHash(url: string): string {
  const parsed = new URL(url, sw.location.origin);
  parsed.hash = '';
  return parsed.href;
}

function start(config: SwConfig) {
  const names = cacheNames(config.version);
  const precached = new Set(config.precache.map(withoutHash));

  sw.addEventListener('install', (event) => {
    event.waitUntil(
      (async () => {
        const shell = await caches.open(names.shell);
        // Hashed assets may come from the HTTP cache; anything else is revalidated.
        await shell.addAll(config.precache.map((url) => new Request(url, { cache: url.startsWith('/assets/') ? 'default' : 'no-cache' })));
        await sw.skipWaiting();
      })(),
    );
  });

  sw.addEventListener('activate', (event) => {
    event.waitUntil(
      (async () => {
        await Promise.all(cachesToDelete(await caches.keys(), config.version).map((name) => caches.delete(name)));
        await sw.clients.claim();
      })(),
    );
  });

  async function fromShell(request: Request | string): Promise<Response | undefined> {
    const shell = await caches.open(names.shell);
    return shell.match(request, { ignoreVary: true });
  }

  /** Hashed build assets: the stored copy, else the network (stored when it may be). */
  async function cacheFirst(event: FetchEvent): Promise<Response> {
    const hit = await fromShell(event.request);
    if (hit) return hit;
    const response = await fetch(event.request);
    if (isStorableResponse(response)) {
      const copy = response.clone();
      event.waitUntil(
        caches
          .open(names.shell)
          .then((shell) => shell.put(event.request, copy))
          .catch(() => undefined),
      );
    }
    return response;
  }

  async function storePage(request: Request, response: Response): Promise<void> {
    const pages = await caches.open(names.pages);
    await pages.put(request.url, response);
    const keys = await pages.keys();
    // Keys come back in insertion order: the oldest stored pages go first.
    await Promise.all(keys.slice(0, overflow(keys.length)).map((key) => pages.delete(key)));
  }

  /** Pages: the network; when it fails, the stored copy of that URL, else the offline page. */
  async function networkFirstPage(event: FetchEvent): Promise<Response> {
    const { request } = event;
    try {
      const response = await fetch(request);
      if (isStorableResponse(response)) {
        event.waitUntil(storePage(request, response.clone()).catch(() => undefined));
      } else if (response.status === 404 || response.status === 410) {
        event.waitUntil(caches.open(names.pages).then((pages) => pages.delete(request.url)));
      }
      return response;
    } catch (error) {
      const pages = await caches.open(names.pages);
      const stored = await pages.match(request.url, { ignoreVary: true });
      if (stored) return stored;
      const offline = offlineUrlFor(new URL(request.url).pathname, config);
      const fallback = offline ? await fromShell(offline) : undefined;
      if (fallback) return fallback;
      throw error;
    }
  }

  /** Other same-origin files: the network, never stored; a precached copy only when offline. */
  async function networkElsePrecache(request: Request): Promise<Response> {
    try {
      return await fetch(request);
    } catch (error) {
      const hit = await fromShell(request);
      if (hit) return hit;
      throw error;
    }
  }

  sw.addEventListener('fetch', (event) => {
    const strategy: Strategy = decide(event.request, sw.location.origin);
    if (strategy === 'cache-first') event.respondWith(cacheFirst(event));
    else if (strategy === 'network-first-page') event.respondWith(networkFirstPage(event));
    else if (strategy === 'network-only' && precached.has(withoutHash(event.request.url))) {
      event.respondWith(networkElsePrecache(event.request));
    }
    // Anything else (including 'network-only' for files not precached): the browser's own
    // network handling, as if there were no worker.
  });
}

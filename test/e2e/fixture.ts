// The one lifecycle of the browser tests. A test file calls `setupSite()` once at its top: that
// registers the hooks which launch one Chromium for the file (Debian's headless shell, the flags
// of scripts/chromium.ts), start the file's own production server when it asks for one (users,
// environment, an SMTP server, a CMS stand-in, seeded data), open contexts and pages with the
// common options, sign users in, and close and stop everything afterwards — a context or an extra
// server made during a test when that test ends, the rest when the file ends, even when a test or
// a hook failed. `setupServer()` adds another server to a describe block.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { CHROMIUM_ARGS, testBrowserPath } from '../../scripts/chromium.ts';
import { launchServer, type LaunchedServer } from '../../scripts/launch-server.ts';
import type { Role } from '../../shared/user.ts';
import type { TestSmtp } from '../helpers/smtp.ts';
import { ROLE_PASSWORD } from './helpers.ts';
import { scaled } from '../helpers/time-scale.ts';

/** A phone and a laptop: the two widths most pages are checked at. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 768 };

/** A user the file's server starts with, created with the ops command line (`npm run user -- add`). */
export type SiteUser = {
  userName: string;
  role: Role;
  name?: string;
  lastName?: string;
  email?: string;
  /** Else the spec's `password`, else ROLE_PASSWORD. */
  password?: string;
};

/** A running stand-in of a service the server talks to (a fake CMS). */
export type Service = { url: string; stop: () => Promise<void> };

export type ServerSpec = {
  /** Environment over the launcher's defaults (production, a fresh SESSION_SECRET, a free port). */
  env?: Record<string, string>;
  users?: readonly SiteUser[];
  /** The password of the users that have none of their own; ROLE_PASSWORD by default. */
  password?: string;
  /** A real SMTP server in the test process (test/helpers/smtp.ts), given to the site as SMTP_URL. */
  smtp?: boolean;
  /** A CMS stand-in, started first and given to the site as CMS_URL. */
  cms?: () => Promise<Service>;
  /** Fills the data directory (after the users are created) before the server starts. */
  seed?: (dataDir: string) => Promise<void> | void;
};

export type Server = {
  readonly baseURL: string;
  readonly dataDir: string;
  /** The SMTP server of a spec with `smtp: true`. */
  readonly smtp: TestSmtp;
  /** The password `userName` was created with. */
  passwordOf(userName: string): string;
  stop(): Promise<void>;
};

export type PageOptions = BrowserContextOptions & {
  /** The server the context browses (its baseURL); the file's by default. */
  server?: Server;
  /** A visitor who has answered the cookie banner (analytics refused): the banner covers nothing. */
  consent?: boolean;
  /** For axe-core (runAxe): reduced motion, so that no element is measured halfway through a fade. */
  axe?: boolean;
  /** Signed in as this user of the server (one login through the form per user and file). */
  as?: string;
};

export type SignInOptions = PageOptions & {
  /** The login page; `/en/login` by default. */
  loginPath?: string;
};

export type Site = Server & {
  readonly browser: Browser;
  /** A context with the common options (see contextOptions), closed when the test ends. */
  newContext(options?: PageOptions): Promise<BrowserContext>;
  /** A page in a context of its own (newContext). */
  newPage(options?: PageOptions): Promise<Page>;
  /** A page in a context of its own, signed in as `userName` through the login form (consent given). */
  signIn(userName: string, options?: SignInOptions): Promise<Page>;
  /** A storage state signed in as `userName` (one login per user and server in the file). */
  signedInState(userName: string, server?: Server): Promise<StorageState>;
  /** Another server, stopped when the test (or, outside a test, the file) ends. */
  startServer(spec?: ServerSpec): Promise<Server>;
};

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

// ---------------------------------------------------------------------------------------------
// Hydration.

/**
 * Whether React has hydrated the whole page, or what it still waits for: hydrated, the root has
 * committed its hydration, and every element under #root belongs to React (it carries React's
 * fiber). A part still waiting for its chunk or for a streamed answer (a Suspense boundary the
 * server rendered) has elements without one; markup React does not own (dangerouslySetInnerHTML,
 * the resource hints and scripts the server streams in) is not looked into. The app itself marks
 * nothing when hydration is done (the `js` class on <html> comes from an inline script of the
 * server's, before the first paint), so this reads React's own bookkeeping. Runs in the page (a
 * function of its own: the site's CSP forbids evaluating strings); `ask` 'done' answers whether
 * the page has hydrated, 'why' what it still waits for (null: nothing).
 */
function hydration(ask: 'done' | 'why'): boolean | string | null {
  const answer = (why: string | null) => (ask === 'done' ? why === null : why);
  const root = document.getElementById('root') as (HTMLElement & Record<string, unknown>) | null;
  if (!root) return answer('the page has no #root');
  const containerKey = Object.keys(root).find((key) => key.startsWith('__reactContainer$'));
  if (!containerKey) return answer('React has not started on #root');
  const fiber = root[containerKey] as { stateNode?: { current?: { memoizedState?: { isDehydrated?: boolean } } } } | undefined;
  if (fiber?.stateNode?.current?.memoizedState?.isDehydrated !== false) return answer('React has not committed the hydration of #root');
  const suffix = containerKey.slice('__reactContainer$'.length);
  const fiberKey = `__reactFiber$${suffix}`;
  const propsKey = `__reactProps$${suffix}`;
  const unowned = (element: Element): Element | null => {
    for (const child of element.children) {
      if (!(fiberKey in child)) {
        // Resource hints and scripts the server streams into the body are not React's to hydrate.
        if (['LINK', 'META', 'TITLE', 'STYLE', 'SCRIPT', 'NOSCRIPT'].includes(child.tagName)) continue;
        return child;
      }
      const props = (child as unknown as Record<string, { dangerouslySetInnerHTML?: unknown } | undefined>)[propsKey];
      const inner = props?.dangerouslySetInnerHTML ? null : unowned(child);
      if (inner) return inner;
    }
    return null;
  };
  const waiting = unowned(root);
  return answer(waiting ? `not hydrated yet: ${waiting.outerHTML.slice(0, 120)}` : null);
}

/**
 * Waits until React has hydrated the whole page (see hydration): its handlers run from then on.
 * A navigation meanwhile (a reload, a redirect) starts the wait again on the new document.
 */
export async function waitForHydration(page: Page, options: { timeout?: number } = {}): Promise<void> {
  const timeout = scaled(options.timeout ?? 15_000);
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      await page.waitForFunction(hydration, 'done' as const, { polling: 20, timeout: Math.max(1, deadline - Date.now()) });
      return;
    } catch (error) {
      const navigated = /Execution context was destroyed|navigat/i.test(String(error));
      if (navigated && Date.now() < deadline && !page.isClosed()) continue;
      const why = await page.evaluate(hydration, 'why' as const).catch(() => 'the page could not be read');
      throw new Error(`${page.url()} did not hydrate within ${timeout} ms (${why})`, { cause: error });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// axe-core.

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Evaluates axe-core in the page and runs it, on `selector` if given, once nothing in the page is
 * busy loading. Evaluated through the DevTools protocol, it is not a script of the page: the
 * site's CSP (scripts carrying the request's nonce only) stays on, so the page is checked as it
 * is served.
 */
export async function runAxe(page: Page, selector?: string): Promise<AxeResults> {
  // A region still loading (aria-busy: the console fades it while its list is fetched) is judged
  // once it has loaded; one that never settles is judged as it is.
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, { timeout: scaled(5_000) })
    .catch(() => undefined);
  await page.evaluate(AXE_SOURCE);
  return page.evaluate((context) => {
    type Options = { resultTypes: string[] };
    const axe = (window as unknown as { axe: { run: (context: string | Document, options: Options) => Promise<AxeResults> } }).axe;
    // Only violations are read: axe then keeps one node per passing rule instead of every one.
    return axe.run(context ?? document, { resultTypes: ['violations'] });
  }, selector ?? null);
}

// ---------------------------------------------------------------------------------------------
// Servers.

/** Server processes still running: killed if the test process exits without stopping them. */
const running = new Set<LaunchedServer>();
process.once('exit', () => {
  for (const server of running) server.child.kill('SIGKILL');
});

/** Creates the users in a data directory with the ops command line (its own code, in this process). */
async function addUsers(dataDir: string, users: readonly SiteUser[], password: string): Promise<void> {
  if (users.length === 0) return;
  const { run: opsCli } = await import('../../scripts/user.ts');
  for (const user of users) {
    const args = ['add', '--userName', user.userName, '--password', user.password ?? password, '--role', user.role];
    args.push('--name', user.name ?? 'Test', '--lastName', user.lastName ?? 'User');
    if (user.email) args.push('--email', user.email);
    await opsCli(args, dataDir, () => undefined);
  }
}

/** Starts a production server (from the run's build) as `spec` asks; stop() stops what it started. */
export async function startServer(spec: ServerSpec = {}): Promise<Server> {
  const stops: (() => Promise<unknown>)[] = [];
  const stopAll = async () => {
    const errors: unknown[] = [];
    for (const stop of stops.splice(0).reverse()) await stop().catch((error: unknown) => errors.push(error));
    if (errors.length) throw errors.length === 1 ? errors[0] : new AggregateError(errors, 'Stopping a test server failed');
  };
  try {
    const dataDir = mkdtempSync(join(tmpdir(), 'e2e-site-'));
    stops.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const password = spec.password ?? ROLE_PASSWORD;
    const env = { ...spec.env };
    let smtp: TestSmtp | undefined;
    if (spec.smtp) {
      const { startSmtp } = await import('../helpers/smtp.ts');
      smtp = await startSmtp();
      stops.push(() => smtp!.stop());
      env.SMTP_URL = smtp.url;
    }
    if (spec.cms) {
      const cms = await spec.cms();
      stops.push(() => cms.stop());
      env.CMS_URL = cms.url;
    }
    await addUsers(dataDir, spec.users ?? [], password);
    await spec.seed?.(dataDir);
    const launched = await launchServer({ env, dataDir, startTimeoutMs: scaled(20_000) });
    running.add(launched);
    stops.push(async () => {
      await launched.stop();
      running.delete(launched);
    });
    return {
      baseURL: launched.url,
      dataDir,
      get smtp() {
        if (!smtp) throw new Error('This server has no SMTP server: start it with { smtp: true }');
        return smtp;
      },
      passwordOf: (userName) => spec.users?.find((u) => u.userName === userName)?.password ?? password,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll().catch(() => undefined);
    throw error;
  }
}

/** The server the global setup started for the whole run (shared: tests must not change its data). */
const SHARED: Server = {
  get baseURL() {
    return inject('baseURL');
  },
  get dataDir(): string {
    throw new Error('The shared server of the run has no data directory of the test file: setupSite({ … }) starts one');
  },
  get smtp(): TestSmtp {
    throw new Error('The shared server of the run has no SMTP server: setupSite({ smtp: true }) starts one');
  },
  passwordOf: () => ROLE_PASSWORD,
  stop: async () => undefined,
};

/** A live view of a server started in a hook: its fields are read when a test runs. */
function lazyServer(get: () => Server): Server {
  return {
    get baseURL() {
      return get().baseURL;
    },
    get dataDir() {
      return get().dataDir;
    },
    get smtp() {
      return get().smtp;
    },
    passwordOf: (userName) => get().passwordOf(userName),
    stop: () => get().stop(),
  };
}

const START_TIMEOUT_MS = scaled(120_000);
const STOP_TIMEOUT_MS = scaled(60_000);

/** Another server for the describe block it is called in: started before its tests, stopped after. */
export function setupServer(spec: ServerSpec = {}): Server {
  let server: Server | undefined;
  beforeAll(async () => {
    server = await startServer(spec);
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop();
  }, STOP_TIMEOUT_MS);
  return lazyServer(() => {
    if (!server) throw new Error('setupServer(): the server has not started (its beforeAll failed or has not run)');
    return server;
  });
}

// ---------------------------------------------------------------------------------------------
// The browser and the file's site.

/**
 * Context options every test starts from: a Spanish browser, so that the bare root `/` shows the
 * default locale (Spanish) instead of redirecting to the visitor's language; 1280×900.
 */
function contextOptions(baseURL: string, extra: BrowserContextOptions = {}): BrowserContextOptions {
  return { baseURL, locale: 'es-ES', viewport: { width: 1280, height: 900 }, ...extra };
}

function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: testBrowserPath(), args: [...CHROMIUM_ARGS] });
}

/**
 * The lifecycle of a test file: one browser, and the server `spec` describes (its own; without a
 * spec, the run's shared server). Call it once, at the top of the file.
 */
export function setupSite(spec?: ServerSpec): Site {
  let browser: Browser | undefined;
  let own: Server | undefined;
  /**
   * What a test opened or started, released when it ends (when the last of concurrent tests
   * ends); what the file's hooks opened goes when the file ends.
   */
  let testsRunning = 0;
  const perTest: (() => Promise<unknown>)[] = [];
  const perFile: (() => Promise<unknown>)[] = [];
  const release = (item: () => Promise<unknown>) => (testsRunning > 0 ? perTest : perFile).push(item);
  const javaScriptOff = new WeakSet<BrowserContext>();
  const states = new Map<string, Promise<StorageState>>();

  beforeAll(async () => {
    const launching = launchBrowser();
    const starting = spec ? startServer(spec) : Promise.resolve(undefined);
    const [launched, started] = await Promise.allSettled([launching, starting]);
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'fulfilled') own = started.value;
    if (launched.status === 'rejected') throw launched.reason;
    if (started.status === 'rejected') throw started.reason;
  }, START_TIMEOUT_MS);
  beforeEach(() => {
    testsRunning++;
  });
  afterEach(async () => {
    if (--testsRunning === 0) await releaseAll(perTest);
  });
  afterAll(async () => {
    // What the file's hooks opened, then the browser, then the file's server.
    await releaseAll([async () => own?.stop(), async () => browser?.close(), ...perFile]);
  }, STOP_TIMEOUT_MS);

  const server = (): Server => {
    if (!spec) return SHARED;
    if (!own) throw new Error('setupSite(): the server has not started (its beforeAll failed or has not run)');
    return own;
  };
  const theBrowser = (): Browser => {
    if (!browser) throw new Error('setupSite(): the browser has not been launched (its beforeAll failed or has not run)');
    return browser;
  };

  async function newContext(options: PageOptions = {}): Promise<BrowserContext> {
    const { server: on = site, consent, axe, as, ...rest } = options;
    const baseURL = on.baseURL;
    const storageState = as ? await signedInState(as, on) : undefined;
    const context = await theBrowser().newContext(
      contextOptions(baseURL, {
        ...(axe ? { reducedMotion: 'reduce' } : {}),
        ...(storageState ? { storageState } : {}),
        ...rest,
      }),
    );
    // Playwright's own 30 s for an action or a navigation, scaled like every deadline of the tests.
    context.setDefaultTimeout(scaled(30_000));
    release(() => context.close());
    if (rest.javaScriptEnabled === false) javaScriptOff.add(context);
    if (consent) await context.addCookies([{ name: 'cookie_consent', value: 'v1:analytics=0', url: baseURL }]);
    return context;
  }

  async function newPage(options: PageOptions = {}): Promise<Page> {
    return (await newContext(options)).newPage();
  }

  async function signIn(userName: string, options: SignInOptions = {}): Promise<Page> {
    const { loginPath = '/en/login', ...pageOptions } = options;
    const page = await newPage({ consent: true, ...pageOptions });
    await page.goto(loginPath);
    if (!javaScriptOff.has(page.context())) await waitForHydration(page);
    await page.locator('#login-identifier').fill(userName);
    await page.locator('#login-password').fill((options.server ?? site).passwordOf(userName));
    await page.locator('main form button[type="submit"]').click();
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
    return page;
  }

  function signedInState(userName: string, on: Server = site): Promise<StorageState> {
    const key = `${on.baseURL} ${userName}`;
    let state = states.get(key);
    if (!state) {
      state = (async () => {
        const page = await signIn(userName, { server: on });
        try {
          return await page.context().storageState();
        } finally {
          await page.context().close();
        }
      })();
      states.set(key, state);
      state.catch(() => states.delete(key));
    }
    return state;
  }

  async function startExtraServer(extra: ServerSpec = {}): Promise<Server> {
    const started = await startServer(extra);
    release(() => started.stop());
    return started;
  }

  const site: Site = {
    get baseURL() {
      return server().baseURL;
    },
    get dataDir() {
      return server().dataDir;
    },
    get smtp() {
      return server().smtp;
    },
    get browser() {
      return theBrowser();
    },
    passwordOf: (userName) => server().passwordOf(userName),
    stop: () => server().stop(),
    newContext,
    newPage,
    signIn,
    signedInState,
    startServer: startExtraServer,
  };
  return site;
}

/** Runs every release, the last acquired first, even after one fails; the failures are thrown together at the end. */
async function releaseAll(items: (() => Promise<unknown>)[]): Promise<void> {
  const errors: unknown[] = [];
  for (const item of items.splice(0).reverse()) {
    try {
      await item();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length) throw errors.length === 1 ? errors[0] : new AggregateError(errors, 'Closing the browser tests’ resources failed');
}

// Shared pieces of the browser tests: the system Chromium (never a downloaded one), the list of
// public pages, and waiting for hydration.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS, testBrowserPath } from '../../scripts/chromium.ts';
import { launchServer } from '../../scripts/launch-server.ts';

export function baseURL(): string {
  return inject('baseURL');
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: testBrowserPath(),
    args: [...CHROMIUM_ARGS],
  });
}

/**
 * Context options every test starts from. A Spanish browser, so that the bare root `/` shows
 * the default locale instead of redirecting to the visitor's language (DESIGN.md §3).
 */
export function contextOptions(extra: BrowserContextOptions = {}): BrowserContextOptions {
  return { baseURL: baseURL(), locale: 'es-ES', viewport: { width: 1280, height: 900 }, ...extra };
}

export type PublicPage = {
  path: string;
  locale: 'es' | 'en';
  status: number;
  /** Text the page's h1 must contain. */
  h1?: string | RegExp;
};

/** A post that exists in both locales (content/blog/<slug>/{es,en}.md). */
export const BLOG_SLUG = 'web-accessibility-2026';

const LEGAL = ['/cookies', '/legal', '/privacy', '/responsible'];

/** Every public page in both locales (the route table's public routes), plus an unknown path. */
export const PUBLIC_PAGES: readonly PublicPage[] = [
  { path: '/', locale: 'es', status: 200 },
  { path: '/es', locale: 'es', status: 200 },
  { path: '/en', locale: 'en', status: 200 },
  { path: '/blog', locale: 'es', status: 200, h1: 'Blog' },
  { path: '/en/blog', locale: 'en', status: 200, h1: 'Blog' },
  { path: `/blog/${BLOG_SLUG}`, locale: 'es', status: 200, h1: /accesibilidad web/ },
  { path: `/en/blog/${BLOG_SLUG}`, locale: 'en', status: 200, h1: /web accessibility/ },
  { path: '/Contact', locale: 'es', status: 200 },
  { path: '/en/Contact', locale: 'en', status: 200 },
  ...LEGAL.map((path) => ({ path, locale: 'es' as const, status: 200 })),
  ...LEGAL.map((path) => ({ path: `/en${path}`, locale: 'en' as const, status: 200 })),
  { path: '/login', locale: 'es', status: 200 },
  { path: '/en/login', locale: 'en', status: 200 },
  { path: '/notFound', locale: 'es', status: 404, h1: 'No se ha encontrado esta página' },
  { path: '/en/does-not-exist', locale: 'en', status: 404, h1: 'This page could not be found' },
];

/** Waits for the client entry to run (it adds `js` to <html>) and the network to settle. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.classList.contains('js'));
  await page.waitForLoadState('networkidle');
}

/**
 * Console errors and warnings and uncaught page errors, as readable lines. Chromium logs every
 * document answered with an error status ("Failed to load resource: ... 404"); pass that status
 * when the page is meant to answer it (the 404 page), so that only that one line is forgiven.
 */
export function collectProblems(page: Page, options: { documentStatus?: number } = {}): string[] {
  const problems: string[] = [];
  const expectedDocumentError = options.documentStatus && options.documentStatus >= 400 ? `status of ${options.documentStatus} ` : null;
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      const { url, lineNumber } = message.location();
      const isDocument = url !== undefined && url === page.url() && message.text().startsWith('Failed to load resource');
      if (expectedDocumentError && isDocument && message.text().includes(expectedDocumentError)) return;
      problems.push(`console.${message.type()}: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.stack ?? error.message}`));
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Helpers of the client-runtime tests (transition, loading, prefetch, chunk reload, consent…).

/** The repository root (the production server runs from dist/ there). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Each page's lazy chunk, e.g. { blog: '/assets/blog-XXXX.js' }, from the build's manifest. */
export function pageChunks(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'dist', 'client', 'manifest.json'), 'utf8')) as {
    pages: Record<string, { file: string }>;
  };
  return Object.fromEntries(Object.entries(manifest.pages).map(([page, { file }]) => [page, file]));
}

export type ServerInstance = { baseURL: string; dataDir: string; stop: () => Promise<void> };

/**
 * A second production server (like the global setup's, from the same build) with extra
 * environment, e.g. analytics ids, and its own data directory (made here unless given, and
 * removed by stop()). For the tests that need a configuration or data the shared server lacks.
 */
export async function startServer(env: Record<string, string> = {}, dataDir?: string): Promise<ServerInstance> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'e2e-extra-'));
  const server = await launchServer({ env, dataDir: dir });
  return {
    baseURL: server.url,
    dataDir: dir,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs the ops CLI (`node scripts/user.ts …`) against a data directory. */
export function userCli(dataDir: string, args: string[]): string {
  return execFileSync(process.execPath, [join(ROOT, 'scripts', 'user.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
}

// ---------------------------------------------------------------------------------------------
// Signed-in tests: one user of each role on a server of the test file's own.

export type RoleUser = { role: 'ADMIN' | 'CLI' | 'ORG' | 'CONS'; userName: string; name: string; lastName: string };

/** The password of every ROLE_USERS account. */
export const ROLE_PASSWORD = 'correct horse 1';

/** One user of each role (seed-spec §6). */
export const ROLE_USERS: readonly RoleUser[] = [
  { role: 'ADMIN', userName: 'ada', name: 'Ada', lastName: 'Lovelace' },
  { role: 'CLI', userName: 'carla', name: 'Carla', lastName: 'Cliente' },
  { role: 'ORG', userName: 'olga', name: 'Olga', lastName: 'Organización' },
  { role: 'CONS', userName: 'ernesto', name: 'Ernesto', lastName: 'Experto' },
];

/** A server of its own whose database holds ROLE_USERS (created with the ops CLI). */
export async function startServerWithRoleUsers(): Promise<ServerInstance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-roles-'));
  for (const user of ROLE_USERS) {
    userCli(dataDir, [
      'add',
      '--userName',
      user.userName,
      '--password',
      ROLE_PASSWORD,
      '--role',
      user.role,
      '--name',
      user.name,
      '--lastName',
      user.lastName,
    ]);
  }
  return startServer({}, dataDir);
}

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * Signs `user` in through the login form (with JavaScript) on `siteURL`, as a visitor who has
 * answered the cookie banner, and returns the cookies to start signed-in contexts from
 * (`contextOptions({ storageState })`): one login per role and file, not one per test.
 */
export async function signedInState(browser: Browser, siteURL: string, user: RoleUser): Promise<StorageState> {
  const context = await browser.newContext(contextOptions({ baseURL: siteURL }));
  try {
    await context.addCookies([{ name: 'cookie_consent', value: 'v1:analytics=0', url: siteURL }]);
    const page = await context.newPage();
    await page.goto('/en/login');
    await waitForHydration(page);
    await page.locator('#login-identifier').fill(user.userName);
    await page.locator('#login-password').fill(ROLE_PASSWORD);
    await page.locator('main form').getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
    return await context.storageState();
  } finally {
    await context.close();
  }
}

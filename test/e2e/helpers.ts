// Shared pieces of the browser tests: the system Chromium (never a downloaded one), the list of
// public pages, and waiting for hydration.
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export function baseURL(): string {
  return inject('baseURL');
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
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

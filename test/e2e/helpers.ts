// Shared data and small helpers of the browser tests: the list of public pages, the console's
// problems, the build's page chunks, and one user of each role. The lifecycle (browser, servers,
// contexts, sign-in, hydration) is the fixture's: test/e2e/fixture.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

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

/** The repository root (the production server runs from dist/ there). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Each page's lazy chunk, e.g. { blog: '/assets/blog-XXXX.js' }, from the build's manifest. */
export function pageChunks(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'dist', 'client', 'manifest.json'), 'utf8')) as {
    pages: Record<string, { file: string }>;
  };
  return Object.fromEntries(Object.entries(manifest.pages).map(([page, { file }]) => [page, file]));
}

// ---------------------------------------------------------------------------------------------
// Signed-in tests: one user of each role (setupSite({ users: ROLE_USERS })).

export type RoleUser = { role: 'ADMIN' | 'CLI' | 'ORG' | 'CONS'; userName: string; name: string; lastName: string };

/** The password of every ROLE_USERS account (the fixture's default password). */
export const ROLE_PASSWORD = 'correct horse 1';

/** One user of each role: an administrator, a client, an organisation and an expert. */
export const ROLE_USERS: readonly RoleUser[] = [
  { role: 'ADMIN', userName: 'ada', name: 'Ada', lastName: 'Lovelace' },
  { role: 'CLI', userName: 'carla', name: 'Carla', lastName: 'Cliente' },
  { role: 'ORG', userName: 'olga', name: 'Olga', lastName: 'Organización' },
  { role: 'CONS', userName: 'ernesto', name: 'Ernesto', lastName: 'Experto' },
];

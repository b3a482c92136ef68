// Shared data and small helpers of the browser tests: the list of every page, the console's
// problems, the build's page chunks, and one user of each role. The lifecycle (browser, servers,
// contexts, sign-in, hydration) is the fixture's: test/e2e/fixture.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { databaseFile, openDatabase } from '../../server/db/index.ts';
import { seedDemoProjects } from '../../server/projects/demo.ts';
import type { Locale } from '../../shared/locales.ts';
import type { RouteBase } from '../../shared/routes.ts';
import type { Role } from '../../shared/user.ts';
import { NOT_FOUND_H1, samplePages } from '../helpers/sample-urls.ts';
import type { ServerSpec } from './fixture.ts';

export { BLOG_SLUG } from '../helpers/sample-urls.ts';

/** A page as a browser test opens it. */
export type PageVisit = {
  /** The route it is a page of; undefined: an address no route matches. */
  base: RouteBase | undefined;
  path: string;
  locale: Locale;
  /** Who is signed in (SAMPLE_SITE's user of that role); undefined: a signed-out visitor. */
  role: Role | undefined;
  status: number;
  /** Text the page's h1 must contain. */
  h1?: string | RegExp | undefined;
  /** Who visits, in words, for the tests' names: "signed out" or "signed in as CLI". */
  visitor: string;
};

/**
 * Every page of the route table in each locale the site links, as its sample's role sees it
 * (test/helpers/sample-urls.ts: a new route is in this list by itself), plus an unknown path.
 * Open them on a SAMPLE_SITE server: it has the users and the projects the samples name.
 */
function visitorOf(role: Role | undefined): string {
  return role ? `signed in as ${role}` : 'signed out';
}

export const EVERY_PAGE: readonly PageVisit[] = [
  ...samplePages().map(({ base, url, locale, role, status, h1 }) => ({
    base,
    path: url,
    locale,
    role,
    status,
    h1,
    visitor: visitorOf(role),
  })),
  {
    base: undefined,
    path: '/en/does-not-exist',
    locale: 'en',
    role: undefined,
    status: 404,
    h1: NOT_FOUND_H1.en,
    visitor: visitorOf(undefined),
  },
];

/** axe-core's violations as readable lines: rule, impact, help, and each node with why it fails. */
export function describeViolations(results: AxeResults): string {
  return results.violations
    .map(
      (v) =>
        `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(' ')}\n    ${(n.failureSummary ?? '').replace(/\n/g, '\n    ')}`).join('\n')}`,
    )
    .join('\n');
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

/** The user name of ROLE_USERS' user of `role`. */
export function userOf(role: Role): string {
  return ROLE_USERS.find((user) => user.role === role)!.userName;
}

/** A server with what the page samples need: one user of each role, and the demo projects they open. */
export const SAMPLE_SITE: ServerSpec = {
  users: ROLE_USERS,
  seed: async (dataDir) => {
    const db = await openDatabase({ file: databaseFile(dataDir), poolMax: 1 });
    try {
      await seedDemoProjects(db, { admin: userOf('ADMIN'), client: userOf('CLI'), org: userOf('ORG'), expert: userOf('CONS') });
    } finally {
      await db.close();
    }
  },
};

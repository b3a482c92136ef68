// `npm run screenshots`: full-page PNGs of every page, for looking at the site with one's own
// eyes (layout, overflow, colours, dates) instead of asserting on it.
//
// Builds when dist/ is stale, starts the production server (dist/server/main.js, as `npm start`
// runs it) on a free loopback port with a throw-away DATA_DIR holding one user per role, a
// project in every state (server/projects/demo.ts), a contact message and a branding for the
// client user, then drives Debian's Chromium (/usr/bin/chromium: never a downloaded browser)
// through playwright-core.
//
// Output: screenshots/<width>/<light|dark>/<guest|ADMIN|CLI|ORG|CONS>/<locale>-<page>.png (the
// folder is emptied first and git-ignored), plus <locale>-home-banner.png (the cookie banner, as the
// window shows it) and, on the phone, <locale>-<page>-menu.png (the burger menu open). One line
// per file, then the count. A line ends with a note when something is worth a look: the page
// or a box in it scrolls sideways (content hidden past the edge of a full-page picture), or the
// page answered another status or URL than planned. Each page's HTML as the server sent it is
// kept beside its picture (<locale>-<page>.html), for an HTML checker.
//
// Filter: `npm run screenshots -- --only 390/dark/ADMIN` keeps the shots whose file path
// contains one of the given strings (repeat --only for more).
//
// The plan (planShots) is plain data over five dimensions: viewport, theme, who, locale and
// page. A theme's context prefers it (colorScheme) and has chosen it (the `theme` cookie), so
// the server renders the page in it (docs/decisions/023).
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CONSENT_COOKIE, serializeConsent } from '../shared/consent.ts';
import { THEME_COOKIE, THEMES, type Theme } from '../shared/theme.ts';
import { LOCALE_CODES, localeHref, type Locale } from '../shared/locales.ts';
import { ROLES, type Role } from '../shared/user.ts';
import { isBuildStale, ROOT } from './build-state.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { launchServer } from './launch-server.ts';
import { databaseFile, openDatabase } from '../server/db/index.ts';
import { seedDemoProjects } from '../server/projects/demo.ts';

const OUT = join(ROOT, 'screenshots');

// ---------------------------------------------------------------------------------------------
// The plan.

type Viewport = { width: number; height: number; mobile: boolean };
/** A laptop and a phone (iPhone 12–15 size): the two layouts of the navbar (burger < 1023 px). */
const VIEWPORTS: readonly Viewport[] = [
  { width: 1366, height: 900, mobile: false },
  { width: 390, height: 844, mobile: true },
];

type Who = 'guest' | Role;

/** What the page is in, beyond its URL: the cookie banner up, or the burger menu open. */
type Variant = 'plain' | 'banner' | 'menu';

/**
 * Whether a variant is shot full-page. The banner is `position: fixed` at the bottom of the
 * window: a full-page capture paints it where the first window ended, over the middle of the
 * page, which is not what anybody sees. So the banner is shot as the window shows it.
 */
const FULL_PAGE: Readonly<Record<Variant, boolean>> = { plain: true, banner: false, menu: true };

type Shot = {
  viewport: Viewport;
  theme: Theme;
  who: Who;
  locale: Locale;
  /** The name in the file: home, blog, post, contact, legal-cookies, admin… */
  page: string;
  /** The path without locale prefix; Spanish (the default locale) uses it unprefixed. */
  path: string;
  variant: Variant;
  /** The status the page is meant to answer. */
  status: number;
};

/** A post that exists in both locales (content/blog/<slug>/{es,en}.md). */
const BLOG_SLUG = 'web-accessibility-2026';

type PageSpec = { page: string; path: string; status?: number; localized?: Partial<Record<Locale, string>> };

/** Every public page of the route table (shared/routes.ts), plus an unknown path. */
const PUBLIC_PAGES: readonly PageSpec[] = [
  { page: 'home', path: '/' },
  { page: 'blog', path: '/blog' },
  { page: 'post', path: `/blog/${BLOG_SLUG}` },
  { page: 'contact', path: '/Contact' },
  { page: 'legal-cookies', path: '/cookies' },
  { page: 'legal-legal', path: '/legal' },
  { page: 'legal-privacy', path: '/privacy' },
  { page: 'legal-responsible', path: '/responsible' },
  { page: 'login', path: '/login' },
  // The named 404 route in Spanish, an unknown path in English: both render the notFound page.
  { page: 'notFound', path: '/notFound', status: 404, localized: { es: '/notFound', en: '/does-not-exist' } },
];

/** Each role's own area (ROLE_AREA in shared/user.ts), where CLI, ORG and CONS land after login. */
const AREA_PATH: Readonly<Record<Role, string>> = { ADMIN: '/admin', CLI: '/client', ORG: '/organization', CONS: '/expert' };

/** The admin console's sections (shared/routes.ts adminSection), each its own page. */
const ADMIN_SECTIONS = ['projects', 'users', 'inbox', 'audit', 'deletions'] as const;

/** The private pages of a role; ADMIN also sees the home page signed in (the others are sent to their area). */
/**
 * The projects' pages of each role (ids of the demo projects, server/projects/demo.ts: 1 brief,
 * 2 proposal and 4 delivered are the client's; 3 active and 6 declined the organisation's, with
 * the expert on 3 and 4).
 */
const PROJECT_PAGES: Readonly<Record<Role, PageSpec[]>> = {
  ADMIN: [
    { page: 'project-brief', path: '/admin/projects/1' },
    { page: 'project-active', path: '/admin/projects/3' },
  ],
  CLI: [
    { page: 'project-new', path: '/client/projects/new' },
    { page: 'project-proposal', path: '/client/projects/2' },
    { page: 'project-delivered', path: '/client/projects/4' },
  ],
  ORG: [
    { page: 'project-new', path: '/organization/projects/new' },
    { page: 'project-active', path: '/organization/projects/3' },
    { page: 'project-declined', path: '/organization/projects/6' },
  ],
  CONS: [{ page: 'project-active', path: '/expert/projects/3' }],
};

function privatePages(role: Role): PageSpec[] {
  const area = AREA_PATH[role];
  return [
    ...(role === 'ADMIN' ? [{ page: 'home', path: '/' }] : []),
    { page: area.slice(1), path: area },
    // The console's own pages (its inbox with the demo's contact message).
    ...(role === 'ADMIN' ? ADMIN_SECTIONS.map((section) => ({ page: `admin-${section}`, path: `/admin/${section}` })) : []),
    ...PROJECT_PAGES[role],
    { page: 'profile', path: '/profile' },
    { page: 'changePassword', path: '/changePassword' },
  ];
}

/** Where a role lands after signing in: the page its burger-menu shot is taken on. */
function landingPage(role: Role): PageSpec {
  return role === 'ADMIN' ? { page: 'home', path: '/' } : { page: AREA_PATH[role].slice(1), path: AREA_PATH[role] };
}

/** Every shot, grouped so that one browser context serves consecutive shots (same viewport, theme, who). */
function planShots(): Shot[] {
  const shots: Shot[] = [];
  for (const viewport of VIEWPORTS) {
    for (const theme of THEMES) {
      const add = (who: Who, locale: Locale, spec: PageSpec, variant: Variant = 'plain') =>
        shots.push({
          viewport,
          theme,
          who,
          locale,
          page: spec.page,
          path: spec.localized?.[locale] ?? spec.path,
          variant,
          status: spec.status ?? 200,
        });
      for (const locale of LOCALE_CODES) for (const spec of PUBLIC_PAGES) add('guest', locale, spec);
      // The cookie banner as a first visit shows it (every other shot has answered it).
      add('guest', 'es', PUBLIC_PAGES[0]!, 'banner');
      if (viewport.mobile) add('guest', 'es', PUBLIC_PAGES[0]!, 'menu');
      for (const role of ROLES) {
        for (const locale of LOCALE_CODES) for (const spec of privatePages(role)) add(role, locale, spec);
        // Signed in, the menu holds the area link and the user menu: one shot per role.
        if (viewport.mobile) add(role, 'es', landingPage(role), 'menu');
      }
    }
  }
  return shots;
}

/** The URL path of a shot: Spanish unprefixed (the default locale), English under /en. */
function urlPath(shot: Pick<Shot, 'locale' | 'path'>): string {
  return localeHref(shot.path, shot.locale);
}

/** screenshots/<width>/<theme>/<who>/<locale>-<page>[-variant].png. */
function shotFile(shot: Shot): string {
  const suffix = shot.variant === 'plain' ? '' : `-${shot.variant}`;
  return join(OUT, String(shot.viewport.width), shot.theme, shot.who, `${shot.locale}-${shot.page}${suffix}.png`);
}

// ---------------------------------------------------------------------------------------------
// The server and its data.

type Server = { baseURL: string; dataDir: string; child: ChildProcess };

const PASSWORD = 'correct horse 1';
/** One user per role (the names the e2e tests use). */
const USERS: Readonly<Record<Role, { userName: string; name: string; lastName: string }>> = {
  ADMIN: { userName: 'ada', name: 'Ada', lastName: 'Lovelace' },
  CLI: { userName: 'carla', name: 'Carla', lastName: 'Cliente' },
  ORG: { userName: 'olga', name: 'Olga', lastName: 'Organización' },
  CONS: { userName: 'ernesto', name: 'Ernesto', lastName: 'Experto' },
};
/** Violet: far from the default teal, so that a branded navbar is told apart at a glance. */
const CLIENT_BRAND_COLOR = '#6d28d9';

/** A project in every state, with milestones, messages and a document (as `npm run seed:demo` makes). */
async function createProjects(dataDir: string): Promise<void> {
  const db = await openDatabase({ file: databaseFile(dataDir), poolMax: 1 });
  try {
    await seedDemoProjects(db, {
      admin: USERS.ADMIN.userName,
      client: USERS.CLI.userName,
      org: USERS.ORG.userName,
      expert: USERS.CONS.userName,
    });
  } finally {
    await db.close();
  }
}

/** Creates the users with the ops CLI, as an operator would (scripts/user.ts). */
function createUsers(dataDir: string): void {
  for (const role of ROLES) {
    const user = USERS[role];
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'scripts', 'user.ts'),
        'add',
        '--userName',
        user.userName,
        '--password',
        PASSWORD,
        '--role',
        role,
        '--name',
        user.name,
        '--lastName',
        user.lastName,
        '--email',
        `${user.userName}@example.com`,
      ],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
}

/** The production server as `npm start` runs it (the one launcher: its Node flags), on loopback, logging warnings only. */
async function startServer(dataDir: string): Promise<Server> {
  const server = await launchServer({ dataDir, startTimeoutMs: 30_000 });
  return { baseURL: server.url, dataDir, child: server.child };
}

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

// ---------------------------------------------------------------------------------------------
// The browser.

type Session = Awaited<ReturnType<BrowserContext['storageState']>>;

function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
}

/**
 * A context for one viewport, theme and visitor. A Spanish browser, so that the bare root
 * shows the default locale instead of redirecting to the browser's language. The theme is both
 * the system's preference and the visitor's choice (the `theme` cookie). With `consent`, the
 * cookie banner has been answered ("necessary only") and stays out of the picture.
 */
async function newContext(
  browser: Browser,
  baseURL: string,
  options: { viewport: Viewport; theme: Theme; session?: Session; consent: boolean },
): Promise<BrowserContext> {
  const { viewport } = options;
  const context = await browser.newContext({
    baseURL,
    locale: 'es-ES',
    colorScheme: options.theme,
    viewport: { width: viewport.width, height: viewport.height },
    isMobile: viewport.mobile,
    hasTouch: viewport.mobile,
    deviceScaleFactor: 1,
    ...(options.session ? { storageState: options.session } : {}),
  });
  await context.addCookies([
    { name: THEME_COOKIE, value: options.theme, url: baseURL },
    ...(options.consent ? [{ name: CONSENT_COOKIE, value: serializeConsent({ analytics: false }), url: baseURL }] : []),
  ]);
  return context;
}

/** Waits for the client entry to run (it adds `js` to <html>) and the network to settle. */
async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.classList.contains('js'));
  await page.waitForLoadState('networkidle');
}

/** Signs in through the login form and returns the cookies to open that user's contexts with. */
async function signIn(browser: Browser, baseURL: string, role: Role): Promise<Session> {
  const context = await newContext(browser, baseURL, { viewport: VIEWPORTS[0]!, theme: 'light', consent: true });
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await waitForHydration(page);
    await page.locator('#login-identifier').fill(USERS[role].userName);
    await page.locator('#login-password').fill(PASSWORD);
    await page.locator('main form button[type="submit"]').click();
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** The contact form refuses answers sent less than 3 s after the form was served (MIN_FILL_MS). */
const CONTACT_FILL_WAIT_MS = 3_200;

/** Sends one message through the public contact form, so that the admin's inbox is not empty. */
async function sendContactMessage(browser: Browser, baseURL: string): Promise<void> {
  const context = await newContext(browser, baseURL, { viewport: VIEWPORTS[0]!, theme: 'light', consent: true });
  try {
    const page = await context.newPage();
    await page.goto('/Contact');
    const servedAt = Date.now();
    await waitForHydration(page);
    await page.locator('#contact-name').fill('Lucía Fernández de la Fuente');
    await page.locator('#contact-email').fill('lucia.fernandez@example.com');
    await page.locator('#contact-subject').fill('Presupuesto para un proyecto de accesibilidad');
    await page
      .locator('#contact-message')
      .fill('Hola:\n\nquería pedir un presupuesto para revisar la accesibilidad de nuestra web.\n\nUn saludo, Lucía');
    await page.locator('#contact-consent').check();
    await sleep(Math.max(0, CONTACT_FILL_WAIT_MS - (Date.now() - servedAt)));
    const sent = page.waitForResponse((res) => res.request().method() === 'POST');
    await page.locator('main form button[type="submit"]').click();
    const response = await sent;
    if (response.status() >= 400) throw new Error(`The contact form answered ${response.status()}: ${await response.text()}`);
  } finally {
    await context.close();
  }
}

/** A 72×72 PNG logo drawn by the browser itself (no image file in the repository to keep). */
async function drawLogo(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: 72, height: 72 } });
  try {
    await page.setContent(
      `<div style="width:72px;height:72px;border-radius:18px;background:#fff;display:grid;place-items:center;` +
        `font:700 32px sans-serif;color:${CLIENT_BRAND_COLOR}">C</div>`,
    );
    return await page.locator('div').screenshot({ omitBackground: true });
  } finally {
    await page.close();
  }
}

/** The admin gives the client user a colour and a logo through the admin API, as the branding editor does. */
async function brandClient(browser: Browser, baseURL: string, adminSession: Session): Promise<void> {
  const logo = await drawLogo(browser);
  const context = await newContext(browser, baseURL, { viewport: VIEWPORTS[0]!, theme: 'light', session: adminSession, consent: true });
  try {
    // The API refuses cross-site writes: send the site's own Origin, as the browser would.
    const headers = { Origin: baseURL };
    const userName = USERS.CLI.userName;
    const colour = await context.request.put(`/api/admin/branding/${userName}`, { headers, data: { color: CLIENT_BRAND_COLOR } });
    if (!colour.ok()) throw new Error(`Setting the branding colour answered ${colour.status()}: ${await colour.text()}`);
    const image = await context.request.put(`/api/admin/branding/${userName}/logo`, {
      headers: { ...headers, 'Content-Type': 'image/png' },
      data: logo,
    });
    if (!image.ok()) throw new Error(`Uploading the branding logo answered ${image.status()}: ${await image.text()}`);
  } finally {
    await context.close();
  }
}

/**
 * Brings the page to the state worth a picture: hydrated, everything that loads on coming into
 * view loaded (the admin inbox, lazy images: scrolled through once), web fonts in, back at the top.
 */
async function settle(page: Page): Promise<void> {
  await waitForHydration(page);
  await page.evaluate(async () => {
    const step = Math.max(200, window.innerHeight - 100);
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    window.scrollTo(0, document.documentElement.scrollHeight);
  });
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    await document.fonts.ready;
    window.scrollTo(0, 0);
  });
}

/** Anything a reader of the list should look at: a sideways scroll, an unplanned status or URL. */
async function notesOn(page: Page, shot: Shot, status: number | undefined): Promise<string[]> {
  const notes: string[] = [];
  if (status !== shot.status) notes.push(`status ${status}, planned ${shot.status}`);
  const landed = new URL(page.url()).pathname;
  if (landed !== urlPath(shot)) notes.push(`ended at ${landed}`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width > shot.viewport.width) notes.push(`scrolls sideways: ${width} px wide`);
  // A box that scrolls on its own (e.g. a table in `overflow-x: auto`) keeps the page narrow,
  // but what is past its edge is missing from the picture.
  const boxes = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}${[...el.classList].map((c) => `.${c}`).join('')} ${el.scrollWidth}/${el.clientWidth} px`),
  );
  for (const box of boxes) notes.push(`box scrolls sideways: ${box}`);
  return notes;
}

/** Opens the page of a shot, puts it in its variant, and writes the full-page PNG. */
async function takeShot(context: BrowserContext, shot: Shot): Promise<string[]> {
  const page = await context.newPage();
  try {
    const response = await page.goto(urlPath(shot));
    await settle(page);
    if (shot.variant === 'banner') await page.locator('.cookie-banner').waitFor();
    if (shot.variant === 'menu') {
      const burger = page.locator('button.navbar-burger');
      await burger.click();
      await page.waitForFunction(() => document.querySelector('button.navbar-burger')?.getAttribute('aria-expanded') === 'true');
    }
    const notes = await notesOn(page, shot, response?.status());
    const file = shotFile(shot);
    mkdirSync(dirname(file), { recursive: true });
    // The HTML as the server sent it, beside the picture: for the Nu Html Checker (CONTRIBUTING.md, Checks).
    if (shot.variant === 'plain' && response) writeFileSync(file.replace(/\.png$/, '.html'), await response.text());
    await page.screenshot({ path: file, fullPage: FULL_PAGE[shot.variant], animations: 'disabled' });
    return notes;
  } finally {
    await page.close();
  }
}

/** Consecutive shots that share one context: same viewport, theme, visitor and banner state. */
function contextKey(shot: Shot): string {
  return `${shot.viewport.width}|${shot.theme}|${shot.who}|${shot.variant === 'banner' ? 'no-consent' : 'consent'}`;
}

// ---------------------------------------------------------------------------------------------

function parseOptions(): { only: string[] } {
  const { values } = parseArgs({ options: { only: { type: 'string', multiple: true } }, strict: true });
  return { only: values.only ?? [] };
}

async function main(): Promise<void> {
  const { only } = parseOptions();
  const shots = planShots().filter((shot) => only.length === 0 || only.some((part) => relative(OUT, shotFile(shot)).includes(part)));
  if (shots.length === 0) throw new Error(`--only ${only.join(', ')} matches no shot`);

  if (isBuildStale()) {
    console.log('building (dist/ is older than the sources)…');
    // Loaded only now: the build tools (esbuild) are not needed when dist/ is fresh.
    const { build } = await import('./build.ts');
    await build({ quiet: true });
  }
  rmSync(OUT, { recursive: true, force: true });

  const dataDir = mkdtempSync(join(tmpdir(), 'screenshots-data-'));
  let server: Server | undefined;
  let browser: Browser | undefined;
  // Ctrl-C: stop the server and remove the data before leaving (the browser dies with us).
  const onSignal = () => {
    server?.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    createUsers(dataDir);
    await createProjects(dataDir);
    server = await startServer(dataDir);
    browser = await launchBrowser();
    const { baseURL } = server;
    console.log(`server ${baseURL}, browser ${CHROMIUM_PATH}`);

    const sessions = new Map<Role, Session>();
    for (const role of ROLES) sessions.set(role, await signIn(browser, baseURL, role));
    await sendContactMessage(browser, baseURL);
    await brandClient(browser, baseURL, sessions.get('ADMIN')!);

    let context: BrowserContext | undefined;
    let openKey = '';
    let count = 0;
    for (const shot of shots) {
      const key = contextKey(shot);
      if (key !== openKey) {
        await context?.close();
        const session = shot.who === 'guest' ? undefined : sessions.get(shot.who);
        context = await newContext(browser, baseURL, {
          viewport: shot.viewport,
          theme: shot.theme,
          consent: shot.variant !== 'banner',
          ...(session ? { session } : {}),
        });
        openKey = key;
      }
      const notes = await takeShot(context!, shot);
      count++;
      console.log(`${relative(ROOT, shotFile(shot))}${notes.length ? `  (${notes.join('; ')})` : ''}`);
    }
    await context?.close();
    console.log(`${count} screenshots in ${relative(process.cwd(), OUT) || '.'}/`);
  } finally {
    await browser?.close();
    if (server) await stopServer(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});

// `npm run bench`: the production server under load, against a floor measured in the same run.
//
//   1. Builds for production (node scripts/build.ts) and bundles the floor (floor-server.tsx).
//   2. A temporary DATA_DIR with one user per role (the client `bench-client` branded) and the
//      demo's projects between them (harness.ts seedDashboards): each dashboard lists what a
//      small site's does.
//   3. Starts dist/server/main.js as ONE process (WEB_CONCURRENCY=1) with the Node flags of
//      `npm start` and the environment of the deploy files (scripts/server-flags.ts), pinned to core 0 with
//      taskset where it exists; the load generator (load.ts, autocannon) and this script run on
//      core 1. Cold start = spawn → first 200 from /healthz (and the server's own startupMs):
//      the median of BENCH_COLD_STARTS starts on the seeded data (a single start varies by
//      ±100 ms on a shared machine), the last of them the server measured below.
//   4. Signs each of them in through POST /login for their session cookie.
//   5. Captures the home page from the app and starts the floor beside it (a bare Express 5 +
//      renderToPipeableStream server rendering the same tree: floor-server.tsx), after checking
//      that it answers the very same HTML, and a second app with its render cache off
//      (RENDER_CACHE_MB=0, "home*"): the floor renders React for every request, so the budget
//      "home ≥ 50 % of the floor" compares home* with it. All on core 0, one loaded at a time.
//   6. For each page: a check (200), a warm-up, then a measured run: 50 connections,
//      `Accept-Encoding: identity` (uncompressed, as in the issue's reference figures, so the
//      app's compression middleware passes the body through). Home, home* and floor go back to back,
//      BENCH_ROUNDS times (best of each kept), then blog, a blog post, login and the four
//      dashboards (/client, /organization, /expert, /admin), each signed in as its user.
//      Server CPU from /proc/<pid>/stat, RSS polled from /proc/<pid>/status, and the CPU that
//      other processes took meanwhile from /proc/stat (a warning when the machine was busy).
//   7. With PostgreSQL installed, the same login and dashboards on a second app with
//      DATABASE_URL (a throw-away cluster, not pinned).
//   8. Prints a table and the budgets (PASS/FAIL), writes bench-results/bench-<time>.json and
//      bench-results/latest.json.
//
// Environment: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (3), BENCH_CONNECTIONS (50),
// BENCH_ROUNDS (2), BENCH_COLD_STARTS (5), BENCH_RETRIES (1: a run disturbed by other processes is measured again
// once the machine is quiet), BENCH_QUIET_WAIT_SECONDS (30), BENCH_LOG_LEVEL (info: the server's production default, one log line per
// request, written to a file), BENCH_NODE_ARGS (more Node flags for both servers, after those
// of `npm start`, e.g. "--max-semi-space-size=8"), BENCH_NO_BUILD=1 (reuse dist/), BENCH_STRICT=1 (exit 1 when a
// budget fails).
import { createTestDatabase, postgresBinDir, startPostgres } from '../../test/helpers/postgres.ts';
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { firstLoadJs, FIRST_LOAD_JS_BUDGET_BYTES, type FirstLoadJs } from './first-load-js.ts';
import {
  APP_SERVER,
  BENCH_PEOPLE,
  buildApp,
  CLK_TCK,
  cleanup,
  getText,
  installCleanup,
  makeTempDir,
  MANIFEST,
  PINNED,
  pinSelf,
  RESULTS,
  ROOT,
  runLoad,
  seedDashboards,
  signIn,
  startServer,
  startupMsFromLog,
  stopProcess,
  type Started,
} from './harness.ts';
import { serverEnvText, serverNodeFlags } from '../server-flags.ts';
import type { FloorPage } from './floor-server.tsx';
import type { LoadResult } from './load.ts';

const FLOOR_DIR = join(RESULTS, '.floor');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const STRICT = process.env.BENCH_STRICT === '1';
const NO_BUILD = process.env.BENCH_NO_BUILD === '1';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
/** A run disturbed by other processes is measured again this many times at most… */
const RETRIES = Math.max(0, Number(process.env.BENCH_RETRIES ?? 1));
/** …after waiting this long at most for the machine to be quiet (also before the first run). */
const QUIET_WAIT_SECONDS = Number(process.env.BENCH_QUIET_WAIT_SECONDS ?? 30);
/** Extra Node flags for the app and the floor, e.g. "--max-semi-space-size=4" (to try GC settings). */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
/** Starts whose median is the cold start (the last one is the server measured). */
const COLD_STARTS = Math.max(1, Number(process.env.BENCH_COLD_STARTS ?? 5));

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};

export const BUDGETS = {
  /** home* (render cache off) ÷ the floor: both render React per request. */
  homeVsFloor: 0.5,
  /** home as served (the render cache on) ÷ the floor: the cache must pay for itself three times over. */
  homeCachedVsFloor: 3,
  /** Each dashboard's throughput on PostgreSQL ÷ on SQLite, in the same run (within 20 %). */
  postgresVsSqlite: 0.8,
  /**
   * Each dashboard's server CPU per request ÷ /en/login's, on each engine: the private area
   * costs at most twice the public page that reads nothing (docs/decisions/032).
   */
  dashboardVsLogin: 2,
  p99Ms: 25,
  firstLoadJsGzipBytes: FIRST_LOAD_JS_BUDGET_BYTES,
  coldStartMs: 500,
  /** 150 MiB (VmRSS is counted in KiB). */
  rssBytes: 150 * 1024 * 1024,
};

const PASSWORD = `Bench-${randomBytes(6).toString('hex')}-9!`;
const CLIENT_COLOR = '#1d4ed8';

/** The dashboards measured, each signed in as its user (harness.ts BENCH_PEOPLE). */
const DASHBOARDS = [
  { name: 'client', path: '/client', userName: BENCH_PEOPLE.client },
  { name: 'organization', path: '/organization', userName: BENCH_PEOPLE.org },
  { name: 'expert', path: '/expert', userName: BENCH_PEOPLE.expert },
  { name: 'admin', path: '/admin', userName: BENCH_PEOPLE.admin },
] as const;
const DASHBOARD_NAMES: readonly string[] = DASHBOARDS.map((d) => d.name);

// ---------------------------------------------------------------------------------------------
// /proc: server CPU time and memory.

/** Linux: /proc gives CPU time and memory; elsewhere those columns read n/a (NaN). */
const HAS_PROC = existsSync('/proc/self/stat');

function cpuTicks(pid: number): number {
  if (!HAS_PROC) return NaN;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU ticks of the whole machine (all cores) from /proc/stat: busy (user to softirq) and stolen by the host. */
function machineTicks(): { busy: number; steal: number } {
  if (!HAS_PROC) return { busy: NaN, steal: NaN };
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  return { busy: user + nice + system + irq + softirq, steal };
}

function statusKb(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  if (!HAS_PROC) return NaN;
  const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : 0;
}

/** Polls VmRSS every 100 ms; `take()` returns the peak since the last take. */
export function rssSampler(pid: number) {
  let peakKb = 0;
  const sample = () => {
    try {
      peakKb = Math.max(peakKb, statusKb(pid, 'VmRSS'));
    } catch {
      // the process ended
    }
  };
  const timer = setInterval(sample, 100);
  return {
    take(): number {
      sample();
      const bytes = peakKb * 1024;
      peakKb = 0;
      return bytes;
    },
    stop: () => clearInterval(timer),
  };
}

// ---------------------------------------------------------------------------------------------
// Build, pages, the floor.

async function buildAll(): Promise<void> {
  if (NO_BUILD && existsSync(APP_SERVER)) console.log('BENCH_NO_BUILD=1: using the existing dist/');
  else buildApp();
  mkdirSync(FLOOR_DIR, { recursive: true });
  // Under the project folder, so that the external packages resolve as they do for dist/server.
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ['scripts/bench/floor-server.tsx'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile: join(FLOOR_DIR, 'floor-server.js'),
    packages: 'external',
    jsx: 'automatic',
    loader: { '.css': 'empty' },
    logLevel: 'warning',
  });
}

/** Cores busy on the whole machine over `ms` (before the run: is the machine quiet?). */
export async function machineBusy(ms = 1000): Promise<number> {
  const before = machineTicks();
  await sleep(ms);
  const after = machineTicks();
  return (after.busy - before.busy + after.steal - before.steal) / CLK_TCK / (ms / 1000);
}

/** Waits until the machine has been quiet (< 10 % of a core busy) for 3 s, `maxSeconds` at most. */
export async function waitForQuiet(maxSeconds: number): Promise<boolean> {
  const until = performance.now() + maxSeconds * 1000;
  let quietFor = 0;
  while (performance.now() < until) {
    quietFor = (await machineBusy(1000)) < DISTURBED_CORES ? quietFor + 1 : 0;
    if (quietFor >= 3) return true;
  }
  return false;
}

/** A blog post's path: the first post linked from /en/blog, else the first folder of content/blog. */
function blogPostPath(blogHtml: string): string {
  const linked = /href="(\/en\/blog\/[a-z0-9-]+)"/.exec(blogHtml)?.[1];
  if (linked) return linked;
  const slug = readdirSync(join(ROOT, 'content', 'blog')).sort()[0];
  if (!slug) throw new Error('No blog post to load');
  return `/en/blog/${slug}`;
}

/** Splits the app's page into the floor's parts: the shell before React, the boot data, the shell after. */
function capturePage(html: string, messages: FloorPage['messages']): FloorPage {
  const rootOpen = '<div id="root">';
  const headEnd = html.indexOf(rootOpen);
  const boot = /<\/div>(<script type="application\/json" id="__BOOT__"[^>]*>)([\s\S]*?)(<\/script>[\s\S]*)$/.exec(html);
  if (headEnd < 0 || !boot?.[1] || !boot[2] || !boot[3])
    throw new Error('The home page has no #root or no __BOOT__ script: cannot build the floor');
  return {
    head: html.slice(0, headEnd + rootOpen.length),
    bootOpen: `</div>${boot[1]}`,
    bootClose: boot[3],
    boot: JSON.parse(boot[2]) as FloorPage['boot'],
    messages,
    nonce: /nonce="([^"]+)"/.exec(boot[1])?.[1] ?? '',
  };
}

// ---------------------------------------------------------------------------------------------
// Load.

const load = (url: string, seconds: number, headers: Record<string, string>) =>
  runLoad({ url, seconds, connections: CONNECTIONS, headers });

export type PageResult = {
  name: string;
  path: string;
  status: number;
  reqPerSec: number;
  requests: number;
  latencyMs: LoadResult['latencyMs'];
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  bytesPerReq: number;
  cpuUsPerReq: number;
  /** Server CPU time ÷ wall time during the measured run (1 = its core saturated). */
  serverCpu: number;
  generatorCpu: number;
  /** CPU used by other processes on the machine during the run, in cores: > 0.1 makes the figures suspect. */
  otherCpu: number;
  /** CPU stolen by the hypervisor during the run, in cores. */
  stealCpu: number;
  peakRssBytes: number;
};

/** Disturbed: other processes (or the hypervisor) took more than this share of a core. */
export const DISTURBED_CORES = 0.1;
export const disturbance = (p: PageResult) => p.otherCpu + p.stealCpu;

/**
 * Measures one page; when other processes disturbed the run, waits for a quiet machine and
 * measures again (BENCH_RETRIES times at most), keeping the least disturbed run.
 */
export async function measure(
  server: Started,
  sampler: ReturnType<typeof rssSampler>,
  name: string,
  path: string,
  headers: Record<string, string>,
  warmUp = true,
): Promise<PageResult> {
  const url = server.base + path;
  const check = await getText(url, headers);
  if (check.status !== 200) throw new Error(`${name} ${path} answered ${check.status}, not 200`);
  process.stdout.write(`  ${name.padEnd(10)} ${path} … `);
  if (warmUp && WARMUP_SECONDS > 0) await load(url, WARMUP_SECONDS, headers);
  let kept = await measureOnce(server, sampler, name, path, headers, check.status);
  for (let retry = 1; retry <= RETRIES && disturbance(kept) > DISTURBED_CORES; retry++) {
    const quiet = await waitForQuiet(QUIET_WAIT_SECONDS);
    process.stdout.write(`    ${quiet ? 'quiet again' : 'still busy'}, measuring ${name} again … `);
    const again = await measureOnce(server, sampler, name, path, headers, check.status);
    if (disturbance(again) < disturbance(kept)) kept = again;
  }
  return kept;
}

async function measureOnce(
  server: Started,
  sampler: ReturnType<typeof rssSampler>,
  name: string,
  path: string,
  headers: Record<string, string>,
  status: number,
): Promise<PageResult> {
  const url = server.base + path;
  sampler.take();
  const ticksBefore = cpuTicks(server.pid);
  const machineBefore = machineTicks();
  const selfBefore = process.cpuUsage();
  const wallStart = performance.now();
  const result = await load(url, SECONDS, headers);
  const wallS = (performance.now() - wallStart) / 1000;
  const ticks = cpuTicks(server.pid) - ticksBefore;
  const machineAfter = machineTicks();
  const self = process.cpuUsage(selfBefore);
  const peakRssBytes = sampler.take();
  // Whatever else ran on the machine meanwhile, in cores (the generator's own process start
  // and exit fall outside its figure: a few hundredths of a core).
  const ours = ticks / CLK_TCK + result.generatorCpu * result.seconds + (self.user + self.system) / 1e6;
  const otherCpu = Math.max(0, ((machineAfter.busy - machineBefore.busy) / CLK_TCK - ours) / wallS);
  const stealCpu = (machineAfter.steal - machineBefore.steal) / CLK_TCK / wallS;
  const page: PageResult = {
    name,
    path,
    status,
    reqPerSec: result.reqPerSec,
    requests: result.requests,
    latencyMs: result.latencyMs,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: result.statusCodes,
    bytesPerReq: result.bytesPerReq,
    cpuUsPerReq: result.requests ? (ticks * 1e6) / CLK_TCK / result.requests : 0,
    serverCpu: ticks / CLK_TCK / wallS,
    generatorCpu: result.generatorCpu,
    otherCpu,
    stealCpu,
    peakRssBytes,
  };
  const busy = otherCpu + stealCpu > DISTURBED_CORES ? ` (other processes used ${fmt(otherCpu * 100)} % of a core meanwhile)` : '';
  console.log(`${Math.round(page.reqPerSec)} req/s, p99 ${page.latencyMs.p99} ms${busy}`);
  return page;
}

// ---------------------------------------------------------------------------------------------
// Report.

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const mib = (bytes: number) => bytes / 1024 / 1024;
export const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

function table(pages: PageResult[], floorRps: number | null): string {
  const head = [
    'page',
    'path',
    'req/s',
    'vs floor',
    'p50 ms',
    'p99 ms',
    'errors',
    'CPU µs/req',
    'srv CPU',
    'gen CPU',
    'other CPU',
    'KB/req',
    'peak RSS MiB',
  ];
  const rows = pages.map((p) => [
    p.name,
    p.path,
    fmt(p.reqPerSec),
    floorRps ? `${fmt((p.reqPerSec / floorRps) * 100, 1)} %` : '-',
    fmt(p.latencyMs.p50),
    `${fmt(p.latencyMs.p99)}${p.latencyMs.p99 <= BUDGETS.p99Ms ? '' : ' !'}`,
    fmt(p.errors + p.timeouts + p.non2xx),
    fmt(p.cpuUsPerReq),
    `${fmt(p.serverCpu * 100)} %`,
    `${fmt(p.generatorCpu * 100)} %`,
    `${fmt((p.otherCpu + p.stealCpu) * 100)} %`,
    fmt(p.bytesPerReq / 1000, 1),
    fmt(mib(p.peakRssBytes), 1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Each bench user signed in on `server`: their Cookie headers by dashboard. */
async function signInDashboards(server: Started): Promise<Record<string, string>> {
  const cookies: Record<string, string> = {};
  for (const dashboard of DASHBOARDS) cookies[dashboard.name] = await signIn(server.base, dashboard.userName, PASSWORD);
  return cookies;
}

/** /en/login, then each dashboard signed in as its user, on one server. */
async function measurePrivateArea(
  server: Started,
  sampler: ReturnType<typeof rssSampler>,
  cookies: Record<string, string>,
): Promise<PageResult[]> {
  const identity = { 'Accept-Encoding': 'identity' };
  const measured = [await measure(server, sampler, 'login', '/en/login', identity)];
  for (const dashboard of DASHBOARDS) {
    measured.push(await measure(server, sampler, dashboard.name, dashboard.path, { ...identity, Cookie: cookies[dashboard.name]! }));
  }
  return measured;
}

const baseName = (page: PageResult) => page.name.replace(/ \(PostgreSQL\)$/, '');

/** Each dashboard's server CPU per request ÷ login's, measured on the same server: the worst must be ≤ 2. */
function dashboardBudget(measured: PageResult[]) {
  const login = measured.find((p) => baseName(p) === 'login')!;
  const each = measured
    .filter((p) => DASHBOARD_NAMES.includes(baseName(p)))
    .map((p) => ({ name: baseName(p), value: p.cpuUsPerReq / login.cpuUsPerReq }));
  const value = Math.max(...each.map((d) => d.value));
  return { value, budget: BUDGETS.dashboardVsLogin, pass: value <= BUDGETS.dashboardVsLogin, each };
}

/** Each dashboard's req/s on PostgreSQL ÷ on SQLite: the worst must be ≥ 0.8. */
function postgresBudget(sqlite: PageResult[], postgres: PageResult[]) {
  const each = postgres
    .filter((p) => DASHBOARD_NAMES.includes(baseName(p)))
    .map((p) => ({ name: baseName(p), value: p.reqPerSec / sqlite.find((q) => q.name === baseName(p))!.reqPerSec }));
  const value = Math.min(...each.map((d) => d.value));
  return { value, budget: BUDGETS.postgresVsSqlite, pass: value >= BUDGETS.postgresVsSqlite, each };
}

async function main() {
  installCleanup();
  pinSelf(1);
  console.log(
    `bench: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per page, uncompressed (Accept-Encoding: identity), ` +
      (PINNED ? 'server on core 0, load on core 1' : 'NOT pinned (no taskset or one core): figures are less stable') +
      `; Node flags of npm start: ${[...serverNodeFlags(), ...NODE_ARGS].join(' ') || 'none'}; environment: ${serverEnvText()}`,
  );
  const startedAt = new Date();
  let busyBefore = await machineBusy();
  if (busyBefore > DISTURBED_CORES) {
    console.log(`the machine is busy (${fmt(busyBefore * 100)} % of a core): waiting ${QUIET_WAIT_SECONDS} s at most for it to be quiet`);
    if (await waitForQuiet(QUIET_WAIT_SECONDS)) busyBefore = await machineBusy();
  }
  if (busyBefore > DISTURBED_CORES) {
    console.log(
      `WARNING: the machine is not quiet (${fmt(busyBefore * 100)} % of a core busy before the run): the figures will be low and noisy`,
    );
  }
  await buildAll();
  const firstLoad: FirstLoadJs = firstLoadJs(MANIFEST, 'home');
  // Reported, not budgeted: every other page's first load.
  const otherFirstLoads = (['blog', 'blog-post', 'contact', 'login', 'client', 'project', 'admin'] as const).map((page) =>
    firstLoadJs(MANIFEST, page),
  );

  const tempDir = makeTempDir('bench-');
  const dataDir = join(tempDir, 'data');
  await seedDashboards(dataDir, PASSWORD, CLIENT_COLOR);

  console.log('app:');
  const appEnv = {
    NODE_ENV: 'production',
    WEB_CONCURRENCY: '1',
    LOG_LEVEL,
    DATA_DIR: dataDir,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
  };
  const starts: { spawnToHealthzMs: number; startupMs: number | null }[] = [];
  for (let i = 1; i < COLD_STARTS; i++) {
    const once = await startServer(`app-start-${i}`, APP_SERVER, appEnv, tempDir, { nodeArgs: NODE_ARGS });
    starts.push({ spawnToHealthzMs: Math.round(once.coldStartMs), startupMs: startupMsFromLog(once.logFile) });
    await stopProcess(once.child);
  }
  const app = await startServer('app', APP_SERVER, appEnv, tempDir, { nodeArgs: NODE_ARGS });
  starts.push({ spawnToHealthzMs: Math.round(app.coldStartMs), startupMs: startupMsFromLog(app.logFile) });
  const coldStartMs = median(starts.map((s) => s.spawnToHealthzMs));
  const startupMs = starts.every((s) => s.startupMs !== null) ? median(starts.map((s) => s.startupMs!)) : null;
  console.log(
    `  cold start ${fmt(coldStartMs)} ms (spawn → /healthz 200, median of ${starts.length}: ${starts.map((s) => s.spawnToHealthzMs).join(', ')}); server's own startupMs ${startupMs ?? '?'}`,
  );
  const sampler = rssSampler(app.pid);

  const identity = { 'Accept-Encoding': 'identity' };
  const cookies = await signInDashboards(app);
  const client = await getText(`${app.base}/client`, { ...identity, Cookie: cookies.client! });
  const brandingApplied = client.status === 200 && client.body.toLowerCase().includes(CLIENT_COLOR);
  const blog = await getText(`${app.base}/en/blog`, identity);
  const postPath = blogPostPath(blog.body);

  // The floor renders exactly what the app answered for /es (same boot data, same shell). It
  // runs beside the app on the same core, idle while the app is loaded and the other way round,
  // so that home and floor are measured back to back, ROUNDS times: the drift of a shared
  // machine hits both alike, and the best round of each is kept.
  const homeHtml = (await getText(`${app.base}/es`, identity)).body;
  const floorPageFile = join(FLOOR_DIR, 'home.json');
  const homeBoot = capturePage(homeHtml, {}).boot;
  const messages = JSON.parse(
    (await getText(`${app.base}${homeBoot.messageUrls[homeBoot.payload.locale]}`, identity)).body,
  ) as FloorPage['messages'];
  writeFileSync(floorPageFile, JSON.stringify(capturePage(homeHtml, messages)));
  const floor = await startServer(
    'floor',
    join(FLOOR_DIR, 'floor-server.js'),
    { NODE_ENV: 'production', FLOOR_PAGE: floorPageFile },
    tempDir,
    { nodeArgs: NODE_ARGS },
  );
  const floorHtml = (await getText(`${floor.base}/`, identity)).body;
  const sameHtml = floorHtml === homeHtml;
  if (!sameHtml) console.warn(`  warning: the floor's HTML (${floorHtml.length} B) differs from the app's (${homeHtml.length} B)`);
  const floorSampler = rssSampler(floor.pid);
  // The app reuses React's markup (server/render/render-cache.ts) while the floor renders every
  // request: the budget compares like with like, the app with its render cache off, rendering
  // every request as the floor does. The app as configured is measured too.
  const uncached = await startServer('app-render-cache-off', APP_SERVER, { ...appEnv, RENDER_CACHE_MB: '0' }, tempDir, {
    nodeArgs: NODE_ARGS,
  });
  const uncachedSampler = rssSampler(uncached.pid);

  const rounds: { home: PageResult; homeRendering: PageResult; floor: PageResult; ratio: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const homeRun = await measure(app, sampler, 'home', '/es', identity, round === 1);
    const renderingRun = await measure(uncached, uncachedSampler, 'home*', '/es', identity, round === 1);
    const floorRun = await measure(floor, floorSampler, 'floor', '/', identity, round === 1);
    rounds.push({ home: homeRun, homeRendering: renderingRun, floor: floorRun, ratio: renderingRun.reqPerSec / floorRun.reqPerSec });
  }
  floorSampler.stop();
  uncachedSampler.stop();
  await stopProcess(floor.child);
  await stopProcess(uncached.child);
  const best = (runs: PageResult[]) => runs.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a));
  const home = best(rounds.map((r) => r.home));
  const homeRendering = best(rounds.map((r) => r.homeRendering));
  const floorPage = best(rounds.map((r) => r.floor));

  const pages: PageResult[] = [home];
  pages.push(await measure(app, sampler, 'blog', '/en/blog', identity));
  pages.push(await measure(app, sampler, 'blogPost', postPath, identity));
  pages.push(...(await measurePrivateArea(app, sampler, cookies)));
  const appPeakRss = Math.max(...pages.map((p) => p.peakRssBytes), ...rounds.map((r) => r.home.peakRssBytes));
  const appHwm = statusKb(app.pid, 'VmHWM') * 1024;
  sampler.stop();
  await stopProcess(app.child);

  // PostgreSQL mode: login and the same dashboards with DATABASE_URL on a throw-away PostgreSQL
  // cluster (Debian's, as the tests start it). What a dashboard reads is kept a moment by the
  // process (server/db/read-cache.ts), the session and its user at most a second: the budgets
  // keep each dashboard within twice login's CPU and within 20 % of its SQLite throughput.
  // PostgreSQL itself is not pinned to a core.
  let postgresPages: PageResult[] = [];
  if (postgresBinDir()) {
    console.log('app on PostgreSQL:');
    const cluster = await startPostgres();
    try {
      const databaseUrl = await createTestDatabase(cluster.url);
      const pgData = join(tempDir, 'pg-data');
      await seedDashboards(pgData, PASSWORD, CLIENT_COLOR, databaseUrl);
      const pgApp = await startServer('app-postgres', APP_SERVER, { ...appEnv, DATA_DIR: pgData, DATABASE_URL: databaseUrl }, tempDir, {
        nodeArgs: NODE_ARGS,
      });
      const pgSampler = rssSampler(pgApp.pid);
      postgresPages = (await measurePrivateArea(pgApp, pgSampler, await signInDashboards(pgApp))).map((p) => ({
        ...p,
        name: `${p.name} (PostgreSQL)`,
      }));
      pgSampler.stop();
      await stopProcess(pgApp.child);
    } finally {
      cluster.stop();
    }
  } else console.log('PostgreSQL is not installed (apt-get install -y postgresql): the PostgreSQL mode is skipped');

  const ratio = homeRendering.reqPerSec / floorPage.reqPerSec;
  const budgets = {
    homeVsFloor: { value: ratio, budget: BUDGETS.homeVsFloor, pass: ratio >= BUDGETS.homeVsFloor },
    homeCachedVsFloor: {
      value: home.reqPerSec / floorPage.reqPerSec,
      budget: BUDGETS.homeCachedVsFloor,
      pass: home.reqPerSec / floorPage.reqPerSec >= BUDGETS.homeCachedVsFloor,
    },
    homeP99Ms: { value: home.latencyMs.p99, budget: BUDGETS.p99Ms, pass: home.latencyMs.p99 <= BUDGETS.p99Ms },
    allP99Ms: {
      value: Math.max(...pages.map((p) => p.latencyMs.p99)),
      budget: BUDGETS.p99Ms,
      pass: pages.every((p) => p.latencyMs.p99 <= BUDGETS.p99Ms),
    },
    firstLoadJsGzipBytes: { value: firstLoad.gzipBytes, budget: BUDGETS.firstLoadJsGzipBytes, pass: firstLoad.withinBudget },
    coldStartMs: { value: coldStartMs, budget: BUDGETS.coldStartMs, pass: coldStartMs <= BUDGETS.coldStartMs },
    peakRssBytes: { value: appPeakRss, budget: BUDGETS.rssBytes, pass: appPeakRss <= BUDGETS.rssBytes },
    dashboardVsLogin: dashboardBudget(pages),
    ...(postgresPages.length > 0
      ? {
          dashboardVsLoginPostgres: dashboardBudget(postgresPages),
          postgresVsSqlite: postgresBudget(pages, postgresPages),
        }
      : {}),
  };

  console.log('\n' + table([...pages, ...postgresPages, homeRendering, floorPage], floorPage.reqPerSec));
  console.log('  home* = home with the render cache off (RENDER_CACHE_MB=0): React renders every request, as in the floor');
  console.log(
    `\nhome* vs floor, back to back: ${rounds.map((r, i) => `round ${i + 1}: ${fmt(r.homeRendering.reqPerSec)} / ${fmt(r.floor.reqPerSec)} req/s = ${fmt(r.ratio * 100, 1)} %`).join('; ')} (best of each kept); ` +
      `home as configured: ${fmt((home.reqPerSec / floorPage.reqPerSec) * 100, 1)} % of the floor`,
  );
  console.log('\nbudgets:');
  console.log(
    `  ${mark(budgets.homeVsFloor.pass)}  home* throughput ÷ floor   ${fmt(ratio * 100, 1)} % (≥ 50 %; both render React per request)`,
  );
  console.log(
    `  ${mark(budgets.homeCachedVsFloor.pass)}  home throughput ÷ floor    ${fmt(budgets.homeCachedVsFloor.value, 2)}× (≥ 3×; the render cache on, as served)`,
  );
  console.log(`  ${mark(budgets.homeP99Ms.pass)}  home p99                   ${fmt(home.latencyMs.p99)} ms (≤ 25 ms)`);
  console.log(`  ${mark(budgets.allP99Ms.pass)}  every page's p99           worst ${fmt(budgets.allP99Ms.value)} ms (≤ 25 ms)`);
  console.log(
    `  ${mark(budgets.firstLoadJsGzipBytes.pass)}  home first-load JS         ${fmt(firstLoad.gzipBytes)} B gzip -9 (≤ ${fmt(BUDGETS.firstLoadJsGzipBytes)} B; ${firstLoad.files.length} files)`,
  );
  console.log(`     first-load JS of the other pages: ${otherFirstLoads.map((p) => `${p.page} ${fmt(p.gzipBytes)} B`).join(', ')}`);
  console.log(
    `  ${mark(budgets.coldStartMs.pass)}  cold start                 ${fmt(coldStartMs)} ms spawn → /healthz, median of ${starts.length} (${starts.map((s) => s.spawnToHealthzMs).join(', ')}); startupMs ${startupMs ?? '?'} (≤ 500 ms)`,
  );
  console.log(
    `  ${mark(budgets.peakRssBytes.pass)}  peak RSS under load        ${fmt(mib(appPeakRss), 1)} MiB (≤ 150 MiB; VmHWM ${fmt(mib(appHwm), 1)} MiB)`,
  );
  const each = (b: { each: { name: string; value: number }[] }, show: (value: number) => string) =>
    b.each.map((d) => `${d.name} ${show(d.value)}`).join(', ');
  const times = (value: number) => `${fmt(value, 2)}×`;
  const percent = (value: number) => `${fmt(value * 100, 1)} %`;
  console.log(
    `  ${mark(budgets.dashboardVsLogin.pass)}  dashboards CPU ÷ login     worst ${fmt(budgets.dashboardVsLogin.value, 2)}× (≤ 2×; SQLite: ${each(budgets.dashboardVsLogin, times)})`,
  );
  if (budgets.dashboardVsLoginPostgres) {
    console.log(
      `  ${mark(budgets.dashboardVsLoginPostgres.pass)}  dashboards CPU ÷ login     worst ${fmt(budgets.dashboardVsLoginPostgres.value, 2)}× (≤ 2×; PostgreSQL: ${each(budgets.dashboardVsLoginPostgres, times)})`,
    );
  }
  if (budgets.postgresVsSqlite) {
    console.log(
      `  ${mark(budgets.postgresVsSqlite.pass)}  dashboards PostgreSQL ÷ SQLite worst ${fmt(budgets.postgresVsSqlite.value * 100, 1)} % (≥ 80 % of req/s: ${each(budgets.postgresVsSqlite, percent)})`,
    );
  }
  console.log(
    `\n  /client branding in the first paint: ${brandingApplied ? 'yes' : 'NO'}; floor HTML identical to the app's: ${sameHtml ? 'yes' : 'NO'}`,
  );
  const generatorBound = [...pages, ...postgresPages, floorPage].filter((p) => p.generatorCpu > 0.9).map((p) => p.name);
  if (generatorBound.length)
    console.log(`  note: the load generator was near one full core on ${generatorBound.join(', ')}: those req/s may be its limit`);
  const disturbed = [...pages, ...postgresPages, floorPage].filter((p) => disturbance(p) > DISTURBED_CORES).map((p) => p.name);
  if (disturbed.length) {
    console.log(
      `  WARNING: other processes (or the hypervisor) took > 10 % of a core during ${disturbed.join(', ')}: run again on a quiet machine`,
    );
  }

  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? '',
      memoryBytes: totalmem(),
      loadavg: loadavg(),
      busyCoresBeforeRun: busyBefore,
      node: process.version,
      pinned: PINNED,
      clkTck: CLK_TCK,
    },
    settings: {
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      connections: CONNECTIONS,
      logLevel: LOG_LEVEL,
      acceptEncoding: 'identity',
    },
    buildId: (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { buildId: string }).buildId,
    coldStart: { spawnToHealthzMs: coldStartMs, startupMs, starts },
    memory: { peakRssBytes: appPeakRss, hwmBytes: appHwm },
    pages,
    postgresPages,
    homeRenderCacheOff: homeRendering,
    floor: { ...floorPage, sameHtml },
    rounds,
    firstLoadJs: firstLoad,
    otherFirstLoadJs: otherFirstLoads.map((p) => ({ page: p.page, gzipBytes: p.gzipBytes, files: p.files.length })),
    checks: { brandingApplied, sameHtml },
    budgets,
  };
  mkdirSync(RESULTS, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(RESULTS, `bench-${stamp}.json`), JSON.stringify(report, null, 2));
  writeFileSync(join(RESULTS, 'latest.json'), JSON.stringify(report, null, 2));
  console.log(`\nresults: bench-results/bench-${stamp}.json (and bench-results/latest.json)`);

  const failed = Object.entries(budgets).filter(([, b]) => !b.pass);
  if (failed.length) console.log(`${failed.length} budget(s) failed: ${failed.map(([k]) => k).join(', ')}`);
  cleanup();
  if (STRICT && failed.length) process.exitCode = 1;
}

if (import.meta.filename === process.argv[1])
  // `npm run bench -- --scale`: the scale bench (scale.ts) instead.
  (process.argv.includes('--scale') ? import('./scale.ts').then((scale) => scale.main()) : main()).catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    cleanup();
    process.exitCode = 1;
  });

// `npm run bench`: the production server under load, against a floor measured in the same run.
//
//   1. Builds for production (node scripts/build.ts) and bundles the floor (floor-server.tsx).
//   2. A temporary DATA_DIR with a CLI user `bench-client` and a branding row.
//   3. Starts dist/server/main.js as ONE process (WEB_CONCURRENCY=1), pinned to core 0 with
//      taskset where it exists; the load generator (load.ts, autocannon) and this script run on
//      core 1. Cold start = spawn → first 200 from /healthz (and the server's own startupMs).
//   4. Signs in through POST /login for the session cookie.
//   5. For each page: a check (200), a warm-up, then a measured run: 50 connections,
//      `Accept-Encoding: identity` (uncompressed, as in the reference figures, so the
//      app's compression middleware passes the body through). Server CPU from /proc/<pid>/stat,
//      RSS polled from /proc/<pid>/status.
//   6. Captures the home page from the app, stops the app, and measures the floor (a bare
//      Express 5 + renderToPipeableStream server rendering the same tree: floor-server.tsx)
//      the same way, after checking that it answers the very same HTML.
//   7. Prints a table and the budgets (PASS/FAIL), writes bench-results/bench-<time>.json and
//      bench-results/latest.json.
//
// Environment: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (3), BENCH_CONNECTIONS (50),
// BENCH_LOG_LEVEL (info: the server's production default, one log line per request, written
// to a file), BENCH_NO_BUILD=1 (reuse dist/), BENCH_STRICT=1 (exit 1 when a budget fails).
import * as esbuild from 'esbuild';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { firstLoadJs, FIRST_LOAD_JS_BUDGET_BYTES, type FirstLoadJs } from './first-load-js.ts';
import {
  APP_SERVER,
  buildApp,
  CLK_TCK,
  cleanup,
  getText,
  installCleanup,
  makeTempDir,
  MANIFEST,
  PINNED,
  pinned,
  pinSelf,
  RESULTS,
  ROOT,
  seedUser,
  signIn,
  startServer,
  startupMsFromLog,
  stopProcess,
  track,
  type Started,
} from './harness.ts';
import type { LoadResult } from './load.ts';
import type { FloorPage } from './floor-server.tsx';

const FLOOR_DIR = join(RESULTS, '.floor');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const STRICT = process.env.BENCH_STRICT === '1';
const NO_BUILD = process.env.BENCH_NO_BUILD === '1';

export const BUDGETS = {
  homeVsFloor: 0.5,
  p99Ms: 25,
  firstLoadJsGzipBytes: FIRST_LOAD_JS_BUDGET_BYTES,
  coldStartMs: 500,
  /** 150 MiB (VmRSS is counted in KiB). */
  rssBytes: 150 * 1024 * 1024,
};

const CLIENT_USER = { userName: 'bench-client', password: `Bench-${randomBytes(6).toString('hex')}-9!`, color: '#1d4ed8' };

// ---------------------------------------------------------------------------------------------
// /proc: server CPU time and memory.

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU ticks of the whole machine (all cores) from /proc/stat: busy (user to softirq) and stolen by the host. */
function machineTicks(): { busy: number; steal: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  return { busy: user + nice + system + irq + softirq, steal };
}

function statusKb(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : 0;
}

/** Polls VmRSS every 100 ms; `take()` returns the peak since the last take. */
function rssSampler(pid: number) {
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
async function machineBusy(ms = 1000): Promise<number> {
  const before = machineTicks();
  await sleep(ms);
  const after = machineTicks();
  return (after.busy - before.busy + after.steal - before.steal) / CLK_TCK / (ms / 1000);
}

/** A blog post's path: the first post linked from /en/blog, else the first folder of content/blog. */
function blogPostPath(blogHtml: string): string {
  const linked = /href="(\/en\/blog\/[a-z0-9-]+)"/.exec(blogHtml)?.[1];
  if (linked) return linked;
  const slug = readdirSync(join(ROOT, 'content', 'blog')).sort()[0];
  if (!slug) throw new Error('No blog post to load');
  return `/en/blog/${slug}`;
}

/** Splits the app's page into the floor's parts: shell before React, boot data, shell after. */
function capturePage(html: string): FloorPage {
  const rootOpen = '<div id="root">';
  const headEnd = html.indexOf(rootOpen);
  const bootStart = html.lastIndexOf('</div><script type="application/json" id="__BOOT__"');
  if (headEnd < 0 || bootStart < 0) throw new Error('The home page has no #root or no __BOOT__ script: cannot build the floor');
  const tail = html.slice(bootStart);
  const json = /<script type="application\/json" id="__BOOT__"[^>]*>([\s\S]*?)<\/script>/.exec(tail)?.[1];
  const nonce = /nonce="([^"]+)"/.exec(tail)?.[1] ?? '';
  if (!json) throw new Error('No boot JSON in the home page');
  return { head: html.slice(0, headEnd + rootOpen.length), tail, boot: JSON.parse(json) as FloorPage['boot'], nonce };
}

// ---------------------------------------------------------------------------------------------
// Load.

async function load(url: string, seconds: number, headers: Record<string, string>): Promise<LoadResult> {
  const [command, args] = pinned(1, process.execPath, [
    join(ROOT, 'scripts', 'bench', 'load.ts'),
    JSON.stringify({ url, seconds, connections: CONNECTIONS, headers }),
  ]);
  const child = track(spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] }));
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), (seconds + 60) * 1000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(killer);
  if (code !== 0) throw new Error(`The load generator failed (${code}) on ${url}`);
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as LoadResult;
}

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

async function measure(
  server: Started,
  sampler: ReturnType<typeof rssSampler>,
  name: string,
  path: string,
  headers: Record<string, string>,
): Promise<PageResult> {
  const url = server.base + path;
  const check = await getText(url, headers);
  if (check.status !== 200) throw new Error(`${name} ${path} answered ${check.status}, not 200`);
  process.stdout.write(`  ${name.padEnd(10)} ${path} … `);
  if (WARMUP_SECONDS > 0) await load(url, WARMUP_SECONDS, headers);
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
    status: check.status,
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
  const busy = otherCpu > 0.1 ? ` (other processes used ${fmt(otherCpu * 100)} % of a core meanwhile)` : '';
  console.log(`${Math.round(page.reqPerSec)} req/s, p99 ${page.latencyMs.p99} ms${busy}`);
  return page;
}

// ---------------------------------------------------------------------------------------------
// Report.

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mib = (bytes: number) => bytes / 1024 / 1024;
const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

function table(pages: PageResult[], floorRps: number | null): string {
  const head = ['page', 'path', 'req/s', 'vs floor', 'p50 ms', 'p99 ms', 'errors', 'CPU µs/req', 'srv CPU', 'gen CPU', 'other CPU', 'KB/req', 'peak RSS MiB'];
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

async function main() {
  installCleanup();
  pinSelf(1);
  console.log(
    `bench: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per page, uncompressed (Accept-Encoding: identity), ` +
      (PINNED ? 'server on core 0, load on core 1' : 'NOT pinned (no taskset or one core): figures are less stable'),
  );
  const startedAt = new Date();
  const busyBefore = await machineBusy();
  if (busyBefore > 0.15) {
    console.log(`WARNING: the machine is not quiet (${fmt(busyBefore * 100)} % of a core busy before the run): the figures will be low and noisy`);
  }
  await buildAll();
  const firstLoad: FirstLoadJs = firstLoadJs(MANIFEST, 'home');

  const tempDir = makeTempDir('bench-');
  const dataDir = join(tempDir, 'data');
  await seedUser(dataDir, { userName: CLIENT_USER.userName, password: CLIENT_USER.password, role: 'CLI', color: CLIENT_USER.color });

  console.log('app:');
  const app = await startServer(
    'app',
    APP_SERVER,
    {
      NODE_ENV: 'production',
      WEB_CONCURRENCY: '1',
      LOG_LEVEL,
      DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
    },
    tempDir,
  );
  const startupMs = startupMsFromLog(app.logFile);
  console.log(`  cold start ${fmt(app.coldStartMs)} ms (spawn → /healthz 200); server's own startupMs ${startupMs ?? '?'}`);
  const sampler = rssSampler(app.pid);

  const identity = { 'Accept-Encoding': 'identity' };
  const cookie = await signIn(app.base, CLIENT_USER.userName, CLIENT_USER.password);
  const client = await getText(`${app.base}/client`, { ...identity, Cookie: cookie });
  const brandingApplied = client.status === 200 && client.body.toLowerCase().includes(CLIENT_USER.color);
  const blog = await getText(`${app.base}/en/blog`, identity);
  const postPath = blogPostPath(blog.body);

  const pages: PageResult[] = [];
  pages.push(await measure(app, sampler, 'home', '/es', identity));
  pages.push(await measure(app, sampler, 'blog', '/en/blog', identity));
  pages.push(await measure(app, sampler, 'blogPost', postPath, identity));
  pages.push(await measure(app, sampler, 'login', '/en/login', identity));
  pages.push(await measure(app, sampler, 'client', '/client', { ...identity, Cookie: cookie }));
  const appPeakRss = Math.max(...pages.map((p) => p.peakRssBytes));
  const appHwm = statusKb(app.pid, 'VmHWM') * 1024;

  // The floor renders exactly what the app answered for /es (same boot data, same shell).
  const homeHtml = (await getText(`${app.base}/es`, identity)).body;
  const floorPageFile = join(FLOOR_DIR, 'home.json');
  writeFileSync(floorPageFile, JSON.stringify(capturePage(homeHtml)));
  sampler.stop();
  await stopProcess(app.child);

  console.log('floor (bare Express 5 + renderToPipeableStream, same home tree):');
  const floor = await startServer(
    'floor',
    join(FLOOR_DIR, 'floor-server.js'),
    { NODE_ENV: 'production', FLOOR_PAGE: floorPageFile },
    tempDir,
  );
  const floorHtml = (await getText(`${floor.base}/`, identity)).body;
  const sameHtml = floorHtml === homeHtml;
  if (!sameHtml) console.warn(`  warning: the floor's HTML (${floorHtml.length} B) differs from the app's (${homeHtml.length} B)`);
  const floorSampler = rssSampler(floor.pid);
  const floorPage = await measure(floor, floorSampler, 'floor', '/', identity);
  floorSampler.stop();
  await stopProcess(floor.child);

  const home = pages[0]!;
  const ratio = home.reqPerSec / floorPage.reqPerSec;
  const budgets = {
    homeVsFloor: { value: ratio, budget: BUDGETS.homeVsFloor, pass: ratio >= BUDGETS.homeVsFloor },
    homeP99Ms: { value: home.latencyMs.p99, budget: BUDGETS.p99Ms, pass: home.latencyMs.p99 <= BUDGETS.p99Ms },
    allP99Ms: {
      value: Math.max(...pages.map((p) => p.latencyMs.p99)),
      budget: BUDGETS.p99Ms,
      pass: pages.every((p) => p.latencyMs.p99 <= BUDGETS.p99Ms),
    },
    firstLoadJsGzipBytes: { value: firstLoad.gzipBytes, budget: BUDGETS.firstLoadJsGzipBytes, pass: firstLoad.withinBudget },
    coldStartMs: { value: Math.round(app.coldStartMs), budget: BUDGETS.coldStartMs, pass: app.coldStartMs <= BUDGETS.coldStartMs },
    peakRssBytes: { value: appPeakRss, budget: BUDGETS.rssBytes, pass: appPeakRss <= BUDGETS.rssBytes },
  };

  console.log('\n' + table([...pages, floorPage], floorPage.reqPerSec));
  console.log('\nbudgets:');
  console.log(`  ${mark(budgets.homeVsFloor.pass)}  home throughput ÷ floor    ${fmt(ratio * 100, 1)} % (≥ 50 %)`);
  console.log(`  ${mark(budgets.homeP99Ms.pass)}  home p99                   ${fmt(home.latencyMs.p99)} ms (≤ 25 ms)`);
  console.log(`  ${mark(budgets.allP99Ms.pass)}  every page's p99           worst ${fmt(budgets.allP99Ms.value)} ms (≤ 25 ms)`);
  console.log(`  ${mark(budgets.firstLoadJsGzipBytes.pass)}  home first-load JS         ${fmt(firstLoad.gzipBytes)} B gzip -9 (≤ 94,000 B; ${firstLoad.files.length} files)`);
  console.log(`  ${mark(budgets.coldStartMs.pass)}  cold start                 ${fmt(app.coldStartMs)} ms spawn → /healthz; startupMs ${startupMs ?? '?'} (≤ 500 ms)`);
  console.log(`  ${mark(budgets.peakRssBytes.pass)}  peak RSS under load        ${fmt(mib(appPeakRss), 1)} MiB (≤ 150 MiB; VmHWM ${fmt(mib(appHwm), 1)} MiB)`);
  console.log(`\n  /client branding in the first paint: ${brandingApplied ? 'yes' : 'NO'}; floor HTML identical to the app's: ${sameHtml ? 'yes' : 'NO'}`);
  const generatorBound = [...pages, floorPage].filter((p) => p.generatorCpu > 0.9).map((p) => p.name);
  if (generatorBound.length) console.log(`  note: the load generator was near one full core on ${generatorBound.join(', ')}: those req/s may be its limit`);
  const disturbed = [...pages, floorPage].filter((p) => p.otherCpu + p.stealCpu > 0.1).map((p) => p.name);
  if (disturbed.length) {
    console.log(`  WARNING: other processes (or the hypervisor) took > 10 % of a core during ${disturbed.join(', ')}: run again on a quiet machine`);
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
    settings: { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, logLevel: LOG_LEVEL, acceptEncoding: 'identity' },
    buildId: (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { buildId: string }).buildId,
    coldStart: { spawnToHealthzMs: Math.round(app.coldStartMs), startupMs },
    memory: { peakRssBytes: appPeakRss, hwmBytes: appHwm },
    pages,
    floor: { ...floorPage, sameHtml, coldStartMs: Math.round(floor.coldStartMs) },
    firstLoadJs: firstLoad,
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

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  cleanup();
  process.exitCode = 1;
});

// `npm run bench -- --scale`: the site at 100× today's data against the same site at today's
// size (no answer grows with the data behind it: docs/decisions/033).
//
//   1. Builds for production (as run.ts), then two server roots in a temporary folder: the
//      build with a content/ of its own each, holding the seeded blog posts (scale-seed.ts) and
//      their pre-rendered HTML. The server reads content/ beside its bundle (server/base/paths.ts)
//      and has no setting for another folder: a root is a copy of dist/server (the bundle finds
//      its root by the package.json above it) beside links to everything else of the project.
//   2. Per engine (SQLite, and PostgreSQL on a throw-away cluster when it is installed): two
//      databases, the small data set (`--small-factor`, default 0.01: 100 users, 500
//      projects…) and the large one (`--factor`, default 1: 10,000 users, 50,000 projects, one
//      project with 50,000 events and 5,000 messages; 5,000 posts), seeded straight into the
//      database; the bench's client and admin are made with the real password hashing.
//   3. One server per data set, both pinned to core 0 (load.ts on core 1), signed in as the
//      client (owner of the big project) and the admin, by form (cookie) and API (Bearer).
//   4. Each page and API answer (PROBES) is measured on the small data, then on the large data,
//      back to back (run.ts's measure: warm-up, 50 connections, uncompressed), BENCH_ROUNDS
//      times: p99, req/s, the answer's size (bytes of one body) and the server's peak RSS
//      (warm-up included). The drift of a shared machine hits both alike; the best round of each
//      is kept (as run.ts does), unless a round failed: then that round is the figure. A server
//      that dies (out of memory) is started again for the next page and its row FAILs.
//   5. Prints a table and the budgets (SCALE_BUDGETS) with PASS/FAIL; writes
//      bench-results/scale-<time>.json.
//
// Options: --engine sqlite|postgres|both (both when PostgreSQL is installed), --factor (1),
// --small-factor (0.01). Environment: as run.ts (BENCH_SECONDS, BENCH_WARMUP_SECONDS,
// BENCH_CONNECTIONS, BENCH_ROUNDS (2), BENCH_RETRIES, BENCH_QUIET_WAIT_SECONDS, BENCH_LOG_LEVEL,
// BENCH_NODE_ARGS, BENCH_NO_BUILD, BENCH_STRICT), and BENCH_SCALE_ONLY=key,key (only these probes,
// e.g. blog,project).
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { PRERENDERED_DIR, writePrerendered } from '../../server/content/prerendered.ts';
import { openDatabase, databaseFile } from '../../server/db/index.ts';
import { BLOG_PAGE_SIZE } from '../../shared/blog.ts';
import { createTestDatabase, postgresBinDir, startPostgres, type PostgresCluster } from '../../test/helpers/postgres.ts';
import {
  APP_SERVER,
  buildApp,
  cleanup,
  installCleanup,
  makeTempDir,
  PINNED,
  pinSelf,
  RESULTS,
  ROOT,
  seedUser,
  signIn,
  startServer,
  stopProcess,
  type Started,
} from './harness.ts';
import { DISTURBED_CORES, disturbance, fmt, machineBusy, mark, measure, mib, rssSampler, waitForQuiet, type PageResult } from './run.ts';
import {
  prerenderBodies,
  scaledTargets,
  scalePostSlug,
  seedScaleData,
  writeScalePosts,
  type ScaleSeeded,
  type ScaleTargets,
} from './scale-seed.ts';
import { serverEnvText, serverNodeFlags } from '../server-flags.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const STRICT = process.env.BENCH_STRICT === '1';
const NO_BUILD = process.env.BENCH_NO_BUILD === '1';
const QUIET_WAIT_SECONDS = Number(process.env.BENCH_QUIET_WAIT_SECONDS ?? 30);
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const ONLY = (process.env.BENCH_SCALE_ONLY ?? '').split(',').filter(Boolean);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));

export const SCALE_BUDGETS = {
  /** p99 on the large data ÷ p99 on the small data, for every page and API answer… */
  p99Ratio: 2,
  /** …where a p99 within this many ms of the small data's passes too (a few ms are noise on a shared machine). */
  p99SlackMs: 5,
  /** The answer's size (one body, in bytes) on the large data ÷ on the small data: a page of a list stays a page. */
  bytesRatio: 2,
  /** Peak RSS of the server with the large data under CONNECTIONS connections (VmRSS is counted in KiB). */
  rssBytes: 200 * 1024 * 1024,
};

/** A big site starts slower (it reads its posts): the launcher's 20 s is not enough at 100×. */
const START_TIMEOUT_MS = 120_000;
const CHECK_TIMEOUT_MS = 30_000;
/**
 * After a page's load the server may still be working through requests the load generator
 * gave up on (SQLite's queries block the event loop): the next page waits until /healthz
 * answers within a second again, this long at most, then the server is started again.
 */
const DRAIN_MAX_MS = 120_000;
/** What the admin searches in the users' API: a part of common names (María, Marta, Martínez…). */
const USER_SEARCH = 'mar';
const PASSWORD = `Bench-${randomBytes(6).toString('hex')}-9!`;
const PEOPLE = { client: 'bench-client', admin: 'bench-admin' } as const;

type Engine = 'sqlite' | 'postgres';
type Who = 'visitor' | 'client' | 'clientApi' | 'admin' | 'adminApi';
type SetName = 'small' | 'large';

/** A data set as its server sees it. */
type DataSet = { name: SetName; factor: number; targets: ScaleTargets; root: string };

/** A data set seeded into one engine's database. */
type Seeded = { set: DataSet; dataDir: string; databaseUrl?: string; seeded: ScaleSeeded };

/** The pages and API answers measured, cheapest first: the big project's last (they may end the process). */
const PROBES: readonly { key: string; label: string; who: Who; path: (s: Seeded) => string }[] = [
  { key: 'home', label: 'home', who: 'visitor', path: () => '/' },
  { key: 'blog', label: 'blog', who: 'visitor', path: () => '/blog' },
  {
    key: 'blog-deep',
    label: 'blog, page 400 (small: last)',
    who: 'visitor',
    path: (s) => `/blog?page=${Math.min(400, Math.ceil(s.set.targets.posts / BLOG_PAGE_SIZE))}`,
  },
  { key: 'post', label: 'a blog post', who: 'visitor', path: () => `/blog/${scalePostSlug(0)}` },
  // A word of every seeded post's body (scale-seed.ts PARAGRAPHS): the whole set matches, one page shows.
  { key: 'blog-search', label: 'blog ?q= (every post matches)', who: 'visitor', path: () => '/blog?q=inventario' },
  { key: 'search', label: 'site search, every kind', who: 'visitor', path: () => '/en/search?q=inventory%20inspection' },
  { key: 'client', label: '/client dashboard', who: 'client', path: () => '/client' },
  { key: 'api-projects', label: 'API projects, client', who: 'clientApi', path: () => '/api/projects?page=1' },
  {
    key: 'api-projects-deep',
    label: 'API projects, admin page 1000 (small: last)',
    who: 'adminApi',
    path: (s) => `/api/projects?page=${Math.min(1000, Math.ceil(s.set.targets.projects / 20))}`,
  },
  { key: 'admin', label: '/admin console', who: 'admin', path: () => '/admin' },
  { key: 'api-users', label: `API admin users ?q=${USER_SEARCH}`, who: 'adminApi', path: () => `/api/admin/users?q=${USER_SEARCH}` },
  {
    key: 'api-messages',
    label: 'API big project messages',
    who: 'clientApi',
    path: (s) => `/api/projects/${s.seeded.bigProjectId}/messages`,
  },
  { key: 'api-project', label: 'API big project', who: 'clientApi', path: (s) => `/api/projects/${s.seeded.bigProjectId}` },
  { key: 'project', label: 'big project page', who: 'client', path: (s) => `/client/projects/${s.seeded.bigProjectId}` },
  {
    key: 'project-data',
    label: 'big project /_data',
    who: 'client',
    path: (s) => `/_data?path=${encodeURIComponent(`/client/projects/${s.seeded.bigProjectId}`)}`,
  },
];

/** One page or API answer on one data set. */
type Measured = {
  path: string;
  status: number;
  /** Bytes of one answer's body. */
  answerBytes: number;
  /** Peak RSS over the warm-up and the measured run. */
  peakRssBytes: number;
  run: PageResult | null;
  /** Why the server ended during this page (out of memory…), or null. */
  crashed: string | null;
  /** How long the server took to answer /healthz within a second once the load ended. */
  drainMs: number;
  /** The server was still busy DRAIN_MAX_MS after the load: it was started again. */
  unresponsive: boolean;
  error: string | null;
};

type ProbeResult = {
  key: string;
  label: string;
  /** The rounds kept (keptRound). */
  small: Measured;
  large: Measured;
  /** Every round's p99 (null: no answer), for the record. */
  roundsP99: Record<SetName, (number | null)[]>;
  p99Ratio: number;
  bytesRatio: number;
  pass: { p99: boolean; bytes: boolean; errors: boolean };
};

// ---------------------------------------------------------------------------------------------
// A server root: the build and a content folder of its own.

/**
 * `dir` as a project root for the built server: dist/server copied (the bundle's own location
 * decides its root), its content-html/ with the seeded posts' HTML (as the build would
 * pre-render them) beside the build's own, content/ with `posts` seeded posts beside the project's legal and home
 * content, and links to everything else (node_modules, locales, public, brand, dist/client…).
 */
async function serverRoot(dir: string, posts: number): Promise<{ root: string; postsMs: number }> {
  const started = performance.now();
  mkdirSync(join(dir, 'dist', 'server'), { recursive: true });
  mkdirSync(join(dir, 'content'), { recursive: true });
  for (const entry of readdirSync(ROOT)) {
    if (!['dist', 'content', 'bench-results'].includes(entry)) symlinkSync(join(ROOT, entry), join(dir, entry));
  }
  for (const entry of readdirSync(join(ROOT, 'dist'))) {
    if (entry !== 'server') symlinkSync(join(ROOT, 'dist', entry), join(dir, 'dist', entry));
  }
  for (const entry of readdirSync(join(ROOT, 'content'))) {
    if (entry !== 'blog') symlinkSync(join(ROOT, 'content', entry), join(dir, 'content', entry));
  }
  const serverDir = join(ROOT, 'dist', 'server');
  for (const entry of readdirSync(serverDir)) {
    if (entry.startsWith('.') || entry === PRERENDERED_DIR) continue;
    if (entry.endsWith('.js')) copyFileSync(join(serverDir, entry), join(dir, 'dist', 'server', entry));
    else symlinkSync(join(serverDir, entry), join(dir, 'dist', 'server', entry));
  }
  const bodies = await writeScalePosts(join(dir, 'content'), posts);
  const built = join(serverDir, PRERENDERED_DIR);
  mkdirSync(join(dir, 'dist', 'server', PRERENDERED_DIR));
  for (const name of existsSync(built) ? readdirSync(built) : []) {
    symlinkSync(join(built, name), join(dir, 'dist', 'server', PRERENDERED_DIR, name));
  }
  await writePrerendered(join(dir, 'dist', 'server'), await prerenderBodies(bodies));
  return { root: dir, postsMs: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------
// Data, servers, sign-in.

async function seed(set: DataSet, dataDir: string, databaseUrl: string | undefined): Promise<Seeded> {
  await seedUser(dataDir, { userName: PEOPLE.client, password: PASSWORD, role: 'CLI', color: '#1d4ed8' }, databaseUrl);
  await seedUser(dataDir, { userName: PEOPLE.admin, password: PASSWORD, role: 'ADMIN' }, databaseUrl);
  const db = await openDatabase({ url: databaseUrl, file: databaseFile(dataDir), poolMax: 1 });
  try {
    const seeded = await seedScaleData(db, PEOPLE, { factor: set.factor });
    return { set, dataDir, ...(databaseUrl ? { databaseUrl } : {}), seeded };
  } finally {
    await db.close();
  }
}

/** A bearer token from POST /api/login (with the site's Origin, as its CSRF check asks). */
async function apiToken(base: string, identifier: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ identifier, password }),
  });
  const body = (await res.json()) as { token?: string };
  if (!res.ok || !body.token) throw new Error(`POST /api/login as ${identifier} answered ${res.status}`);
  return body.token;
}

/** A running server of one data set, started again when it dies (same secret: its sessions stay valid). */
type Running = {
  seeded: Seeded;
  server: Started;
  /** Reset per probe: the peak over its warm-up and measured run. */
  probeRss: ReturnType<typeof rssSampler>;
  /** What measure() takes per measured run. */
  runRss: ReturnType<typeof rssSampler>;
  headers: Record<Who, Record<string, string>>;
  /** The server's environment, kept for a restart. */
  env: Record<string, string>;
  starts: number;
  coldStartMs: number[];
  /** Peak RSS from the start to the first page (start-up and sign-in, no load). */
  startRssBytes: number;
};

async function startSet(
  seeded: Seeded,
  env: Record<string, string>,
  logDir: string,
  starts = 0,
): Promise<Omit<Running, 'headers' | 'startRssBytes'>> {
  const server = await startServer(`${seeded.set.name}-${starts + 1}`, join(seeded.set.root, 'dist', 'server', 'main.js'), env, logDir, {
    nodeArgs: NODE_ARGS,
    startTimeoutMs: START_TIMEOUT_MS,
  });
  return {
    seeded,
    server,
    env,
    probeRss: rssSampler(server.pid),
    runRss: rssSampler(server.pid),
    starts: starts + 1,
    coldStartMs: [server.coldStartMs],
  };
}

async function signInAll(base: string): Promise<Record<Who, Record<string, string>>> {
  const identity = { 'Accept-Encoding': 'identity' };
  const clientCookie = await signIn(base, PEOPLE.client, PASSWORD);
  const adminCookie = await signIn(base, PEOPLE.admin, PASSWORD);
  return {
    visitor: identity,
    client: { ...identity, Cookie: clientCookie },
    admin: { ...identity, Cookie: adminCookie },
    clientApi: { ...identity, Authorization: `Bearer ${await apiToken(base, PEOPLE.client, PASSWORD)}` },
    adminApi: { ...identity, Authorization: `Bearer ${await apiToken(base, PEOPLE.admin, PASSWORD)}` },
  };
}

const alive = (server: Started) => server.child.exitCode === null && server.child.signalCode === null;

/** Why the server ended, from its log: V8's out-of-memory line, else the exit code or signal. */
function deathOf(server: Started): string {
  const log = existsSync(server.logFile) ? readFileSync(server.logFile, 'utf8') : '';
  const oom = /(Reached heap limit|JavaScript heap out of memory|FATAL ERROR[^\n]*)/.exec(log)?.[1];
  return oom ? `out of memory (${oom.trim()})` : `exited (${server.child.exitCode ?? server.child.signalCode})`;
}

async function check(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  const res = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
  return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
}

/** One probe on one data set: a check (status, size), then measure() under load; a server that died is noted. */
async function measureProbe(
  running: Running,
  probe: (typeof PROBES)[number],
  restart: (running: Running) => Promise<void>,
): Promise<Measured> {
  if (!alive(running.server)) await restart(running);
  const path = probe.path(running.seeded);
  const headers = running.headers[probe.who];
  const measured: Measured = {
    path,
    status: 0,
    answerBytes: 0,
    peakRssBytes: 0,
    run: null,
    crashed: null,
    error: null,
    drainMs: 0,
    unresponsive: false,
  };
  running.probeRss.take();
  try {
    const first = await check(running.server.base + path, headers);
    measured.status = first.status;
    measured.answerBytes = first.bytes;
    if (first.status !== 200) throw new Error(`${path} answered ${first.status}, not 200`);
    measured.run = await measure(running.server, running.runRss, `${running.seeded.set.name}`, path, headers);
  } catch (error) {
    measured.error = error instanceof Error ? error.message : String(error);
    console.log(`  ${running.seeded.set.name} ${path}: ${measured.error}`);
    // A request that failed because the server is ending: its exit is a moment behind.
    if (alive(running.server)) await Promise.race([once(running.server.child, 'exit'), sleep(2_000)]);
  }
  const drainStarted = performance.now();
  const drained = alive(running.server) && (await drain(running.server));
  measured.drainMs = performance.now() - drainStarted;
  measured.peakRssBytes = running.probeRss.take();
  if (!alive(running.server)) {
    measured.crashed = deathOf(running.server);
    console.log(`  the ${running.seeded.set.name} server ended during ${path}: ${measured.crashed}`);
  } else if (!drained) {
    measured.unresponsive = true;
    console.log(`  the ${running.seeded.set.name} server was still busy ${fmt(DRAIN_MAX_MS / 1000)} s after ${path}: starting it again`);
    await stopProcess(running.server.child);
  } else if (measured.drainMs > 2_000) {
    console.log(`    (the ${running.seeded.set.name} server answered /healthz again ${fmt(measured.drainMs / 1000, 1)} s after the load)`);
  }
  return measured;
}

/** Waits until /healthz answers within a second (the server has worked through what was asked of it); false after DRAIN_MAX_MS. */
async function drain(server: Started): Promise<boolean> {
  const until = performance.now() + DRAIN_MAX_MS;
  while (performance.now() < until && alive(server)) {
    const asked = performance.now();
    try {
      const res = await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(Math.max(1, Math.ceil(until - asked))) });
      await res.arrayBuffer();
      if (res.ok && performance.now() - asked < 1_000) return true;
    } catch {
      // still busy (or it ended: the caller looks)
    }
    await sleep(100);
  }
  return false;
}

const failures = (m: Measured) => (m.run ? m.run.errors + m.run.timeouts + m.run.non2xx : 1);
const clean = (m: Measured) => (m.run?.requests ?? 0) > 0 && !m.crashed && !m.unresponsive && !m.error && failures(m) === 0;

/** The round a data set is judged by: the first that failed, else the one with the lowest p99; the peak RSS of all. */
function keptRound(rounds: Measured[]): Measured {
  const kept = rounds.find((m) => !clean(m)) ?? rounds.reduce((a, b) => (b.run!.latencyMs.p99 < a.run!.latencyMs.p99 ? b : a));
  return { ...kept, peakRssBytes: Math.max(...rounds.map((m) => m.peakRssBytes)) };
}

function judge(probe: (typeof PROBES)[number], small: Measured, large: Measured): Omit<ProbeResult, 'roundsP99'> {
  // A run in which no answer came back (all slower than the run) has no p99: it fails.
  const answered = (m: Measured) => (m.run?.requests ?? 0) > 0;
  const p99 = (m: Measured) => (answered(m) ? m.run!.latencyMs.p99 : Infinity);
  const p99Ratio = p99(large) / p99(small);
  const bytesRatio = large.answerBytes / small.answerBytes;
  const ok = (m: Measured) => answered(m) && !m.crashed && !m.unresponsive && failures(m) === 0;
  return {
    key: probe.key,
    label: probe.label,
    small,
    large,
    p99Ratio,
    bytesRatio,
    pass: {
      p99:
        ok(large) &&
        answered(small) &&
        (p99(large) <= SCALE_BUDGETS.p99Ratio * p99(small) || p99(large) <= p99(small) + SCALE_BUDGETS.p99SlackMs),
      bytes: large.status === 200 && bytesRatio <= SCALE_BUDGETS.bytesRatio,
      errors: ok(small) && ok(large),
    },
  };
}

type EngineResult = {
  engine: Engine;
  seedMs: Record<SetName, number>;
  rows: Record<SetName, ScaleSeeded['rows']>;
  coldStartMs: Record<SetName, number[]>;
  startRssBytes: Record<SetName, number>;
  restarts: Record<SetName, number>;
  probes: ProbeResult[];
  peakRssBytes: Record<SetName, number>;
  rssPass: boolean;
};

async function runEngine(engine: Engine, sets: DataSet[], tempDir: string): Promise<EngineResult> {
  console.log(`\n${engine}:`);
  let cluster: PostgresCluster | null = null;
  const running: Running[] = [];
  try {
    if (engine === 'postgres') cluster = await startPostgres();
    const seededSets: Seeded[] = [];
    const seedMs = {} as Record<SetName, number>;
    for (const set of sets) {
      const started = performance.now();
      const dataDir = join(tempDir, `${engine}-${set.name}-data`);
      const seeded = await seed(set, dataDir, cluster ? await createTestDatabase(cluster.url) : undefined);
      seedMs[set.name] = performance.now() - started;
      const r = seeded.seeded.rows;
      console.log(
        `  seeded ${set.name} (×${set.factor}) in ${fmt(seedMs[set.name] / 1000, 1)} s: ${fmt(r.users + 2)} users, ${fmt(r.projects)} projects, ${fmt(r.events)} events, ${fmt(r.messages)} messages; big project ${seeded.seeded.bigProjectId}: ${fmt(set.targets.bigProjectEvents)} events, ${fmt(set.targets.bigProjectMessages)} messages`,
      );
      seededSets.push(seeded);
    }
    for (const seeded of seededSets) {
      const env: Record<string, string> = {
        NODE_ENV: 'production',
        WEB_CONCURRENCY: '1',
        LOG_LEVEL,
        DATA_DIR: seeded.dataDir,
        SESSION_SECRET: randomBytes(32).toString('base64url'),
        ...(seeded.databaseUrl ? { DATABASE_URL: seeded.databaseUrl } : {}),
      };
      const started = await startSet(seeded, env, tempDir);
      const headers = await signInAll(started.server.base);
      await sleep(1_000);
      const startRssBytes = started.probeRss.take();
      running.push({ ...started, headers, startRssBytes });
      console.log(
        `  ${seeded.set.name} server: cold start ${fmt(started.server.coldStartMs)} ms, RSS ${fmt(mib(startRssBytes), 1)} MiB before any load (${fmt(seeded.set.targets.posts)} posts)`,
      );
    }
    const restart = async (r: Running) => {
      r.probeRss.stop();
      r.runRss.stop();
      const again = await startSet(r.seeded, r.env, tempDir, r.starts);
      Object.assign(r, { server: again.server, probeRss: again.probeRss, runRss: again.runRss, starts: again.starts });
      r.coldStartMs.push(again.server.coldStartMs);
      console.log(`  ${r.seeded.set.name} server started again (${fmt(again.server.coldStartMs)} ms)`);
    };

    const probes: ProbeResult[] = [];
    const [small, large] = running as [Running, Running];
    for (const probe of PROBES.filter((p) => ONLY.length === 0 || ONLY.includes(p.key))) {
      console.log(`  ${probe.label}:`);
      const rounds: Record<SetName, Measured[]> = { small: [], large: [] };
      for (let round = 1; round <= ROUNDS; round++) {
        rounds.small.push(await measureProbe(small, probe, restart));
        rounds.large.push(await measureProbe(large, probe, restart));
      }
      const roundP99 = (m: Measured) => (m.run?.requests ? m.run.latencyMs.p99 : null);
      probes.push({
        ...judge(probe, keptRound(rounds.small), keptRound(rounds.large)),
        roundsP99: { small: rounds.small.map(roundP99), large: rounds.large.map(roundP99) },
      });
    }
    const peak = (r: Running) => Math.max(0, ...probes.map((p) => (r === small ? p.small : p.large).peakRssBytes));
    const peakRssBytes = { small: peak(small), large: peak(large) };
    return {
      engine,
      seedMs,
      rows: { small: small.seeded.seeded.rows, large: large.seeded.seeded.rows },
      coldStartMs: { small: small.coldStartMs, large: large.coldStartMs },
      startRssBytes: { small: small.startRssBytes, large: large.startRssBytes },
      restarts: { small: small.starts - 1, large: large.starts - 1 },
      probes,
      peakRssBytes,
      rssPass: peakRssBytes.large <= SCALE_BUDGETS.rssBytes && probes.every((p) => !p.large.crashed),
    };
  } finally {
    for (const r of running) {
      r.probeRss.stop();
      r.runRss.stop();
      if (alive(r.server)) await stopProcess(r.server.child);
    }
    cluster?.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Report.

function table(result: EngineResult): string {
  const head = [
    'page',
    'path (large)',
    'p99 ms small → large',
    '×',
    'req/s small → large',
    'bytes small → large',
    '×',
    'RSS MiB',
    'verdict',
  ];
  const ms = (m: Measured) => (m.run?.requests ? fmt(m.run.latencyMs.p99) : '-');
  const rps = (m: Measured) => (m.run ? fmt(m.run.reqPerSec) : '-');
  const rows = result.probes.map((p) => {
    const broken = p.large.crashed
      ? `server died: ${p.large.crashed.split(' (')[0]}`
      : p.large.unresponsive
        ? `server still busy ${fmt(DRAIN_MAX_MS / 1000)} s after the load`
        : p.large.error
          ? 'error'
          : '';
    const errors = !p.large.run
      ? ''
      : p.large.run.requests === 0
        ? 'no answer within the run'
        : failures(p.large) > 0
          ? `${fmt(failures(p.large))} failed requests`
          : '';
    const verdict = [p.pass.p99 ? '' : 'p99', p.pass.bytes ? '' : 'bytes', p.pass.errors ? '' : 'errors'].filter(Boolean);
    return [
      p.label,
      p.large.path.length > 48 ? `${p.large.path.slice(0, 45)}…` : p.large.path,
      `${ms(p.small)} → ${ms(p.large)}`,
      Number.isFinite(p.p99Ratio) ? fmt(p.p99Ratio, 1) : '-',
      `${rps(p.small)} → ${rps(p.large)}`,
      `${fmt(p.small.answerBytes)} → ${fmt(p.large.answerBytes)}`,
      fmt(p.bytesRatio, 1),
      fmt(mib(p.large.peakRssBytes), 0),
      verdict.length ? `FAIL ${verdict.join(', ')}${broken || errors ? ` (${[broken, errors].filter(Boolean).join('; ')})` : ''}` : 'PASS',
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 || i === 8 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function parseOptions(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      scale: { type: 'boolean' },
      engine: { type: 'string' },
      factor: { type: 'string', default: '1' },
      'small-factor': { type: 'string', default: '0.01' },
    },
  });
  const engine = values.engine ?? (postgresBinDir() ? 'both' : 'sqlite');
  if (!['sqlite', 'postgres', 'both'].includes(engine)) throw new Error(`--engine must be sqlite, postgres or both, not ${engine}`);
  if (engine !== 'sqlite' && !postgresBinDir())
    throw new Error('--engine postgres: PostgreSQL is not installed (apt-get install -y postgresql)');
  const engines: Engine[] = engine === 'both' ? ['sqlite', 'postgres'] : [engine as Engine];
  const factor = Number(values.factor);
  const smallFactor = Number(values['small-factor']);
  scaledTargets(factor);
  scaledTargets(smallFactor);
  return { engines, factor, smallFactor };
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const options = parseOptions(argv);
  installCleanup();
  pinSelf(1);
  const probeCount = PROBES.filter((p) => ONLY.length === 0 || ONLY.includes(p.key)).length;
  const minutes = (options.engines.length * probeCount * ROUNDS * 2 * (WARMUP_SECONDS + SECONDS)) / 60;
  console.log(
    `bench --scale: ${options.engines.join(' and ')}; data ×${options.smallFactor} (small) against ×${options.factor} (large); ` +
      `${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per page and data set, ${ROUNDS} round(s) (${probeCount} pages: ~${fmt(minutes)} min of load, ` +
      `more when a disturbed run is measured again), uncompressed; ${PINNED ? 'servers on core 0, load on core 1' : 'NOT pinned'}; ` +
      `Node flags of npm start: ${[...serverNodeFlags(), ...NODE_ARGS].join(' ')}; environment: ${serverEnvText()}`,
  );
  const startedAt = new Date();
  const loadBefore = loadavg();
  let busyBefore = await machineBusy();
  if (busyBefore > DISTURBED_CORES) {
    console.log(`the machine is busy (${fmt(busyBefore * 100)} % of a core): waiting ${QUIET_WAIT_SECONDS} s at most for it to be quiet`);
    if (await waitForQuiet(QUIET_WAIT_SECONDS)) busyBefore = await machineBusy();
  }
  if (NO_BUILD && existsSync(APP_SERVER)) console.log('BENCH_NO_BUILD=1: using the existing dist/');
  else buildApp();

  const tempDir = makeTempDir('bench-scale-');
  const sets: DataSet[] = [];
  const postsMs = {} as Record<SetName, number>;
  for (const [name, factor] of [
    ['small', options.smallFactor],
    ['large', options.factor],
  ] as const) {
    const targets = scaledTargets(factor);
    const { root, postsMs: ms } = await serverRoot(join(tempDir, `root-${name}`), targets.posts);
    postsMs[name] = ms;
    console.log(`${name} server root: ${fmt(targets.posts)} posts written and pre-rendered in ${fmt(ms / 1000, 1)} s`);
    sets.push({ name, factor, targets, root });
  }

  const results: EngineResult[] = [];
  for (const engine of options.engines) results.push(await runEngine(engine, sets, tempDir));

  console.log('');
  for (const result of results) {
    console.log(`${result.engine}: ×${options.smallFactor} (small) → ×${options.factor} (large)`);
    console.log(table(result));
    console.log('');
  }
  console.log(
    `budgets: p99 ≤ ${SCALE_BUDGETS.p99Ratio}× small (or ≤ small + ${SCALE_BUDGETS.p99SlackMs} ms), one answer's bytes ≤ ${SCALE_BUDGETS.bytesRatio}× small, ` +
      `no failed request and no server death, peak RSS with the large data ≤ ${fmt(mib(SCALE_BUDGETS.rssBytes))} MiB`,
  );
  for (const result of results) {
    const failed = (kind: keyof ProbeResult['pass']) => result.probes.filter((p) => !p.pass[kind]).map((p) => p.key);
    for (const kind of ['p99', 'bytes', 'errors'] as const) {
      const list = failed(kind);
      console.log(
        `  ${mark(list.length === 0)}  ${result.engine} ${kind.padEnd(6)} ${list.length ? `failing: ${list.join(', ')}` : `all ${result.probes.length} pages`}`,
      );
    }
    console.log(
      `  ${mark(result.rssPass)}  ${result.engine} peak RSS ${fmt(mib(result.peakRssBytes.large), 1)} MiB with the large data (small: ${fmt(mib(result.peakRssBytes.small), 1)} MiB)` +
        (result.restarts.large ? `; the large server was started again ${result.restarts.large} time(s) (it died, or stayed busy)` : ''),
    );
    console.log(
      `       before any load: RSS small ${fmt(mib(result.startRssBytes.small), 1)} MiB, large ${fmt(mib(result.startRssBytes.large), 1)} MiB; ` +
        `cold start small ${fmt(result.coldStartMs.small[0] ?? 0)} ms, large ${fmt(result.coldStartMs.large[0] ?? 0)} ms; ` +
        `seeding small ${fmt(result.seedMs.small / 1000, 1)} s, large ${fmt(result.seedMs.large / 1000, 1)} s`,
    );
  }
  const disturbed = results.flatMap((r) =>
    r.probes.flatMap((p) =>
      [p.small, p.large].filter((m) => m.run && disturbance(m.run) > DISTURBED_CORES).map(() => `${r.engine} ${p.key}`),
    ),
  );
  if (disturbed.length)
    console.log(
      `  WARNING: other processes took > 10 % of a core during ${[...new Set(disturbed)].join(', ')}: run again on a quiet machine`,
    );
  const loadAfter = loadavg();
  console.log(`  load average before ${loadBefore.map((l) => fmt(l, 2)).join(' ')}, after ${loadAfter.map((l) => fmt(l, 2)).join(' ')}`);

  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? '',
      memoryBytes: totalmem(),
      loadavgBefore: loadBefore,
      loadavgAfter: loadAfter,
      busyCoresBeforeRun: busyBefore,
      node: process.version,
      pinned: PINNED,
    },
    settings: {
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      connections: CONNECTIONS,
      rounds: ROUNDS,
      logLevel: LOG_LEVEL,
      acceptEncoding: 'identity',
    },
    budgets: SCALE_BUDGETS,
    dataSets: sets.map((s) => ({ name: s.name, factor: s.factor, targets: s.targets, postsMs: postsMs[s.name] })),
    engines: results,
  };
  mkdirSync(RESULTS, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(RESULTS, `scale-${stamp}.json`), JSON.stringify(report, null, 2));
  console.log(`\nresults: bench-results/scale-${stamp}.json`);
  const failedAny = results.some((r) => !r.rssPass || r.probes.some((p) => !p.pass.p99 || !p.pass.bytes || !p.pass.errors));
  cleanup();
  if (STRICT && failedAny) process.exitCode = 1;
}

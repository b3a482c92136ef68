// What the benchmark (run.ts) and the Lighthouse run (scripts/lighthouse.ts) share: the
// production build, a temporary DATA_DIR, the server as a child process (pinned to one core
// where taskset exists), and the clean-up of every child on exit, error or Ctrl-C.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role } from '../../shared/user.ts';
import { launchServer } from '../launch-server.ts';
import type { LoadOptions, LoadResult } from './load.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const RESULTS = join(ROOT, 'bench-results');
export const APP_SERVER = join(ROOT, 'dist', 'server', 'main.js');
/** The bundle the entry (APP_SERVER) loads, with its source map (for profiles). */
export const APP_BUNDLE = join(ROOT, 'dist', 'server', 'server.js');
export const MANIFEST = join(ROOT, 'dist', 'client', 'manifest.json');

// ---------------------------------------------------------------------------------------------
// Children and temporary folders: ended and removed on exit, error, Ctrl-C.

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

export function cleanup(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

let installed = false;
/** Ends the children and removes the temporary folders however this process ends. */
export function installCleanup(): void {
  if (installed) return;
  installed = true;
  process.on('exit', cleanup);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping`);
      cleanup();
      process.exit(130);
    });
  }
}

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Cores.

const hasTaskset = spawnSync('sh', ['-c', 'command -v taskset'], { encoding: 'utf8' }).status === 0;
/** Server on core 0, everything else on core 1: only with taskset and two cores or more. */
export const PINNED = hasTaskset && cpus().length >= 2;
export const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** The command, pinned to `core` when pinning is possible. */
export function pinned(core: number, command: string, args: string[]): [string, string[]] {
  return PINNED ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
}

/** Moves this process to `core` (when pinning is possible). */
export function pinSelf(core: number): void {
  if (PINNED) spawnSync('taskset', ['-pc', String(core), String(process.pid)], { stdio: 'ignore' });
}

// ---------------------------------------------------------------------------------------------
// Build and data.

export function runOrThrow(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, { cwd: ROOT, env, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
}

/** The production build (scripts/build.ts), in a child process as `npm run build` would. */
export function buildApp(): void {
  runOrThrow(process.execPath, [join(ROOT, 'scripts', 'build.ts')], { ...process.env, NODE_ENV: 'production' });
}

/** Creates the database in `dataDir` with one user (and, when given, its branding) through the app's own modules. */
export async function seedUser(
  dataDir: string,
  user: { userName: string; password: string; role: Role; color?: string },
  databaseUrl?: string,
): Promise<void> {
  const { databaseFile, openDatabase } = await import('../../server/db/index.ts');
  const { createUser } = await import('../../server/users/users.ts');
  const { embeddedBranding } = await import('../../server/user-branding/embedded.ts');
  const { loadBrand } = await import('../../server/brand/brand.ts');
  const db = await openDatabase({ url: databaseUrl, file: databaseFile(dataDir), poolMax: 1 });
  try {
    await createUser(db, {
      userName: user.userName,
      password: user.password,
      role: user.role,
      name: 'Bench',
      lastName: 'User',
      email: null,
    });
    if (user.color)
      await embeddedBranding(db, { defaultColor: loadBrand().colors.primary }).setBranding(user.userName, { color: user.color });
  } finally {
    await db.close();
  }
}

/** The bench's people, one per dashboard, as seedDashboards makes them. */
export const BENCH_PEOPLE = { client: 'bench-client', org: 'bench-org', expert: 'bench-expert', admin: 'bench-admin' } as const;

/**
 * One user per role (the client branded with `color`) and the demo's projects between them
 * (server/projects/demo.ts: one in every state, messages, milestones, documents): what each
 * dashboard lists is then what a small site's is.
 */
export async function seedDashboards(dataDir: string, password: string, color: string, databaseUrl?: string): Promise<void> {
  await seedUser(dataDir, { userName: BENCH_PEOPLE.client, password, role: 'CLI', color }, databaseUrl);
  await seedUser(dataDir, { userName: BENCH_PEOPLE.org, password, role: 'ORG' }, databaseUrl);
  await seedUser(dataDir, { userName: BENCH_PEOPLE.expert, password, role: 'CONS' }, databaseUrl);
  await seedUser(dataDir, { userName: BENCH_PEOPLE.admin, password, role: 'ADMIN' }, databaseUrl);
  const { databaseFile, openDatabase } = await import('../../server/db/index.ts');
  const { seedDemoProjects } = await import('../../server/projects/demo.ts');
  const db = await openDatabase({ url: databaseUrl, file: databaseFile(dataDir), poolMax: 1 });
  try {
    await seedDemoProjects(db, BENCH_PEOPLE);
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Servers.

export { freePort } from '../launch-server.ts';

/** Set once undici has made its first request (that costs tens of milliseconds). */
let fetchReady = false;

export async function stopProcess(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export type Started = { name: string; child: ChildProcess; pid: number; port: number; base: string; coldStartMs: number; logFile: string };

/**
 * Starts `script` (the built server, or the floor) through the one launcher
 * (scripts/launch-server.ts): pinned to core 0, its output in `logDir/<name>.log` (a file, so
 * that this process does not read it while loading the server), cold start measured from spawn
 * to the first /healthz 200.
 */
export async function startServer(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  logDir: string,
  options: { pin?: boolean; nodeArgs?: string[]; startTimeoutMs?: number } = {},
): Promise<Started> {
  if (!fetchReady) {
    // undici's first fetch costs tens of milliseconds: not the server's cold start.
    await fetch('http://127.0.0.1:9/', { signal: AbortSignal.timeout(500) }).catch(() => undefined);
    fetchReady = true;
  }
  const logFile = join(logDir, `${name}.log`);
  const server = await launchServer({
    script,
    env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    ...(env.DATA_DIR ? { dataDir: env.DATA_DIR } : {}),
    ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
    ...(options.startTimeoutMs ? { startTimeoutMs: options.startTimeoutMs } : {}),
    ...(options.pin === false ? {} : { wrap: (command: string, args: string[]) => pinned(0, command, args) }),
    logFile,
  }).catch((error: unknown) => {
    console.error(readFileSync(logFile, 'utf8').slice(-4000));
    throw error;
  });
  track(server.child);
  return { name, child: server.child, pid: server.pid, port: server.port, base: server.url, coldStartMs: server.coldStartMs, logFile };
}

/** The server's own start-up figure, from its "listening" log line (pino JSON). */
export function startupMsFromLog(logFile: string): number | null {
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('startupMs')) continue;
    try {
      const value = (JSON.parse(line) as { startupMs?: unknown }).startupMs;
      if (typeof value === 'number') return value;
    } catch {
      // not JSON
    }
  }
  return null;
}

export async function getText(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { headers, redirect: 'manual' });
  return { status: res.status, body: await res.text() };
}

/** Signs in through the login form (POST, same Origin) and returns the Cookie header to send. */
export async function signIn(base: string, identifier: string, password: string): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base, Accept: 'text/html' },
    body: new URLSearchParams({ identifier, password }).toString(),
  });
  await res.arrayBuffer();
  const cookies = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .filter((c) => c && !c.endsWith('='));
  if (res.status !== 303 || !cookies.some((c) => c.startsWith('auth._token.local='))) {
    throw new Error(`Sign-in failed: ${res.status}, cookies ${cookies.map((c) => c.split('=')[0]).join(', ') || 'none'}`);
  }
  return cookies.join('; ');
}

/** One autocannon run (load.ts) in its own process, pinned to core 1 when possible. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  // autocannon sets a negative timer when a run ends with requests in flight (a slow page): harmless.
  const script = [join(ROOT, 'scripts', 'bench', 'load.ts'), JSON.stringify(options)];
  const [command, args] = pinned(1, process.execPath, ['--disable-warning=TimeoutNegativeWarning', ...script]);
  const child = track(spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] }));
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), (options.seconds + 60) * 1000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(killer);
  if (code !== 0) throw new Error(`The load generator failed (${code}) on ${options.url}`);
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as LoadResult;
}

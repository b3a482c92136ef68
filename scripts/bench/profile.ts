// Where the server's time goes under load: runs the production server (or the floor) with
// `node --cpu-prof`, loads one page with autocannon, stops the server, and summarises the
// .cpuprofile: self time by function, by module (app modules are told apart by esbuild's
// source map of dist/server/server.js) and by package, and the inclusive time
// of the busiest functions.
//
// Usage: node scripts/bench/profile.ts [path=/es] [seconds=10] [--floor] [--client] [--postgres] [--startup]
//   --client seeds the bench's users and the demo's projects between them (harness.ts
//   seedDashboards, as npm run bench does), signs in as the branded client and sends its cookie
//   (for /client and the project pages).
//   --postgres runs the app on a throw-away PostgreSQL cluster (DATABASE_URL), as the bench's
//   PostgreSQL mode does.
//   --startup profiles the cold start only: spawn → first 200 from /healthz, then stop.
//   PROFILE_NO_BUILD=1 reuses dist/ (and bench-results/.floor for --floor: run npm run bench once).
//   The profile stays in bench-results/profiles/.
import { createTestDatabase, postgresBinDir, startPostgres } from '../../test/helpers/postgres.ts';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  APP_BUNDLE,
  APP_SERVER,
  buildApp,
  cleanup,
  getText,
  installCleanup,
  makeTempDir,
  BENCH_PEOPLE,
  pinSelf,
  RESULTS,
  ROOT,
  runLoad,
  seedDashboards,
  signIn,
  startServer,
  stopProcess,
} from './harness.ts';

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; hitCount?: number; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

export type ProfileSummary = {
  totalMs: number;
  selfByFunction: { name: string; where: string; ms: number; percent: number }[];
  selfByModule: { module: string; ms: number; percent: number }[];
  inclusiveByFunction: { name: string; where: string; ms: number; percent: number }[];
  /**
   * Busy time (idle left out) by stage: each Express middleware or handler (the frame the
   * router called, without what it hands on through next()), React's rendering and streaming
   * (scheduled outside the middleware chain), logging, GC, and the rest by module.
   */
  byStage: { stage: string; ms: number; percent: number }[];
};

/** Position in the bundle → the source module or package, from the bundle's source map. */
function bundleModules(bundleFile: string): (line: number, column: number) => string {
  const mapFile = `${bundleFile}.map`;
  if (!existsSync(mapFile)) return () => relative(ROOT, bundleFile);
  const map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload);
  const dir = dirname(bundleFile);
  return (line, column) => {
    const entry = map.findEntry(line, column);
    const source = 'originalSource' in entry ? entry.originalSource : undefined;
    if (!source) return relative(ROOT, bundleFile);
    const path = source.startsWith('file://') ? decodeURIComponent(new URL(source).pathname) : join(dir, source);
    const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    return nm?.[1] ?? relative(ROOT, path);
  };
}

function moduleOf(frame: CallFrame, bundles: Map<string, (line: number, column: number) => string>): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node: internals';
  const path = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (nm?.[1]) return nm[1];
  const bundle = bundles.get(path);
  if (bundle) return bundle(frame.lineNumber, frame.columnNumber);
  return relative(ROOT, path);
}

export function summarise(profile: CpuProfile, bundleFiles: string[], top = 25): ProfileSummary {
  const bundles = new Map(bundleFiles.map((f) => [f, bundleModules(f)]));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const where = (frame: CallFrame) => `${moduleOf(frame, bundles)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
  const key = (frame: CallFrame) => `${frame.functionName || '(anonymous)'}\u0000${where(frame)}`;

  const stages = new Map<string, number>();
  let busy = 0;
  const stageOf = (id: number): string => {
    const leaf = byId.get(id)!.callFrame;
    if (leaf.functionName === '(garbage collector)') return 'GC';
    if (leaf.functionName === '(program)') return '(program)';
    const modules = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const up = parent.get(at);
      const caller = up === undefined ? undefined : byId.get(up)!.callFrame;
      modules.add(moduleOf(frame, bundles));
      if (
        caller &&
        moduleOf(caller, bundles) === 'router' &&
        ['handleRequest', 'handle', 'next'].includes(caller.functionName) &&
        moduleOf(frame, bundles) !== 'router'
      ) {
        return `middleware ${frame.functionName || '(anonymous)'} (${where(frame)})`;
      }
    }
    if (modules.has('react-dom')) return 'React render + stream (after the middleware chain)';
    if (modules.has('pino') || modules.has('sonic-boom') || modules.has('thread-stream')) return 'pino (log writes)';
    return `other: ${moduleOf(leaf, bundles)}`;
  };

  const self = new Map<string, number>();
  const selfModule = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    total += delta;
    if (node.callFrame.functionName !== '(idle)') {
      busy += delta;
      const stage = stageOf(id);
      stages.set(stage, (stages.get(stage) ?? 0) + delta);
    }
    const k = key(node.callFrame);
    self.set(k, (self.get(k) ?? 0) + delta);
    const m = moduleOf(node.callFrame, bundles);
    selfModule.set(m, (selfModule.get(m) ?? 0) + delta);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame || frame.functionName === '(root)') continue;
      const fk = key(frame);
      if (seen.has(fk)) continue;
      seen.add(fk);
      inclusive.set(fk, (inclusive.get(fk) ?? 0) + delta);
    }
  });
  const rows = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, ms]) => {
        const [name = '', at = ''] = k.split('\u0000');
        return { name, where: at, ms: Math.round(ms), percent: Math.round((ms / total) * 1000) / 10 };
      });
  return {
    totalMs: Math.round(total),
    selfByFunction: rows(self),
    selfByModule: [...selfModule]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([module, ms]) => ({ module, ms: Math.round(ms), percent: Math.round((ms / total) * 1000) / 10 })),
    inclusiveByFunction: rows(inclusive).filter((r) => !r.name.startsWith('(')),
    byStage: [...stages]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([stage, ms]) => ({ stage, ms: Math.round(ms), percent: Math.round((ms / busy) * 1000) / 10 })),
  };
}

function print(summary: ProfileSummary, requests: number) {
  const perReq = (ms: number) => (requests ? `${Math.round((ms * 1000) / requests)} µs/req` : `${ms} ms`);
  console.log(`\nprofile: ${summary.totalMs} ms sampled, ${requests} requests\n\nbusy time by stage (% of busy time):`);
  for (const r of summary.byStage) console.log(`  ${String(r.percent).padStart(5)} %  ${perReq(r.ms).padStart(12)}  ${r.stage}`);
  console.log('\nself time by module/package:');
  for (const r of summary.selfByModule) console.log(`  ${String(r.percent).padStart(5)} %  ${perReq(r.ms).padStart(12)}  ${r.module}`);
  console.log('\nself time by function:');
  for (const r of summary.selfByFunction)
    console.log(`  ${String(r.percent).padStart(5)} %  ${perReq(r.ms).padStart(12)}  ${r.name}  (${r.where})`);
  console.log('\ninclusive time by function:');
  for (const r of summary.inclusiveByFunction)
    console.log(`  ${String(r.percent).padStart(5)} %  ${perReq(r.ms).padStart(12)}  ${r.name}  (${r.where})`);
}

async function main() {
  installCleanup();
  pinSelf(1);
  const args = process.argv.slice(2);
  const floor = args.includes('--floor');
  const client = args.includes('--client');
  const startup = args.includes('--startup');
  const postgres = args.includes('--postgres');
  if (postgres && !postgresBinDir()) throw new Error('--postgres: PostgreSQL is not installed (apt-get install -y postgresql)');
  const [path = floor ? '/' : '/es', secondsArg = '10'] = args.filter((a) => !a.startsWith('--'));
  const seconds = Number(secondsArg);
  const floorBundle = join(RESULTS, '.floor', 'floor-server.js');
  const floorPage = join(RESULTS, '.floor', 'home.json');
  if (process.env.PROFILE_NO_BUILD !== '1') buildApp();
  if (floor && (!existsSync(floorBundle) || !existsSync(floorPage))) throw new Error('No floor build: run `npm run bench` once first');

  const tempDir = makeTempDir('profile-');
  const dataDir = join(tempDir, 'data');
  const password = `Bench-${randomBytes(6).toString('hex')}-9!`;
  const cluster = postgres ? await startPostgres() : null;
  // Stopped after the load below; on a failure too (stop is idempotent): no cluster outlives the script.
  if (cluster) process.once('exit', () => cluster.stop());
  const databaseUrl = cluster ? await createTestDatabase(cluster.url) : undefined;
  if (client) await seedDashboards(dataDir, password, '#1d4ed8', databaseUrl);
  const profileDir = join(RESULTS, 'profiles', `${floor ? 'floor' : 'app'}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(profileDir, { recursive: true });
  const server = await startServer(
    floor ? 'floor' : 'app',
    floor ? floorBundle : APP_SERVER,
    floor
      ? { NODE_ENV: 'production', FLOOR_PAGE: floorPage }
      : {
          NODE_ENV: 'production',
          WEB_CONCURRENCY: '1',
          DATA_DIR: dataDir,
          SESSION_SECRET: randomBytes(32).toString('base64url'),
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        },
    tempDir,
    { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] },
  );
  if (startup) {
    console.log(`cold start ${Math.round(server.coldStartMs)} ms (spawn → /healthz 200, with the profiler on)`);
    await stopProcess(server.child, 15_000);
    cluster?.stop();
    const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`No .cpuprofile in ${profileDir}`);
    print(summarise(JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile, [APP_BUNDLE, floorBundle]), 0);
    cleanup();
    return;
  }
  const headers: Record<string, string> = { 'Accept-Encoding': 'identity' };
  if (client) headers.Cookie = await signIn(server.base, BENCH_PEOPLE.client, password);
  const check = await getText(server.base + path, headers);
  if (check.status !== 200) throw new Error(`${path} answered ${check.status}`);
  console.log(`profiling ${floor ? 'the floor' : 'the app'} on ${path}: 2 s warm-up, ${seconds} s at 50 connections…`);
  const warm = await runLoad({ url: server.base + path, seconds: 2, connections: 50, headers });
  const result = await runLoad({ url: server.base + path, seconds, connections: 50, headers });
  console.log(`${Math.round(result.reqPerSec)} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms`);
  await stopProcess(server.child, 15_000);
  cluster?.stop();

  const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`No .cpuprofile in ${profileDir}`);
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
  const summary = summarise(profile, [APP_BUNDLE, floorBundle]);
  // The whole run (start-up, warm-up, load) is in the profile: per-request figures divide by
  // every request served (warm-up included); start-up (~0.3 s of CPU) inflates them a little.
  print(summary, warm.requests + result.requests);
  writeFileSync(join(profileDir, 'summary.json'), JSON.stringify({ path, floor, load: result, summary }, null, 2));
  console.log(`\nprofile: ${relative(ROOT, join(profileDir, file))} (open in Chrome DevTools › Performance); summary.json beside it`);
  cleanup();
}

if (import.meta.filename === process.argv[1])
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    cleanup();
    process.exitCode = 1;
  });

// The one launcher of the built server as production runs it (the Node flags of `npm start`,
// then dist/server/main.js): a free loopback port, its own DATA_DIR, a fresh SESSION_SECRET, a wait for
// /healthz, and a stop that lets it shut down gracefully. Used by the browser, resilience and
// attack suites, the benchmark and the screenshots.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_ENV, serverNodeFlags } from './server-flags.ts';

export const ROOT = join(import.meta.dirname, '..');
export const SERVER_ENTRY = join(ROOT, 'dist', 'server', 'main.js');

export async function freePort(): Promise<number> {
  const server = createServer();
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export type LaunchOptions = {
  /** Over the defaults (production, quiet logs, a fresh SESSION_SECRET). */
  env?: Record<string, string>;
  /** The DATA_DIR to use (kept); by default a temporary one, removed by stop(). */
  dataDir?: string;
  /** Node flags after production's (later flags win), e.g. `--import` of a probe. */
  nodeArgs?: string[];
  /** The script instead of the built server (the benchmark's floor). */
  script?: string;
  /** Wraps the command, e.g. to pin it to a core: (command, args) → [command, args]. */
  wrap?: (command: string, args: string[]) => [string, string[]];
  /** Writes the server's output to this file instead of keeping it in memory (the benchmark). */
  logFile?: string;
  /** Called with each chunk of output (when not written to a file). */
  onOutput?: (text: string) => void;
  startTimeoutMs?: number;
};

export type LaunchedServer = {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  dataDir: string;
  /** Spawn → first /healthz 200, in ms. */
  coldStartMs: number;
  /** What the server printed (or the log file's content). */
  output: () => string;
  /** SIGTERM (SIGKILL after 5 s), then the temporary DATA_DIR goes; the exit code. */
  stop: () => Promise<number | null>;
};

export async function launchServer(options: LaunchOptions = {}): Promise<LaunchedServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'site-server-'));
  const nodeArgs = [...serverNodeFlags(), ...(options.nodeArgs ?? []), options.script ?? SERVER_ENTRY];
  const [command, args] = options.wrap ? options.wrap(process.execPath, nodeArgs) : [process.execPath, nodeArgs];
  let output = '';
  const logFd = options.logFile ? openSync(options.logFile, 'w') : null;
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...SERVER_ENV,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      // API_JWT_SECRET is left to derive from it, as in production: processes given one
      // SESSION_SECRET (several instances of a test) then verify each other's tokens.
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      ...options.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
    },
    stdio: ['ignore', logFd ?? 'pipe', logFd ?? 'pipe'],
  });
  if (logFd !== null) closeSync(logFd);
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    options.onOutput?.(text);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const readOutput = () => (options.logFile ? readFileSync(options.logFile, 'utf8') : output);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(killer);
    }
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    return child.exitCode;
  };

  const timeoutMs = options.startTimeoutMs ?? 20_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`The server exited (${child.exitCode ?? child.signalCode}) before answering /healthz:\n${readOutput().slice(-4000)}`);
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (performance.now() - started > timeoutMs) {
      await stop();
      throw new Error(`The server did not answer ${url}/healthz within ${timeoutMs} ms:\n${readOutput().slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const coldStartMs = performance.now() - started;
  return { url, port, pid: child.pid!, child, dataDir, coldStartMs, output: readOutput, stop };
}

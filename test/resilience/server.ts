// Starts the built server (dist/server/main.js) as a real process on a free loopback port, with
// its own DATA_DIR, for tests that need processes: workers, signals, load.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtServerArgs } from '../../scripts/server-flags.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export type RunningServer = {
  url: string;
  port: number;
  process: ChildProcess;
  dataDir: string;
  output: () => string;
  stop: () => Promise<number | null>;
};

export function addUser(dataDir: string, args: string[]) {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'user.ts'), 'add', ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`user add failed: ${result.stderr}`);
}

export async function startServer(env: Record<string, string> = {}, prepare?: (dataDir: string) => void): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'site-proc-'));
  prepare?.(dataDir);
  let output = '';
  const child = spawn(process.execPath, builtServerArgs(), {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SESSION_SECRET: 'resilience-test-session-secret-0123456789',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    url,
    port,
    process: child,
    dataDir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

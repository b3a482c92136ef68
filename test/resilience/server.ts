// The built server as a real process (scripts/launch-server.ts, the one launcher), with its own
// DATA_DIR, for tests that need processes: workers, signals, load, several instances.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchServer } from '../../scripts/launch-server.ts';
import { scaled } from '../helpers/time-scale.ts';

export { freePort } from '../../scripts/launch-server.ts';

const ROOT = join(import.meta.dirname, '..', '..');

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

/** One SESSION_SECRET for every process of a test: a cookie sealed by one opens on the others. */
const SHARED_SESSION_SECRET = 'resilience-test-session-secret-0123456789';

export async function startServer(env: Record<string, string> = {}, prepare?: (dataDir: string) => void): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'site-proc-'));
  prepare?.(dataDir);
  const server = await launchServer({ env: { SESSION_SECRET: SHARED_SESSION_SECRET, ...env }, dataDir, startTimeoutMs: scaled(15_000) });
  return {
    url: server.url,
    port: server.port,
    process: server.child,
    dataDir,
    output: server.output,
    stop: async () => {
      const code = await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

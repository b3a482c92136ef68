// Browser tests run against the real production server: build if stale, start
// `node dist/server/main.js` on a free port, wait until it answers /healthz, hand its base URL
// to the tests (inject('baseURL')) and stop it afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { build, isBuildStale, ROOT } from '../../scripts/build.ts';
import { builtServerArgs } from '../../scripts/server-flags.ts';

declare module 'vitest' {
  interface ProvidedContext {
    baseURL: string;
  }
}

const STARTUP_TIMEOUT_MS = 20_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseURL: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${baseURL}/healthz`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The server did not answer ${baseURL}/healthz within ${STARTUP_TIMEOUT_MS} ms:\n${output()}`);
}

function stop(child: ChildProcess): Promise<void> {
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

export default async function setup(project: TestProject) {
  if (isBuildStale()) await build({ quiet: true });

  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  // A throw-away data directory (database, uploads) and fresh secrets: production requires them.
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-data-'));
  const child = spawn(process.execPath, builtServerArgs(), {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      API_JWT_SECRET: randomBytes(32).toString('base64url'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const cleanUp = async () => {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  // Keep the server's output: shown if it fails to start, and warnings are echoed as they come.
  let log = '';
  const collect = (chunk: Buffer) => {
    log += chunk.toString();
    process.stderr.write(`[server] ${chunk.toString()}`);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  try {
    await waitForHealth(baseURL, child, () => log);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  project.provide('baseURL', baseURL);

  return cleanUp;
}

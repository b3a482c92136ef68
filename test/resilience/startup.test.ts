// Cold start (docs/decisions/007): the built entry turns Node's compile cache on and writes it once the
// server listens, so that later starts skip compiling the bundle.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startServer, type RunningServer } from './server.ts';

let server: RunningServer | undefined;
const cacheDir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
afterEach(async () => {
  await server?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

test('the built server writes the compile cache once it listens (later starts skip compiling the bundle)', async () => {
  server = await startServer({ NODE_COMPILE_CACHE: cacheDir });
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  const files = readdirSync(cacheDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  expect(files.length).toBeGreaterThan(0);
});

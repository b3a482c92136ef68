import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppDeps } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/index.ts';
import { createLogger } from '../../server/logger.ts';

export const ORIGIN = 'https://www.example.test';
export const TEST_SESSION_SECRET = 'test-session-secret-that-is-long-enough-123';

export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: ORIGIN,
    LOG_LEVEL: 'silent',
    SESSION_SECRET: TEST_SESSION_SECRET,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'site-data-')),
    ...env,
  });
}

let shared: ReturnType<typeof createApp> | undefined;

/** A fresh app on an in-memory database (and a temporary DATA_DIR). */
export function createTestApp(env?: Record<string, string>, deps: Partial<AppDeps> = {}) {
  const app = createApp({ config: testConfig(env), logger: deps.logger ?? createLogger('silent'), db: openDatabase(':memory:'), ...deps });
  void app.then((a) => a.notifier?.stop());
  return app;
}

/** The app with the embedded defaults; shared within a test file unless options are given. */
export function testApp(env?: Record<string, string>, deps: Partial<AppDeps> = {}) {
  if (!env && Object.keys(deps).length === 0) {
    shared ??= createTestApp();
    return shared.then((a) => a.app);
  }
  return createTestApp(env, deps).then((a) => a.app);
}

import { createApp, type AppDeps } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';

export const ORIGIN = 'https://www.example.test';

export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({ NODE_ENV: 'test', PUBLIC_URL: ORIGIN, LOG_LEVEL: 'silent', ...env });
}

let shared: ReturnType<typeof createApp> | undefined;

/** The app with the embedded defaults; shared within a test file unless options are given. */
export function testApp(env?: Record<string, string>, deps: Partial<AppDeps> = {}) {
  if (!env && Object.keys(deps).length === 0) {
    shared ??= createApp({ config: testConfig(), logger: createLogger('silent') });
    return shared.then((a) => a.app);
  }
  return createApp({ config: testConfig(env), logger: createLogger('silent'), ...deps }).then((a) => a.app);
}

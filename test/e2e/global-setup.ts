// Browser tests run against the real production server: build if stale, start it with the one
// launcher (scripts/launch-server.ts: production flags, a free port, a throw-away DATA_DIR, fresh
// secrets), hand its base URL to the tests (inject('baseURL')) and stop it afterwards.
import type { TestProject } from 'vitest/node';
import { build, isBuildStale } from '../../scripts/build.ts';
import { launchServer } from '../../scripts/launch-server.ts';
import { scaled } from '../helpers/time-scale.ts';

declare module 'vitest' {
  interface ProvidedContext {
    baseURL: string;
  }
}

export default async function setup(project: TestProject) {
  if (isBuildStale()) await build({ quiet: true });
  // The server's warnings are echoed as they come (and its whole output if it fails to start).
  const server = await launchServer({ onOutput: (text) => process.stderr.write(`[server] ${text}`), startTimeoutMs: scaled(20_000) });
  project.provide('baseURL', server.url);
  return async () => {
    await server.stop();
  };
}

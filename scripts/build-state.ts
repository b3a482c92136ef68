// Whether dist/ is older than the sources, without loading the build tools: `npm start` asks on
// every start and loads scripts/build.ts (esbuild) only when it has to build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');
export const DIST = join(ROOT, 'dist');
export const BUILD_INFO = join(DIST, 'build-info.json');
/** Everything whose change makes a build stale. */
export const SOURCE_DIRS = ['client', 'server', 'shared', 'locales', 'content'];
export const SOURCE_FILES = ['package.json', 'package-lock.json', 'scripts/build.ts', 'scripts/build-state.ts'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when there is no build or a source is newer than it. */
export function isBuildStale(): boolean {
  if (!existsSync(BUILD_INFO) || !['main.js', 'server.js', 'pdf-worker.js'].every((file) => existsSync(join(DIST, 'server', file))))
    return true;
  const builtAt = statSync(BUILD_INFO).mtimeMs;
  return [...SOURCE_DIRS, ...SOURCE_FILES].some((p) => newestMtime(join(ROOT, p)) > builtAt);
}

// `npm start`: build when the build is missing or older than any source, then serve.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, BUILD_INFO, ROOT, SOURCE_DIRS, SOURCE_FILES } from './build.ts';

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function isBuildStale(): boolean {
  if (!existsSync(BUILD_INFO) || !existsSync(join(ROOT, 'dist', 'server', 'main.js'))) return true;
  const builtAt = statSync(BUILD_INFO).mtimeMs;
  return [...SOURCE_DIRS, ...SOURCE_FILES].some((p) => newestMtime(join(ROOT, p)) > builtAt);
}

if (isBuildStale()) {
  console.log('Building (the build is missing or older than the sources)…');
  await build();
}
await import(pathToFileURL(join(ROOT, 'dist', 'server', 'main.js')).href);

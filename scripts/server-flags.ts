// The Node flags production runs the server with (and the command built on them): those of `npm start` in package.json (one
// place), so that the benchmark and the browser and resilience tests start the server the way
// production does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const START = /^node((?: --[\w-]+(?:=\S+)?)*) scripts\/start\.ts$/;

/**
 * The environment production starts the server with, beside the flags: the deploy files set it
 * (deploy/Dockerfile's ENV, deploy/site.service's Environment=; test/deploy.test.ts holds them
 * equal) and the benchmark and the browser and resilience tests launch the built server with it.
 * `MALLOC_ARENA_MAX=2`: glibc's malloc keeps at most two arenas rather than one per thread that
 * ever allocated (libuv's pool, V8's GC helpers, the PDF worker), ~10 MiB less RSS under load
 * (decision 007). Read by glibc when the process starts, so it cannot be set from inside it.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** SERVER_ENV as NAME=value words (for a report). */
export const serverEnvText = () =>
  Object.entries(SERVER_ENV)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');

/** The flags between `node` and `scripts/start.ts` in the `start` script. */
export function serverNodeFlags(root = join(import.meta.dirname, '..')): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const match = START.exec(pkg.scripts?.start ?? '');
  if (!match) throw new Error(`package.json "start" is not "node [--flags] scripts/start.ts": ${pkg.scripts?.start}`);
  return (match[1] ?? '').trim().split(' ').filter(Boolean);
}

/** Node's arguments to run the built server as production does: the flags, then dist/server/main.js. */
export function builtServerArgs(root = join(import.meta.dirname, '..')): string[] {
  return [...serverNodeFlags(root), join(root, 'dist', 'server', 'main.js')];
}

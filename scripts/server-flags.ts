// The Node flags production runs the server with (and the command built on them): those of `npm start` in package.json (one
// place), so that the benchmark and the browser and resilience tests start the server the way
// production does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const START = /^node((?: --[\w-]+(?:=\S+)?)*) scripts\/start\.ts$/;

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

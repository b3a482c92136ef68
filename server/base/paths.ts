// Where the project's files are, from the source tree (tests) or the bundle in dist/server.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

export const PATHS = {
  root: ROOT,
  locales: join(ROOT, 'locales'),
  content: join(ROOT, 'content'),
  public: join(ROOT, 'public'),
  /** The company's identity (brand.json, the logos): read at start, see server/brand/. */
  brand: join(ROOT, 'brand'),
  clientBuild: join(ROOT, 'dist', 'client'),
  manifest: join(ROOT, 'dist', 'client', 'manifest.json'),
};

// The service worker's own build (scripts/build.ts runs it next to the client build): one
// classic script, no imports left, no hash in its name (browsers look for it at /sw.js). The
// server serves it with the build's version and precache list in front (./routes.ts).
import type { BuildOptions } from 'esbuild';
import { join } from 'node:path';

export const SERVICE_WORKER_SOURCE = 'client/sw/service-worker.ts';

/** esbuild options for the worker: `root` is the project root, `outfile` by default dist/client/sw.js. */
export function serviceWorkerBuildOptions(root: string, outfile: string = join(root, 'dist', 'client', 'sw.js')): BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints: [SERVICE_WORKER_SOURCE],
    outfile,
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  };
}

// `npm start`: build when the build is missing or older than any source, then serve.
import module from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, isBuildStale, ROOT } from './build.ts';

if (isBuildStale()) {
  console.log('Building (the build is missing or older than the sources)…');
  await build();
}
// Compiled code is cached on disk between starts (node_modules/.cache), for a faster cold start.
module.enableCompileCache?.(join(ROOT, 'node_modules', '.cache', 'node-compile-cache'));
await import(pathToFileURL(join(ROOT, 'dist', 'server', 'main.js')).href);

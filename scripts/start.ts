// `npm start`: build when the build is missing or older than any source, then serve.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, isBuildStale, ROOT } from './build.ts';

if (isBuildStale()) {
  console.log('Building (the build is missing or older than the sources)…');
  await build();
}
await import(pathToFileURL(join(ROOT, 'dist', 'server', 'main.js')).href);

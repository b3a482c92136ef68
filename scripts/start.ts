// `npm start`: build when the build is missing or older than any source, then serve.
// The build tools (esbuild) load only when a build is needed; dist/server/main.js turns on
// Node's compile cache before it loads the server.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isBuildStale, ROOT } from './build-state.ts';

if (isBuildStale()) {
  console.log('Building (the build is missing or older than the sources)…');
  const { build } = await import('./build.ts');
  await build();
}
await import(pathToFileURL(join(ROOT, 'dist', 'server', 'main.js')).href);

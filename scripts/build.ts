// Production build with esbuild: the client (ESM, one chunk per page, hashed names, minified,
// CSS extracted), the messages per locale (hashed), a manifest from esbuild's metafile, the
// server bundle, the posts' images made into renditions (scripts/content-images.ts), and the
// content's Markdown rendered to HTML for it (so that the server never loads the Markdown
// renderer at start). Usage: node scripts/build.ts
import * as esbuild from 'esbuild';
import { minify as terser } from 'terser';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { builtinModules } from 'node:module';
import { postBodyImages } from '../server/content/embedded.ts';
import { parseFrontMatter } from '../server/content/front-matter.ts';
import { IMAGES_FILE, type ImageEntry } from '../server/content/image-manifest.ts';
import { createContentImages, folderImages } from '../server/content/images.ts';
import { htmlKey, renderMarkdown, writePrerendered, type BodyImages } from '../server/content/prerendered.ts';
import { buildContentImages } from './content-images.ts';
import { serviceWorkerBuildOptions } from '../server/sw/build.ts';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { BUILD_INFO, DIST, ROOT } from './build-state.ts';
import { builtServerArgs } from './server-flags.ts';

export { BUILD_INFO, isBuildStale, ROOT, SOURCE_DIRS, SOURCE_FILES } from './build-state.ts';

const CLIENT_OUT = join(DIST, 'client');
const ASSETS_OUT = join(CLIENT_OUT, 'assets');
const CONTENT_IMAGES_OUT = join(ASSETS_OUT, 'content');

type Chunk = { file: string; imports: string[]; css: string[] };

async function pageEntries(): Promise<string[]> {
  const files = await readdir(join(ROOT, 'client', 'pages'));
  return files.filter((f) => f.endsWith('.tsx')).map((f) => `client/pages/${f}`);
}

export function clientBuildOptions(entryPoints: string[]): esbuild.BuildOptions {
  return {
    absWorkingDir: ROOT,
    entryPoints: ['client/entry.tsx', ...entryPoints],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16.4'],
    outdir: ASSETS_OUT,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    publicPath: '/assets',
    // The stylesheet's url()s: the fonts (client/styles/fonts.css) become hashed files in /assets.
    loader: { '.woff2': 'file' },
    minify: true,
    metafile: true,
    jsx: 'automatic',
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
    plugins: [reactRouterProduction, lateChunksShareTheApp],
  };
}

/**
 * Every chunk the client loads after the entry (a page's, and what the app imports lazily)
 * imports client/app.tsx, in the client build only. They all run after the entry, so nothing new
 * loads; but esbuild, which does not know that, otherwise splits the modules the entry shares
 * with some of them into one chunk per set of importers: nine files on every first load, each
 * with its own imports, exports and gzip frame. Reaching the app from all of them puts those
 * modules in one chunk (docs/decisions/039: −1,818 B of the home page's first load).
 */
const lateChunksShareTheApp: esbuild.Plugin = {
  name: 'late-chunks-share-the-app',
  setup(build) {
    const app = join(ROOT, 'client', 'app.tsx');
    const lazy = new Set<string>();
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData === 'late-chunk') return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'late-chunk',
      });
      if (resolved.errors.length === 0) lazy.add(resolved.path);
      return resolved;
    });
    build.onLoad({ filter: /[\\/]client[\\/].*\.tsx?$/ }, async (args) => {
      const page = /[\\/]client[\\/]pages[\\/][a-z0-9-]+\.tsx$/.test(args.path);
      if (!page && !lazy.has(args.path)) return undefined;
      const source = await readFile(args.path, 'utf8');
      return { contents: `${source}\nimport ${JSON.stringify(app)};\n`, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
    });
  },
};

/**
 * React Router's production build. Its package.json maps every import to dist/development (a
 * known upstream gap, remix-run/react-router#14102), whose only difference is
 * `ENABLE_DEV_WARNINGS = true`: developer warnings computed on every render and printed in
 * production, and their text in the browser's bundle. The production builds of both sides
 * resolve `react-router` and `react-router/dom` to the same files in dist/production instead
 * (docs/decisions/045); `npm run dev` keeps the development build and its warnings. A package
 * whose layout changes fails the build here rather than silently falling back.
 */
export const reactRouterProduction: esbuild.Plugin = {
  name: 'react-router-production',
  setup(build) {
    build.onResolve({ filter: /^react-router(\/dom)?$/ }, async (args) => {
      if (args.pluginData === 'react-router-production') return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'react-router-production',
      });
      if (resolved.errors.length > 0) return resolved;
      const production = resolved.path.replace(/([\\/]dist[\\/])development([\\/])/, '$1production$2');
      if (production === resolved.path || !existsSync(production)) {
        return { errors: [{ text: `React Router's production build not found beside ${resolved.path}` }] };
      }
      return { ...resolved, path: production };
    });
  },
};

const BUILTINS = new Set(builtinModules);

/**
 * Node's built-in modules imported by ES module syntax come from `process.getBuiltinModule`
 * instead of an `import` of the bundle. An ES import of a built-in makes Node build the
 * module's ES facade, which reads every export: `node:http`'s lazy `WebSocket` getters then
 * load and compile undici — about 60 ms of every start, for a client the server never uses.
 * `require()` calls are left to the banner's require, which builds no facade either.
 */
const builtinsWithoutFacade: esbuild.Plugin = {
  name: 'builtins-without-facade',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
      if (args.kind !== 'import-statement' && args.kind !== 'dynamic-import') return undefined;
      const name = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
      if (!BUILTINS.has(name.slice(5)) && !BUILTINS.has(name)) return undefined;
      return { path: name, namespace: 'node-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * The server as one file: the app and its dependencies, so that a start resolves and reads
 * one module instead of hundreds (about half of the cold start went there). Left outside: the
 * native addon (better-sqlite3), what loads on first use only (pdfmake with its fonts,
 * nodemailer, http-proxy-middleware), esbuild, and React, which picks its production or
 * development build by NODE_ENV when loaded (React Router is bundled: its production build,
 * reactRouterProduction above). Whitespace and syntax are minified (names are
 * kept, for readable stack traces; the source map maps positions back for profiles). The PDF
 * layout thread is a second entry, pdf-worker.js, loaded by server/pdf/renderer.ts beside it.
 */
export const serverBuildOptions: esbuild.BuildOptions = {
  absWorkingDir: ROOT,
  entryPoints: { server: 'server/main.ts', 'pdf-worker': 'server/pdf/worker.ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  outdir: join(DIST, 'server'),
  external: [
    'better-sqlite3',
    'pdfmake',
    'nodemailer',
    'http-proxy-middleware',
    'esbuild',
    'react',
    'react-dom',
    // Native (libvips), and loaded only to measure an image the build has not seen.
    'sharp',
  ],
  // CommonJS dependencies inside an ES module call require(): give them Node's.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  plugins: [reactRouterProduction, builtinsWithoutFacade],
  jsx: 'automatic',
  minifyWhitespace: true,
  minifySyntax: true,
  loader: { '.css': 'empty' },
  sourcemap: 'linked',
  logLevel: 'warning',
};

/**
 * The process entry, dist/server/main.js: Node's compile cache first — V8's code cache on
 * disk, in dist/server/.compile-cache unless NODE_COMPILE_CACHE names another folder — then
 * the bundle. It must be its own module: the cache only applies to modules loaded after it is
 * turned on. The build primes the cache (primeCompileCache), so that even the first start of
 * a deployed build skips compiling; where dist/ is read-only the server starts without it.
 */
const SERVER_ENTRY = `// Generated by scripts/build.ts: the server's entry point (see SERVER_ENTRY there).
import module from 'node:module';
import { fileURLToPath } from 'node:url';
module.enableCompileCache?.(process.env.NODE_COMPILE_CACHE || fileURLToPath(new URL('.compile-cache', import.meta.url)));
await import('./server.js');
`;

/**
 * Starts the built server once (a free loopback port, a throw-away DATA_DIR) until it listens
 * — it writes the compile cache then — and stops it. A failure is reported, not fatal: the
 * server only starts a little slower without the cache.
 */
async function primeCompileCache(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'prime-'));
  const child = spawn(process.execPath, builtServerArgs(), {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      // Production requires an origin; nothing is served to anyone here.
      PUBLIC_URL: 'http://127.0.0.1',
      DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'info',
      WEB_CONCURRENCY: '1',
      NODE_COMPILE_CACHE: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listening = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"startupMs"')) {
        clearTimeout(timer);
        resolve(true);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  // A server that could not start has exited already: its 'exit' event will not come again
  // (awaiting it left the build hanging on nothing, and Node ended it silently with status 0).
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  await rm(dataDir, { recursive: true, force: true });
  if (!listening) console.warn(`warning: the compile cache could not be primed (the server did not start):\n${output.slice(-2000)}`);
}

function toUrl(outputPath: string): string {
  return '/' + relative(CLIENT_OUT, join(ROOT, outputPath)).split('\\').join('/');
}

/**
 * The font files every first paint draws with, preloaded by each page: Montserrat's upright
 * variable file (text and headings alike). The italic one loads only where italics appear.
 */
export const PRELOADED_FONTS = ['montserrat-latin-wght-normal'] as const;

/** The built font files to preload (PRELOADED_FONTS), by URL. */
export function preloadedFonts(metafile: esbuild.Metafile): string[] {
  return Object.keys(metafile.outputs)
    .filter((path) => path.endsWith('.woff2') && PRELOADED_FONTS.some((name) => path.split('/').at(-1)!.startsWith(`${name}-`)))
    .map(toUrl);
}

/** page key (file name) → its chunk, static imports and CSS, from esbuild's metafile. */
export function manifestFromMetafile(metafile: esbuild.Metafile) {
  const byEntry = new Map<string, Chunk>();
  for (const [outputPath, output] of Object.entries(metafile.outputs)) {
    if (!output.entryPoint || !outputPath.endsWith('.js')) continue;
    byEntry.set(output.entryPoint, {
      file: toUrl(outputPath),
      imports: output.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => toUrl(i.path)),
      css: output.cssBundle ? [toUrl(output.cssBundle)] : [],
    });
  }
  const entry = byEntry.get('client/entry.tsx');
  if (!entry) throw new Error('The client build produced no entry chunk');
  const pages: Record<string, Chunk> = {};
  for (const [entryPoint, chunk] of byEntry) {
    const m = /^client\/pages\/([a-z0-9-]+)\.tsx$/.exec(entryPoint);
    if (m?.[1]) pages[m[1]] = chunk;
  }
  return { entry, pages };
}

async function writeMessages(): Promise<Record<string, string>> {
  const urls: Record<string, string> = {};
  for (const locale of await readdir(join(ROOT, 'locales'))) {
    const json = JSON.stringify(JSON.parse(await readFile(join(ROOT, 'locales', locale, 'common.json'), 'utf8')));
    const hash = createHash('sha256').update(json).digest('hex').slice(0, 10);
    const name = `messages-${locale}-${hash}.json`;
    await writeFile(join(ASSETS_OUT, name), json);
    urls[locale] = `/assets/${name}`;
  }
  return urls;
}

/** Every Markdown file under `dir`, recursively. */
async function markdownFiles(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? markdownFiles(join(dir, e.name)) : Promise.resolve(e.name.endsWith('.md') ? [join(dir, e.name)] : []),
    ),
  );
  return nested.flat();
}

/**
 * content/**.md → sanitised HTML by digest of the Markdown (and of a post's images), beside the
 * server bundle (server/content/prerendered.ts); a post's images are the renditions just made.
 */
async function prerenderContent(manifest: ReadonlyMap<string, ImageEntry>): Promise<number> {
  const html = new Map<string, string>();
  const images = createContentImages({ manifest, renditionsDir: CONTENT_IMAGES_OUT });
  const blogDir = join(ROOT, 'content', 'blog');
  for (const file of await markdownFiles(join(ROOT, 'content'))) {
    const { body } = parseFrontMatter(await readFile(file, 'utf8'), relative(ROOT, file));
    const isPost = dirname(dirname(file)) === blogDir;
    const bodyImages: BodyImages | undefined = isPost ? postBodyImages(images, await folderImages(dirname(file)), file) : undefined;
    html.set(htmlKey(body, bodyImages), await renderMarkdown(body, bodyImages));
  }
  await writePrerendered(join(DIST, 'server'), html);
  return html.size;
}

/**
 * The client's scripts minified once more by terser, after esbuild's own pass: esbuild minifies
 * for speed, terser for size (two compress passes shave about 3 % off the first load, most of it
 * in React Router's and i18next's code). Module scope, names of exports kept (the chunks import
 * each other by them). Deterministic: the same esbuild output gives the same bytes, so a hashed
 * name still means one content.
 */
async function minifyScripts(metafile: esbuild.Metafile): Promise<void> {
  const scripts = Object.keys(metafile.outputs).filter((path) => path.endsWith('.js'));
  await Promise.all(
    scripts.map(async (path) => {
      const file = join(ROOT, path);
      const result = await terser(await readFile(file, 'utf8'), {
        module: true,
        ecma: 2020,
        compress: { passes: 2 },
        mangle: true,
        format: { comments: false },
      });
      if (result.code === undefined) throw new Error(`terser gave nothing for ${path}`);
      await writeFile(file, result.code);
    }),
  );
}

/** Brotli and gzip copies of every compressible asset, served by the static middleware. */
async function precompress(): Promise<void> {
  for (const name of await readdir(ASSETS_OUT)) {
    if (!/\.(js|css|json|svg|map)$/.test(name)) continue;
    // Hashed: same name, same bytes — unless the file was written again after its copies.
    const compressed = join(ASSETS_OUT, `${name}.br`);
    if (existsSync(compressed) && (await stat(compressed)).mtimeMs >= (await stat(join(ASSETS_OUT, name))).mtimeMs) continue;
    const body = await readFile(join(ASSETS_OUT, name));
    await writeFile(join(ASSETS_OUT, `${name}.br`), brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
    await writeFile(join(ASSETS_OUT, `${name}.gz`), gzipSync(body, { level: 9 }));
  }
}

export async function build(options: { quiet?: boolean; primeCompileCache?: boolean } = {}): Promise<void> {
  const started = performance.now();
  // Keep earlier builds' hashed assets: pages already open in a browser may still ask for them
  // after a deploy. Only the manifest and the server bundle are replaced.
  await mkdir(ASSETS_OUT, { recursive: true });
  await rm(join(DIST, 'server'), { recursive: true, force: true });

  const [client] = await Promise.all([
    esbuild.build(clientBuildOptions(await pageEntries())),
    esbuild.build(serverBuildOptions).then(() => writeFile(join(DIST, 'server', 'main.js'), SERVER_ENTRY)),
    esbuild.build(serviceWorkerBuildOptions(ROOT, join(CLIENT_OUT, 'sw.js'))),
  ]);
  await minifyScripts(client.metafile!);
  const { entry, pages } = manifestFromMetafile(client.metafile!);
  const fonts = preloadedFonts(client.metafile!);
  const messages = await writeMessages();
  const images = await buildContentImages({ contentDir: join(ROOT, 'content'), outDir: CONTENT_IMAGES_OUT });
  await writeFile(join(DIST, 'server', IMAGES_FILE), JSON.stringify(Object.fromEntries(images.manifest)));
  await prerenderContent(images.manifest);
  await precompress();
  const buildId = createHash('sha256').update(JSON.stringify({ entry, pages, messages, fonts })).digest('hex').slice(0, 12);
  const manifest = { buildId, entry, pages, messages, fonts };
  await writeFile(join(CLIENT_OUT, 'manifest.json'), JSON.stringify(manifest, null, 2));
  // Not for `npm run dev`, which rebuilds on every change and restarts the server anyway.
  if (options.primeCompileCache !== false) await primeCompileCache();
  await writeFile(BUILD_INFO, JSON.stringify({ buildId, builtAt: new Date().toISOString() }));
  if (!options.quiet) {
    console.log(`content images: ${images.images} images, ${images.made} renditions made (the others kept) in ${images.ms} ms`);
    console.log(`build ${buildId} done in ${Math.round(performance.now() - started)} ms`);
  }
}

if (import.meta.filename === process.argv[1]) {
  build().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

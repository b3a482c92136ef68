// Production build with esbuild: the client (ESM, one chunk per page, hashed names, minified,
// CSS extracted), the messages per locale (hashed), a manifest from esbuild's metafile, the
// server bundle, and the content's Markdown rendered to HTML for it (so that the server never
// loads the Markdown renderer at start). Usage: node scripts/build.ts
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parseFrontMatter } from '../server/content/front-matter.ts';
import { markdownToSafeHtml } from '../server/content/markdown.ts';
import { markdownDigest, PRERENDERED_FILE } from '../server/content/prerendered.ts';
import { serviceWorkerBuildOptions } from '../server/sw/build.ts';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

export const ROOT = join(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
const CLIENT_OUT = join(DIST, 'client');
const ASSETS_OUT = join(CLIENT_OUT, 'assets');
export const BUILD_INFO = join(DIST, 'build-info.json');
/** Everything whose change makes a build stale (read by scripts/start.ts). */
export const SOURCE_DIRS = ['client', 'server', 'shared', 'locales'];
export const SOURCE_FILES = ['package.json', 'package-lock.json', 'scripts/build.ts'];

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
    minify: true,
    metafile: true,
    jsx: 'automatic',
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  };
}

/**
 * The server as one file: the app and its dependencies, so that a start resolves and reads
 * one module instead of hundreds (about half of the cold start went there). Left outside: the
 * native addon (better-sqlite3), what loads on first use only (pdfmake with its fonts,
 * nodemailer, http-proxy-middleware), esbuild, and React and React Router, which pick their
 * production or development build when loaded. Whitespace and syntax are minified (names are
 * kept, for readable stack traces; the source map maps positions back for profiles).
 */
export const serverBuildOptions: esbuild.BuildOptions = {
  absWorkingDir: ROOT,
  entryPoints: ['server/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  outfile: join(DIST, 'server', 'main.js'),
  external: [
    'better-sqlite3',
    'pdfmake',
    'nodemailer',
    'http-proxy-middleware',
    'esbuild',
    'react',
    'react-dom',
    'react-router',
    'react-router-dom',
  ],
  // CommonJS dependencies inside an ES module call require(): give them Node's.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  jsx: 'automatic',
  minifyWhitespace: true,
  minifySyntax: true,
  loader: { '.css': 'empty' },
  sourcemap: 'linked',
  logLevel: 'warning',
};

function toUrl(outputPath: string): string {
  return '/' + relative(CLIENT_OUT, join(ROOT, outputPath)).split('\\').join('/');
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
    const m = /^client\/pages\/([A-Za-z]+)\.tsx$/.exec(entryPoint);
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

/** content/**.md → sanitised HTML by digest of the Markdown, beside the server bundle (server/content/prerendered.ts). */
async function prerenderContent(): Promise<number> {
  const html: Record<string, string> = {};
  for (const file of await markdownFiles(join(ROOT, 'content'))) {
    const { body } = parseFrontMatter(await readFile(file, 'utf8'), relative(ROOT, file));
    html[markdownDigest(body)] = markdownToSafeHtml(body);
  }
  await writeFile(join(DIST, 'server', PRERENDERED_FILE), JSON.stringify(html));
  return Object.keys(html).length;
}

/** Brotli and gzip copies of every compressible asset, served by the static middleware. */
async function precompress(): Promise<void> {
  for (const name of await readdir(ASSETS_OUT)) {
    if (!/\.(js|css|json|svg|map)$/.test(name)) continue;
    if (existsSync(join(ASSETS_OUT, `${name}.br`))) continue; // hashed: same name, same bytes
    const body = await readFile(join(ASSETS_OUT, name));
    await writeFile(join(ASSETS_OUT, `${name}.br`), brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
    await writeFile(join(ASSETS_OUT, `${name}.gz`), gzipSync(body, { level: 9 }));
  }
}

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
  if (!existsSync(BUILD_INFO) || !existsSync(join(DIST, 'server', 'main.js'))) return true;
  const builtAt = statSync(BUILD_INFO).mtimeMs;
  return [...SOURCE_DIRS, ...SOURCE_FILES].some((p) => newestMtime(join(ROOT, p)) > builtAt);
}

export async function build(options: { quiet?: boolean } = {}): Promise<void> {
  const started = performance.now();
  // Keep earlier builds' hashed assets: pages already open in a browser may still ask for them
  // after a deploy. Only the manifest and the server bundle are replaced.
  await mkdir(ASSETS_OUT, { recursive: true });
  await rm(join(DIST, 'server'), { recursive: true, force: true });

  const [client] = await Promise.all([
    esbuild.build(clientBuildOptions(await pageEntries())),
    esbuild.build(serverBuildOptions),
    esbuild.build(serviceWorkerBuildOptions(ROOT, join(CLIENT_OUT, 'sw.js'))),
  ]);
  const { entry, pages } = manifestFromMetafile(client.metafile!);
  const messages = await writeMessages();
  await prerenderContent();
  await precompress();
  const buildId = createHash('sha256').update(JSON.stringify({ entry, pages, messages })).digest('hex').slice(0, 12);
  const manifest = { buildId, entry, pages, messages };
  await writeFile(join(CLIENT_OUT, 'manifest.json'), JSON.stringify(manifest, null, 2));
  await writeFile(BUILD_INFO, JSON.stringify({ buildId, builtAt: new Date().toISOString() }));
  if (!options.quiet) console.log(`build ${buildId} done in ${Math.round(performance.now() - started)} ms`);
}

if (import.meta.filename === process.argv[1]) {
  build().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

// First-load JavaScript of a page, from the client build's manifest: every script the server
// modulepreloads for it (the entry, its static imports, the page's chunk and its imports: the
// same set and order as server/render/manifest.ts preloadsFor), each gzipped at level 9, summed.
// Deterministic for a given build: a unit test can hold it to the budget.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Budget: first-load JavaScript of the home page, gzip -9. React Router and i18next in the browser
 * are the owner's price (docs/decisions/025); Next.js's equivalent page is 134,598 B.
 */
export const FIRST_LOAD_JS_BUDGET_BYTES = 110_000;

type ManifestChunk = { file: string; imports: string[] };
type Manifest = { entry: ManifestChunk; pages: Record<string, ManifestChunk | undefined> };

export type FirstLoadFile = { file: string; bytes: number; gzipBytes: number };
export type FirstLoadJs = {
  page: string;
  files: FirstLoadFile[];
  /** Sum of the raw sizes. */
  bytes: number;
  /** Sum of each file gzipped at level 9 (what the budget is about). */
  gzipBytes: number;
  budgetBytes: number;
  withinBudget: boolean;
};

/** The scripts a first load of `page` fetches, in load order, without duplicates. */
export function firstLoadFiles(manifest: Manifest, page: string): string[] {
  const pageChunk = manifest.pages[page];
  if (!pageChunk) throw new Error(`The manifest has no page "${page}" (pages: ${Object.keys(manifest.pages).join(', ')})`);
  return [...new Set([manifest.entry.file, ...manifest.entry.imports, pageChunk.file, ...pageChunk.imports])];
}

/**
 * @param manifestPath dist/client/manifest.json; asset URLs (/assets/x.js) resolve against its folder.
 * @param page a page key of the manifest (default: home).
 */
export function firstLoadJs(manifestPath: string, page = 'home', budgetBytes = FIRST_LOAD_JS_BUDGET_BYTES): FirstLoadJs {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const root = dirname(manifestPath);
  const files = firstLoadFiles(manifest, page).map((url): FirstLoadFile => {
    const body = readFileSync(join(root, url.replace(/^\/+/, '')));
    return { file: url, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
  });
  const gzipBytes = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  return {
    page,
    files,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    gzipBytes,
    budgetBytes,
    withinBudget: gzipBytes <= budgetBytes,
  };
}

if (import.meta.filename === process.argv[1]) {
  const result = firstLoadJs(process.argv[2] ?? join(import.meta.dirname, '..', '..', 'dist', 'client', 'manifest.json'), process.argv[3]);
  for (const f of result.files) console.log(`${String(f.gzipBytes).padStart(8)} B gz  ${String(f.bytes).padStart(8)} B  ${f.file}`);
  console.log(
    `${String(result.gzipBytes).padStart(8)} B gz  ${String(result.bytes).padStart(8)} B  total (${result.page}); budget ${result.budgetBytes} B: ${result.withinBudget ? 'PASS' : 'FAIL'}`,
  );
}

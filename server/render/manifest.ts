// The client build's manifest (written by scripts/build.ts from esbuild's metafile): for each
// page its chunk and the chunks it imports, so the server can modulepreload exactly those.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { PARSE_ONCE } from '../base/parse-once.ts';

const chunk = z.object({ file: z.string(), imports: z.array(z.string()), css: z.array(z.string()) });
const manifestSchema = z.object({
  buildId: z.string(),
  entry: chunk,
  pages: z.record(z.string(), chunk),
  messages: z.record(z.string(), z.string()),
  /** The font files the first paint draws with (scripts/build.ts PRELOADED_FONTS): preloaded by every page. */
  fonts: z.array(z.string()).default([]),
});

export type ClientManifest = z.input<typeof manifestSchema>;

export function readManifest(file: string): ClientManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`Client build manifest not readable at ${file} (run "npm run build"): ${(error as Error).message}`, { cause: error });
  }
  return manifestSchema.parse(raw, PARSE_ONCE);
}

/** Every script the first render of a page needs, in load order, without duplicates. */
export function preloadsFor(manifest: ClientManifest, page: string): string[] {
  const files = new Set<string>([manifest.entry.file, ...manifest.entry.imports]);
  const pageChunk = manifest.pages[page];
  if (pageChunk) [pageChunk.file, ...pageChunk.imports].forEach((f) => files.add(f));
  return [...files];
}

export function stylesheetsFor(manifest: ClientManifest, page: string): string[] {
  return [...new Set([...manifest.entry.css, ...(manifest.pages[page]?.css ?? [])])];
}

/** The fonts to preload: at most two files (more would compete with the page's own requests). */
export function fontPreloadsFor(manifest: ClientManifest): string[] {
  return (manifest.fonts ?? []).slice(0, 2);
}

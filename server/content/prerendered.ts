// Markdown rendered at build time. The build writes, beside the server bundle, the sanitised
// HTML of every Markdown file in content/, keyed by a SHA-256 of the Markdown; the server looks
// its content up there and loads the Markdown renderer only for what is missing (content
// edited after the build, or the tests, which run from source and have no such file).
// A post's HTML also depends on the images beside it (their renditions' URLs and sizes): its
// key then takes in a digest of those images too.
import { hash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocalImage } from './markdown.ts';
import { loadMarkdown } from './markdown-lazy.ts';

export const PRERENDERED_FILE = 'content-html.json';

export type Prerendered = ReadonlyMap<string, string>;

export function markdownDigest(markdown: string): string {
  return hash('sha256', markdown, 'base64url');
}

/** The build's pre-rendered HTML beside the running bundle (dist/server/), or none. */
export function loadPrerendered(dir = dirname(fileURLToPath(import.meta.url))): Prerendered {
  const file = join(dir, PRERENDERED_FILE);
  if (!existsSync(file)) return new Map();
  return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>));
}

/** The images a post's Markdown may show: those of its folder. */
export type BodyImages = {
  /** A digest of the folder's images ('' when there are none). */
  context: string;
  /** The image a relative src stands for; rejects, naming the file, when there is none. */
  resolve(src: string): Promise<LocalImage>;
};

/** The key of a Markdown file's HTML in the build's file. */
export function htmlKey(markdown: string, images?: BodyImages): string {
  return images?.context ? markdownDigest(`${markdown}\0${images.context}`) : markdownDigest(markdown);
}

/** Markdown → sanitised HTML, its relative images resolved first (their sizes are read asynchronously). */
export async function renderMarkdown(markdown: string, images?: BodyImages): Promise<string> {
  const { markdownToSafeHtml, localImageNames } = await loadMarkdown();
  if (!images) return markdownToSafeHtml(markdown);
  const resolved = new Map<string, LocalImage>();
  for (const src of localImageNames(markdown)) resolved.set(src, await images.resolve(src));
  return markdownToSafeHtml(markdown, { localImage: (src) => resolved.get(src) ?? null });
}

/** The sanitised HTML of `markdown`: pre-rendered when the build saw it, else rendered now. */
export async function markdownHtml(markdown: string, prerendered: Prerendered, images?: BodyImages): Promise<string> {
  const known = prerendered.get(htmlKey(markdown, images));
  if (known !== undefined) return known;
  return renderMarkdown(markdown, images);
}

// Markdown rendered at build time. The build writes, beside the server bundle, the sanitised
// HTML of every Markdown file in content/, keyed by a SHA-256 of the Markdown; the server looks
// its content up there and loads the Markdown renderer only for what is missing (content
// edited after the build, or the tests, which run from source and have no such file).
import { hash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** The sanitised HTML of `markdown`: pre-rendered when the build saw it, else rendered now. */
export async function markdownHtml(markdown: string, prerendered: Prerendered): Promise<string> {
  const known = prerendered.get(markdownDigest(markdown));
  if (known !== undefined) return known;
  return (await loadMarkdown()).markdownToSafeHtml(markdown);
}
